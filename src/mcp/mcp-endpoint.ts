// The tool endpoint at `/mcp` (SPEC "Tool endpoint"): Streamable HTTP without sessions, one
// MCP server per request, guarded by the same keys as the REST API (the access hook has
// checked the key; roles and sessions are checked per tool). Tools answer the REST call's
// data as structured content, and refusals as `isError` results starting with the status.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyPluginCallback } from 'fastify';
import type { Logger } from 'pino';
import type { Principal } from '../auth/index.js';
import { isAppError } from '../core/index.js';
import { refusalText, ForbiddenError } from './error-mapping.js';
import type { Tool, ToolCaller, ToolDeps } from './tool.js';
import { checkRole, checkScope } from './tool-access.js';

export interface McpEndpointOptions {
  readonly deps: ToolDeps;
  readonly tools: readonly Tool[];
  /** The server's version, named in the MCP handshake. */
  readonly version: string;
  readonly logger: Logger;
}

export const MCP_PATH = '/mcp';

export const mcpEndpoint: FastifyPluginCallback<McpEndpointOptions> = (app, options, done) => {
  const byName = new Map(options.tools.map((tool) => [tool.name, tool]));
  const listed = options.tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
  }));

  const call = async (
    tool: Tool,
    args: unknown,
    principal: Principal | null,
  ): Promise<CallToolResult> => {
    const caller: ToolCaller = {
      actor: principal?.actor ?? null,
      author: principal?.caller ?? 'anonymous',
      sessions: principal?.sessions ?? null,
    };
    try {
      checkRole(tool, principal);
      const input = tool.parse(args);
      checkScope(tool, input, principal, options.deps);
      const data: unknown = await tool.call(input, options.deps, caller);
      const structured = isRecord(data) ? data : { value: data };
      return {
        content: [{ type: 'text', text: JSON.stringify(structured) }],
        structuredContent: structured,
      };
    } catch (error) {
      if (
        !(error instanceof ForbiddenError) &&
        (!isAppError(error) || error.kind === 'unexpected')
      ) {
        options.logger.error({ err: error, tool: tool.name }, 'Tool call failed unexpectedly');
      }
      return { isError: true, content: [{ type: 'text', text: refusalText(error) }] };
    }
  };

  app.post(MCP_PATH, async (request, reply) => {
    const principal = request.principal;
    // The low-level server: the tool list is made once, arguments are checked by the tools'
    // own schemas, and refusals carry the HTTP status, which McpServer's handling would not.
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- see the comment above
    const server = new Server(
      { name: 'workflow-service', version: options.version },
      { capabilities: { tools: {} } },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
    server.setRequestHandler(CallToolRequestSchema, (message) => {
      const tool = byName.get(message.params.name);
      if (tool === undefined) {
        throw new McpError(ErrorCode.InvalidParams, `Unknown tool '${message.params.name}'`);
      }
      return call(tool, message.params.arguments, principal);
    });
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });
  done();
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
