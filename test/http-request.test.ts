// HTTP_REQUEST through a real server (CONTRACT 1: method, url, headers, body): a workflow
// calls a local endpoint once per message, its answers reach the terminal, and a message
// answered 503 is retried on its own with the same Idempotency-Key.
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';
import { endOf } from './support/wait.js';

interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: { n: number };
}

let endpoint: Server | undefined;
let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
  endpoint?.closeAllConnections();
  await new Promise((resolve) => endpoint?.close(resolve));
  endpoint = undefined;
});

/** Answers `{ doubled }`, and 503 to the first attempt of every odd number. */
async function startEndpoint(): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const refused = new Set<number>();
  endpoint = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { n: number };
      received.push({ headers: request.headers, body });
      if (body.n % 2 === 1 && !refused.has(body.n)) {
        refused.add(body.n);
        response.statusCode = 503;
        response.end();
        return;
      }
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ doubled: body.n * 2 }));
    });
  });
  await new Promise<void>((resolve) => endpoint?.listen(0, '127.0.0.1', resolve));
  const { port } = endpoint.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/double`, received };
}

describe('HTTP_REQUEST in a workflow', () => {
  it('POSTs each message, retries a message answered 503 with the same Idempotency-Key, and delivers every answer', async () => {
    const { url, received } = await startEndpoint();
    server = await startTestServer();
    await server.call('POST', '/api/sessions', {
      body: { sessionId: 's', name: 's', initiator: 'i' },
    });
    const saved = await server.call('PUT', '/api/sessions/s/workflows/calls', {
      body: {
        workflowId: 'calls',
        description: 'doubles numbers through an HTTP endpoint',
        nodes: [
          { nodeId: 'in', type: 'CONSTANT_SOURCE', config: { messages: [{ n: 1 }, { n: 2 }] } },
          {
            nodeId: 'call',
            type: 'HTTP_REQUEST',
            config: { method: 'POST', url, engine: { retry: { maxAttempts: 3, backoffMs: 1 } } },
          },
          { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
        ],
        edges: [
          { source: 'in', target: 'call' },
          { source: 'call', target: 'out' },
        ],
      },
    });
    expect(saved.status, saved.text).toBeLessThan(300);
    const start = await server.call('POST', '/api/workflow/start', {
      body: { sessionId: 's', workflowId: 'calls' },
    });
    const id = start.json.data.executionId as string;
    const record = await endOf(server, id);
    expect(record.status).toBe('COMPLETED');

    const results = await server.call('GET', `/api/executions/${id}/results`);
    const bodies = (results.json.data as { payload: { status: number; body: unknown } }[]).map(
      (result) => result.payload,
    );
    expect(bodies).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ status: 200, body: { doubled: 2 } }),
        expect.objectContaining({ status: 200, body: { doubled: 4 } }),
      ]),
    );
    expect(bodies).toHaveLength(2);

    // n = 1 was sent twice (503, then 200) under one key; n = 2 once under another.
    const keysOf = (n: number) =>
      received
        .filter((entry) => entry.body.n === n)
        .map((entry) => entry.headers['idempotency-key']);
    expect(keysOf(1)).toHaveLength(2);
    expect(new Set(keysOf(1)).size).toBe(1);
    expect(keysOf(2)).toHaveLength(1);
    expect(keysOf(2)[0]).not.toBe(keysOf(1)[0]);
  });
});
