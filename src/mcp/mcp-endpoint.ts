// The tool endpoint at `/mcp` (SPEC "Tool endpoint"): Streamable HTTP, guarded by the same keys
// as the REST API (the access hook has checked the key; roles and sessions are checked per
// tool, resource and prompt). A client that initializes gets a session (mcp-sessions.ts); a
// request without one is answered on its own, as JSON, by a server made for it.
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import { createMcpServer } from './mcp-server.js';
import type { McpServerOptions } from './mcp-server.js';
import { McpSessions, ownerOf } from './mcp-sessions.js';
import type { McpSession } from './mcp-sessions.js';

export type McpEndpointOptions = McpServerOptions;

export const MCP_PATH = '/mcp';

const SESSION_HEADER = 'mcp-session-id';

export const mcpEndpoint: FastifyPluginCallback<McpEndpointOptions> = (app, options, done) => {
  const sessions = new McpSessions();
  // Before the server stops listening: open event streams would keep it from closing.
  app.addHook('preClose', async () => {
    await sessions.closeAll();
  });

  /** The session a request names, or an answer saying it is not there (the client starts over). */
  const sessionOf = (request: FastifyRequest, reply: FastifyReply): McpSession | undefined => {
    const id = request.headers[SESSION_HEADER];
    const session =
      typeof id === 'string' ? sessions.find(id, ownerOf(request.principal)) : undefined;
    if (session === undefined) {
      answerRaw(reply, 404, { code: -32001, message: 'Session not found: send initialize again' });
    }
    return session;
  };

  /** Hands a request to a session's transport, counting the streams it keeps open. */
  const handle = async (
    session: McpSession,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<void> => {
    reply.hijack();
    session.streams += 1;
    reply.raw.on('close', () => {
      session.streams -= 1;
    });
    await session.transport.handleRequest(request.raw, reply.raw, request.body);
  };

  app.post(MCP_PATH, async (request, reply) => {
    if (request.headers[SESSION_HEADER] !== undefined) {
      const session = sessionOf(request, reply);
      if (session !== undefined) await handle(session, request, reply);
      return;
    }
    if (isInitializeRequest(request.body)) {
      await openSession(request, reply);
      return;
    }
    // A request on its own: one server for it, answered as JSON, ended with the request.
    const connection = createMcpServer(options, request.principal, false);
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
    reply.hijack();
    reply.raw.on('close', () => {
      connection.close();
      void transport.close();
      void connection.server.close();
    });
    await connection.server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });

  const openSession = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const principal = request.principal;
    const connection = createMcpServer(options, principal, true);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.add(id, {
          transport,
          connection,
          principal,
          owner: ownerOf(principal),
          lastUsed: Date.now(),
          streams: 0,
        });
      },
      onsessionclosed: (id) => {
        sessions.remove(id);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.remove(transport.sessionId);
      connection.close();
    };
    await connection.server.connect(transport);
    reply.hijack();
    await transport.handleRequest(request.raw, reply.raw, request.body);
    // An initialize that failed opened no session: nothing keeps its server.
    if (transport.sessionId === undefined) await connection.server.close();
  };

  // The stream of notifications of a session (GET) and its end (DELETE); without a session
  // there is nothing to stream or end.
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: MCP_PATH,
      handler: async (request, reply) => {
        if (request.headers[SESSION_HEADER] === undefined) {
          reply.hijack();
          reply.raw.setHeader('allow', 'POST');
          answerRaw(reply, 405, { code: -32000, message: 'Method not allowed without a session' });
          return;
        }
        const session = sessionOf(request, reply);
        if (session !== undefined) await handle(session, request, reply);
      },
    });
  }
  done();
};

/** A JSON-RPC error written past Fastify: the endpoint speaks JSON-RPC, not the envelope. */
function answerRaw(
  reply: FastifyReply,
  status: number,
  error: { readonly code: number; readonly message: string },
): void {
  if (!reply.sent) reply.hijack();
  const raw: ServerResponse = reply.raw;
  raw.writeHead(status, { 'content-type': 'application/json' });
  raw.end(JSON.stringify({ jsonrpc: '2.0', id: null, error }));
}
