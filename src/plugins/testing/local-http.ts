// A real HTTP server on a free loopback port for plugin tests that call out (webhooks, HTTP
// requests), and its teardown.
import { createServer } from 'node:http';
import type { RequestListener, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export async function listenOnLoopback(
  handler: RequestListener,
): Promise<{ readonly server: Server; readonly origin: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://127.0.0.1:${port}` };
}

/** Drops open connections (keep-alive, requests left hanging) and stops listening. */
export async function closeServer(server: Server | undefined): Promise<void> {
  server?.closeAllConnections();
  if (server?.listening === true) await new Promise((resolve) => server.close(resolve));
}
