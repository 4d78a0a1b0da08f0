import type { Server, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { StepFailure } from '../../../plugin-api/index.js';
import type { MessageProcessor } from '../../../plugin-api/index.js';
import {
  closeServer,
  createTestContext,
  listenForBodies,
  message,
  processAll,
  waitUntil,
} from '../../testing/index.js';
import type { ReceivedRequest } from '../../testing/index.js';
import { MAX_RESPONSE_BYTES, httpRequestPlugin } from './http-request.js';

let server: Server | undefined;

/** A local endpoint that records each request and answers it with `answer`. */
async function startEndpoint(
  answer: (response: ServerResponse, request: ReceivedRequest) => void,
): Promise<{ url: string; received: ReceivedRequest[] }> {
  const received: ReceivedRequest[] = [];
  const listening = await listenForBodies((entry, response) => {
    received.push(entry);
    answer(response, entry);
  });
  server = listening.server;
  return { url: listening.origin, received };
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.statusCode = status;
  response.setHeader('content-type', 'application/json');
  response.end(JSON.stringify(body));
}

afterEach(async () => {
  await closeServer(server);
  server = undefined;
});

function runtimeOf(config: unknown): MessageProcessor {
  const parsed = httpRequestPlugin.configSchema.parse(config);
  const setup = { nodeId: 'call', settings: undefined };
  return httpRequestPlugin.create!(parsed, setup) as MessageProcessor;
}

describe('HTTP_REQUEST (CONTRACT 1: method, url, headers, body)', () => {
  it('GETs the url once per message and emits the status, headers and parsed JSON body', async () => {
    const { url, received } = await startEndpoint((response, request) => {
      json(response, 200, { echo: request.url });
    });
    const ctx = createTestContext();
    const emitted = await processAll(
      runtimeOf({ url: `${url}/items?x=1`, headers: { 'x-token': 'abc' } }),
      [message({ a: 1 }), message({ a: 2 })],
      ctx,
    );
    expect(emitted).toEqual([
      {
        payload: {
          status: 200,
          headers: expect.objectContaining({ 'content-type': 'application/json' }),
          body: { echo: '/items?x=1' },
        },
      },
      expect.objectContaining({ payload: expect.objectContaining({ status: 200 }) }),
    ]);
    expect(received.map((request) => [request.method, request.body])).toEqual([
      ['GET', ''],
      ['GET', ''],
    ]);
    expect(received[0]?.headers['x-token']).toBe('abc');
    expect(ctx.reports).toEqual(['http.request:completed', 'http.request:completed']);
  });

  it('POSTs the message payload as JSON with its message id as Idempotency-Key when no body is set', async () => {
    const { url, received } = await startEndpoint((response) => {
      response.statusCode = 201;
      response.end('created');
    });
    const input = message({ order: 7 });
    const [emitted] = await processAll(runtimeOf({ method: 'POST', url }), [input]);
    expect(emitted).toEqual({
      payload: { status: 201, headers: expect.any(Object), body: 'created' },
    });
    expect(received[0]?.method).toBe('POST');
    expect(JSON.parse(received[0]?.body ?? '')).toEqual({ order: 7 });
    expect(received[0]?.headers['content-type']).toBe('application/json');
    expect(received[0]?.headers['idempotency-key']).toBe(input.id);
  });

  it('sends a configured body: a string as it is, and keeps headers the node sets', async () => {
    const { url, received } = await startEndpoint((response) => response.end());
    await processAll(
      runtimeOf({
        method: 'PUT',
        url,
        body: 'plain words',
        headers: { 'content-type': 'text/csv', 'idempotency-key': 'mine' },
      }),
      [message({ ignored: true })],
    );
    expect(received[0]).toMatchObject({
      method: 'PUT',
      body: 'plain words',
      headers: { 'content-type': 'text/csv', 'idempotency-key': 'mine' },
    });
  });

  it('emits a null body for an empty answer and keeps text that is mislabelled JSON', async () => {
    let calls = 0;
    const { url } = await startEndpoint((response) => {
      calls++;
      if (calls === 1) {
        response.statusCode = 204;
        response.end();
      } else {
        response.setHeader('content-type', 'application/json');
        response.end('not json');
      }
    });
    const emitted = await processAll(runtimeOf({ url }), [message(1), message(2)]);
    expect(emitted.map((emit) => (emit.payload as { body: unknown }).body)).toEqual([
      null,
      'not json',
    ]);
  });

  it('fails the message as retryable on 429 and 5xx answers, naming the status and not the URL', async () => {
    const { url } = await startEndpoint((response) => {
      json(response, 503, {});
    });
    const ctx = createTestContext();
    const failing = processAll(runtimeOf({ url: `${url}/?token=secret` }), [message({})], ctx);
    await expect(failing).rejects.toThrow('GET request answered HTTP 503 Service Unavailable');
    await expect(failing).rejects.toHaveProperty('retryable', true);
    await expect(failing).rejects.not.toThrow(/secret/);
    expect(ctx.reports).toEqual(['http.request:failed']);
  });

  it('fails the message as not retryable on other 4xx answers', async () => {
    const { url } = await startEndpoint((response) => {
      json(response, 404, {});
    });
    const failing = processAll(runtimeOf({ url }), [message({})]);
    await expect(failing).rejects.toThrow('GET request answered HTTP 404 Not Found');
    await expect(failing).rejects.toBeInstanceOf(StepFailure);
    await expect(failing).rejects.toHaveProperty('retryable', false);
  });

  it('fails the message as retryable when the server cannot be reached', async () => {
    const { url } = await startEndpoint((response) => response.end());
    await new Promise((resolve) => server?.close(resolve));
    const failing = processAll(runtimeOf({ url }), [message({})]);
    await expect(failing).rejects.toThrow(/^GET request failed: fetch failed \(.*ECONNREFUSED/);
    await expect(failing).rejects.toHaveProperty('retryable', true);
  });

  it('fails the message when the answer is larger than the limit', async () => {
    const { url } = await startEndpoint((response) => {
      response.end(Buffer.alloc(MAX_RESPONSE_BYTES + 1, 120));
    });
    const failing = processAll(runtimeOf({ url }), [message({})]);
    await expect(failing).rejects.toThrow(`GET request answered more than ${MAX_RESPONSE_BYTES}`);
    await expect(failing).rejects.toHaveProperty('retryable', false);
  });

  it('gives up a request that is under way when the node is stopped', async () => {
    const { url, received } = await startEndpoint(() => undefined);
    const ctx = createTestContext();
    const failing = processAll(runtimeOf({ url }), [message({})], ctx);
    await waitUntil(() => received.length === 1, 'the request to reach the endpoint');
    ctx.abort(new Error('stopped by the operator'));
    await expect(failing).rejects.toThrow('stopped by the operator');
    expect(ctx.reports).toEqual(['http.request:stopped']);
  });

  it('refuses a url that is not http or https when the workflow is validated', () => {
    const parsed = httpRequestPlugin.configSchema.safeParse({ url: 'ftp://example.com/x' });
    expect(parsed.success).toBe(false);
  });
});

describe('HTTP_REQUEST trace context (SPEC Tracing)', () => {
  it('sends the call span’s traceparent over a configured one, and records the call without its query', async () => {
    const { url, received } = await startEndpoint((response) => {
      json(response, 503, {});
    });
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const ctx = createTestContext({ traceHeaders: { traceparent } });
    const runtime = runtimeOf({
      method: 'POST',
      url: `${url}/hook?token=secret`,
      headers: { traceparent: '00-ffffffffffffffffffffffffffffffff-ffffffffffffffff-01' },
    });
    await expect(runtime.process(message({ a: 1 }), ctx)).rejects.toBeInstanceOf(StepFailure);
    expect(received[0]?.headers.traceparent).toBe(traceparent);
    expect(ctx.calls).toHaveLength(1);
    const [call] = ctx.calls;
    expect(call?.call.name).toBe('POST');
    expect(call?.attributes).toEqual({
      'http.request.method': 'POST',
      'server.address': '127.0.0.1',
      'server.port': Number(new URL(url).port),
      'url.full': `${url}/hook`,
      'http.response.status_code': 503,
      'error.type': '503',
    });
    expect(call?.ended?.error).toBeInstanceOf(StepFailure);
  });

  it('adds no trace header when tracing is off', async () => {
    const { url, received } = await startEndpoint((response) => {
      json(response, 200, {});
    });
    await processAll(runtimeOf({ url }), [message({ a: 1 })], createTestContext());
    expect(received[0]?.headers).not.toHaveProperty('traceparent');
  });
});
