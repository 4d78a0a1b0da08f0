// MCP_TOOL_CALL (optional plugin mcp-tool-call): calls a tool of a Streamable HTTP MCP server,
// under the server's allow-list and argument filters (SPEC Workflow-author safeguards).
import { definePlugin, z } from '../../../plugin-api/index.js';
import { httpUrl } from '../schemas.js';

export const mcpToolCallPlugin = definePlugin({
  type: 'MCP_TOOL_CALL',
  kind: 'processor',
  description: 'Calls a tool of an MCP server per message and emits its result.',
  configSchema: z.looseObject({
    url: httpUrl().describe('Streamable HTTP endpoint of the MCP server'),
    tool: z.string().min(1).describe('Tool name'),
    arguments: z.record(z.string(), z.unknown()).optional().describe('Tool arguments'),
  }),
  outputPorts: () => ['out'],
  defaultTimeoutSeconds: 30,
});
