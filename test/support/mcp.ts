// The official MCP SDK client against a test server's tool endpoint.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';

export interface ToolAnswer {
  readonly isError: boolean;
  /** The text of the first content block: the data as JSON, or the refusal. */
  readonly text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- structured content of any tool
  readonly data: any;
}

export interface McpSession {
  readonly client: Client;
  /** The Mcp-Session-Id the server gave the connection. */
  readonly sessionId: string | undefined;
  call(name: string, args?: Record<string, unknown>): Promise<ToolAnswer>;
  close(): Promise<void>;
}

/** Connects with `key` sent as a bearer token, or without a key, declaring `capabilities`. */
export async function connectMcp(
  baseUrl: string,
  key?: string,
  capabilities: ClientCapabilities = {},
): Promise<McpSession> {
  const client = new Client({ name: 'tests', version: '1.0.0' }, { capabilities });
  const headers: Record<string, string> =
    key === undefined ? {} : { authorization: `Bearer ${key}` };
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), {
    requestInit: { headers },
  });
  await client.connect(transport);
  return {
    client,
    sessionId: transport.sessionId,
    async call(name, args = {}) {
      const result = await client.callTool({ name, arguments: args });
      const content = result.content as { type: string; text?: string }[];
      return {
        isError: result.isError === true,
        text: content[0]?.text ?? '',
        data: result.structuredContent,
      };
    },
    close: () => client.close(),
  };
}
