export { MCP_PATH, mcpEndpoint } from './mcp-endpoint.js';
export type { McpEndpointOptions } from './mcp-endpoint.js';
export { MCP_TOOLS } from './tools/index.js';
export type { Tool, ToolDeps } from './tool.js';
