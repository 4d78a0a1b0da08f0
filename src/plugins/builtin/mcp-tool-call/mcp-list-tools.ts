// MCP_LIST_TOOLS (optional plugin mcp-tool-call): emits the tools of an MCP server for each
// message, limited to `svc.mcp-client.allowed-tools` when that is set: a workflow (an agent
// loop above all) sees only the tools it may call.
import { definePlugin, httpUrl, pluginSettings, z } from '../../../plugin-api/index.js';
import type { Emit, MessageProcessor, NodeContext } from '../../../plugin-api/index.js';
import { McpConnection, SDK_TIMEOUT_MS, mcpFailure } from './mcp-connection.js';

/** The `plugin` tag of `svc.plugin.events` for listings. */
export const LIST_EVENT = 'mcp.list';

const configSchema = z.looseObject({
  url: httpUrl().describe('Streamable HTTP endpoint of the MCP server'),
  headers: z
    .record(z.string(), z.string())
    .optional()
    .describe('HTTP headers sent to the MCP server, e.g. Authorization; may be secrets'),
});

export interface ListedTool {
  readonly name: string;
  readonly description: string | null;
  readonly inputSchema: unknown;
}

export const mcpListToolsPlugin = definePlugin({
  type: 'MCP_LIST_TOOLS',
  kind: 'processor',
  description:
    'Emits { tools: [{ name, description, inputSchema }] } of an MCP server per message.',
  configSchema,
  outputPorts: () => ['out'],
  defaultTimeoutSeconds: 30,
  settings: pluginSettings(['svc.mcp-client.allowed-tools'], (values) => ({
    allowedTools: values['svc.mcp-client.allowed-tools'],
  })),
  create: (config, setup) =>
    new McpListTools(new McpConnection(config.url, config.headers), setup.settings.allowedTools),
});

class McpListTools implements MessageProcessor {
  readonly #connection: McpConnection;
  /** Tools the workflow may see; empty: all of them. */
  readonly #allowed: readonly string[];

  constructor(connection: McpConnection, allowed: readonly string[]) {
    this.#connection = connection;
    this.#allowed = allowed;
  }

  async process(_message: unknown, ctx: NodeContext): Promise<Emit> {
    try {
      const client = await this.#connection.client(ctx.signal);
      const tools: ListedTool[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor === undefined ? undefined : { cursor }, {
          signal: ctx.signal,
          timeout: SDK_TIMEOUT_MS,
        });
        for (const tool of page.tools) {
          tools.push({
            name: tool.name,
            description: tool.description ?? null,
            inputSchema: tool.inputSchema,
          });
        }
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      const allowed = this.#allowed;
      ctx.report(LIST_EVENT, 'completed');
      const listed =
        allowed.length === 0 ? tools : tools.filter((tool) => allowed.includes(tool.name));
      return { payload: { tools: listed } };
    } catch (error) {
      ctx.report(LIST_EVENT, ctx.signal.aborted ? 'stopped' : 'failed');
      if (ctx.signal.aborted) throw error;
      const failure = mcpFailure('MCP tool listing failed', error);
      if (failure.retryable) this.#connection.drop();
      throw failure;
    }
  }

  close(): Promise<void> {
    return this.#connection.close();
  }
}
