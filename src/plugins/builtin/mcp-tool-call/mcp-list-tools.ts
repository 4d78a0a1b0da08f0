// MCP_LIST_TOOLS (optional plugin mcp-tool-call): lists the tools of an MCP server.
import { definePlugin, z } from '../../../plugin-api/index.js';
import { httpUrl } from '../schemas.js';

export const mcpListToolsPlugin = definePlugin({
  type: 'MCP_LIST_TOOLS',
  kind: 'processor',
  description: 'Emits the tool list of an MCP server for each message.',
  configSchema: z.looseObject({
    url: httpUrl().describe('Streamable HTTP endpoint of the MCP server'),
  }),
  outputPorts: () => ['out'],
  defaultTimeoutSeconds: 30,
});
