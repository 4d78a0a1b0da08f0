// A real HTTP server on a free loopback port for plugin tests that call out (webhooks, HTTP
// requests, models, MCP servers), and its teardown.
import { createServer } from 'node:http';
import type {
  IncomingHttpHeaders,
  IncomingMessage,
  RequestListener,
  Server,
  ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

export async function listenOnLoopback(
  handler: RequestListener,
): Promise<{ readonly server: Server; readonly origin: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://127.0.0.1:${port}` };
}

/** One request a loopback endpoint received, with its whole body as text. */
export interface ReceivedRequest {
  readonly method: string | undefined;
  readonly url: string | undefined;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** Listens on loopback and hands `answer` each request once its whole body has arrived. */
export function listenForBodies(
  answer: (received: ReceivedRequest, response: ServerResponse, request: IncomingMessage) => void,
): Promise<{ readonly server: Server; readonly origin: string }> {
  return listenOnLoopback((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      answer(
        { method: request.method, url: request.url, headers: request.headers, body },
        response,
        request,
      );
    });
  });
}

/** Drops open connections (keep-alive, requests left hanging) and stops listening. */
export async function closeServer(server: Server | undefined): Promise<void> {
  server?.closeAllConnections();
  if (server?.listening === true) await new Promise((resolve) => server.close(resolve));
}
