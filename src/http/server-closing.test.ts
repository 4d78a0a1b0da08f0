import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { createBareHttpServer } from './testing/index.js';

describe('a server that is closing', () => {
  it('answers a request still arriving on an open connection with 503 in the envelope (SPEC Errors)', async () => {
    const { fastify } = await createBareHttpServer();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let arrived: () => void = () => undefined;
    const slowArrived = new Promise<void>((resolve) => (arrived = resolve));
    fastify.get('/slow', async () => {
      arrived();
      await held;
      return { ok: true };
    });
    await fastify.listen({ host: '127.0.0.1', port: 0 });
    const address = fastify.server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;

    // A request in flight keeps the connection open while the server closes; a second one then
    // arrives on it.
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString();
    });
    const ended = new Promise<void>((resolve) => {
      socket.on('close', () => {
        resolve();
      });
    });
    socket.write('GET /slow HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await slowArrived;
    const closed = fastify.close();
    // The server stops listening once closing has begun; only then may the first answer go.
    for (let tries = 0; fastify.server.listening && tries < 500; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    socket.write('GET /api/sessions HTTP/1.1\r\nHost: localhost\r\n\r\n');
    release();
    await ended;
    await closed;

    const second = received.slice(received.indexOf('HTTP/1.1', 1));
    expect(second).toMatch(/^HTTP\/1\.1 503 Service Unavailable/);
    expect(second.toLowerCase()).toContain('x-request-id:');
    // Every 503 says when to try again (5 s unless the server is told otherwise).
    expect(second.toLowerCase()).toContain('retry-after: 5\r\n');
    const body = JSON.parse(second.slice(second.indexOf('\r\n\r\n') + 4)) as Record<
      string,
      unknown
    >;
    expect(body).toMatchObject({
      status: 503,
      error: 'Service Unavailable',
      path: '/api/sessions',
      message: 'The server is shutting down; send the request to another server or retry later',
    });
  });
});
