// WEBHOOK_TRIGGER and hook calls through a real server (docs/webhooks.md): open without a key,
// the trigger's secret or signature, async and sync answers, timeouts and failures, and the
// same limits as any request.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';
import { endOf } from './support/wait.js';

const KEY = 'hook-test-key';
const SECRET = 's3cret-value';
const auth = { authorization: `Bearer ${KEY}` };

function hookWorkflow(
  workflowId: string,
  hook: Record<string, unknown>,
  middle: readonly Record<string, unknown>[] = [
    { nodeId: 'map', type: 'MAPPER', config: { expression: '{"got": $}' } },
  ],
) {
  const nodes = [{ nodeId: 'hook', type: 'WEBHOOK_TRIGGER', config: hook }, ...middle];
  const chain = [...nodes.map((node) => node.nodeId as string), 'out'];
  return {
    workflowId,
    description: 'started by a hook',
    nodes: [...nodes, { nodeId: 'out', type: 'NOTIFY_TERMINAL' }],
    edges: chain.slice(1).map((target, index) => ({ source: chain[index], target })),
  };
}

function signed(body: string, secret = SECRET): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

describe('hook calls', () => {
  let server: TestServer;
  /** The server called with the key, for what the hook calls leave to read. */
  const authed: Pick<TestServer, 'call'> = {
    call: (method, path, options = {}) =>
      server.call(method, path, { ...options, headers: { ...auth, ...options.headers } }),
  };

  beforeAll(async () => {
    server = await startTestServer({
      env: { SVC_API_KEY: KEY, SVC_SECRET_HOOK_SECRET: SECRET },
      argv: ['--svc.limits.max-body=2048'],
    });
    const created = await server.call('POST', '/api/sessions', {
      headers: auth,
      body: { sessionId: 'shop', name: 'shop', initiator: 'test' },
    });
    expect(created.status, created.text).toBe(201);
    const workflows = [
      hookWorkflow('open', {}),
      hookWorkflow('guarded', { secret: 'decrypted:hook.secret' }),
      hookWorkflow('sync', { respond: 'sync', timeoutSeconds: 10 }),
      hookWorkflow('slow', { respond: 'sync', timeoutSeconds: 0.3 }, [
        { nodeId: 'wait', type: 'DELAY', config: { delayMs: 1500 } },
      ]),
      hookWorkflow('failing', { respond: 'sync' }, [
        { nodeId: 'map', type: 'MAPPER', config: { expression: '$error("no stock")' } },
      ]),
      {
        ...hookWorkflow('quiet', { respond: 'sync' }, [
          { nodeId: 'drop', type: 'FILTER', config: { expression: 'false' } },
        ]),
        edges: [
          { source: 'hook', target: 'drop' },
          { source: 'drop', target: 'out', sourcePort: 'out' },
        ],
      },
      {
        workflowId: 'plain',
        description: 'no hook',
        nodes: [
          { nodeId: 'in', type: 'API_TRIGGER' },
          { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
        ],
        edges: [{ source: 'in', target: 'out' }],
      },
    ];
    for (const workflow of workflows) {
      const saved = await server.call(
        'PUT',
        `/api/sessions/shop/workflows/${workflow.workflowId}`,
        {
          headers: auth,
          body: workflow,
        },
      );
      expect(saved.status, saved.text).toBeLessThan(300);
    }
  });

  afterAll(async () => {
    await server.close();
  });

  it('starts the workflow without an API key and runs it on the JSON body', async () => {
    const answer = await server.call('POST', '/api/hooks/shop/open', { body: { order: 7 } });
    expect(answer.status, answer.text).toBe(202);
    expect(answer.json.message).toBe('Execution accepted');
    const executionId = answer.json.data.executionId as string;
    expect(answer.headers.get('x-execution-id')).toBe(executionId);
    const record = await endOf(authed, executionId);
    expect(record.status).toBe('COMPLETED');
    const results = await server.call('GET', `/api/executions/${executionId}/results`, {
      headers: auth,
    });
    expect(results.json.data.map((result: { payload: unknown }) => result.payload)).toEqual([
      { got: { order: 7 } },
    ]);
    // The rest of the API still needs the key.
    expect((await server.call('GET', `/api/executions/${executionId}`)).status).toBe(401);
  });

  it('takes a call without a body as a start without a payload', async () => {
    const answer = await server.call('POST', '/api/hooks/shop/open');
    expect(answer.status, answer.text).toBe(202);
    expect((await endOf(authed, answer.json.data.executionId)).status).toBe('COMPLETED');
  });

  it('asks for the secret: as X-Hook-Secret or as an HMAC-SHA256 signature of the body', async () => {
    const body = JSON.stringify({ order: 8 });
    const call = (headers: Record<string, string>) =>
      server.call('POST', '/api/hooks/shop/guarded', { body, headers });
    const missing = await call({});
    expect(missing.status).toBe(401);
    expect(missing.text).toBe('');
    expect(missing.headers.get('www-authenticate')).toBe('Hook');
    expect((await call({ 'x-hook-secret': 'wrong' })).status).toBe(401);
    expect((await call({ 'x-hook-signature': signed(body, 'wrong') })).status).toBe(401);
    expect((await call({ 'x-hook-signature': signed(`${body} `) })).status).toBe(401);
    // An API key is not the hook's secret.
    expect((await call(auth)).status).toBe(401);
    expect((await call({ 'x-hook-secret': SECRET })).status).toBe(202);
    expect((await call({ 'x-hook-signature': signed(body) })).status).toBe(202);
    expect(
      (await call({ 'x-hook-signature': signed(body).toUpperCase().replace('SHA256', 'sha256') }))
        .status,
    ).toBe(202);
  });

  it('answers a sync hook with the payload of the first terminal message', async () => {
    const answer = await server.call('POST', '/api/hooks/shop/sync', { body: [1, 2] });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json.data).toEqual({ got: [1, 2] });
    expect(answer.headers.get('x-execution-id')).toMatch(/.+/);
  });

  it('answers 504 when no terminal message comes in time, and the run goes on', async () => {
    const answer = await server.call('POST', '/api/hooks/shop/slow', { body: { n: 1 } });
    expect(answer.status, answer.text).toBe(504);
    expect(answer.json.message).toMatch(
      /^Execution '.+' sent no terminal message within 0.3 s; it goes on/,
    );
    const id = /Execution '([^']+)'/.exec(answer.json.message as string)?.[1] ?? '';
    expect((await endOf(authed, id)).status).toBe('COMPLETED');
  });

  it('answers 502 naming the failure when the run fails first', async () => {
    const answer = await server.call('POST', '/api/hooks/shop/failing', { body: {} });
    expect(answer.status, answer.text).toBe(502);
    expect(answer.json.message).toMatch(
      /^Execution '.+' ended FAILED before a terminal message: .*no stock/,
    );
  });

  it('answers 200 with no data when the run completes without a terminal message', async () => {
    const answer = await server.call('POST', '/api/hooks/shop/quiet', { body: {} });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json).toMatchObject({
      message: 'The run completed without a terminal message',
      data: null,
    });
  });

  it('answers the same 404 for an unknown session, an unknown workflow and one without a hook', async () => {
    const messages = [];
    for (const path of [
      '/api/hooks/nowhere/open',
      '/api/hooks/shop/nothing',
      '/api/hooks/shop/plain',
    ]) {
      const answer = await server.call('POST', path, { body: {} });
      expect(answer.status, path).toBe(404);
      messages.push((answer.json.message as string).replace(/\/api\/hooks\/\S+:/, ''));
    }
    expect(new Set(messages).size).toBe(1);
  });

  it('refuses a malformed, oversized or non-JSON body as any request', async () => {
    const malformed = await server.call('POST', '/api/hooks/shop/open', { body: '{"order": ' });
    expect(malformed.status).toBe(400);
    expect(malformed.json.errors[0].message).toMatch(/^Malformed JSON/);
    const large = await server.call('POST', '/api/hooks/shop/open', {
      body: { text: 'x'.repeat(4096) },
    });
    expect(large.status).toBe(413);
    const text = await server.call('POST', '/api/hooks/shop/open', {
      body: 'order=7',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(text.status).toBe(415);
  });

  it('starts once for a repeated Idempotency-Key, as a start does', async () => {
    const headers = { 'idempotency-key': 'delivery-1' };
    const first = await server.call('POST', '/api/hooks/shop/open', { body: { n: 1 }, headers });
    const again = await server.call('POST', '/api/hooks/shop/open', { body: { n: 1 }, headers });
    expect(again.json.data.executionId).toBe(first.json.data.executionId);
  });

  it('is started over the API too, with the start payload as its message', async () => {
    const start = await server.call('POST', '/api/workflow/start', {
      headers: auth,
      body: { sessionId: 'shop', workflowId: 'open', payload: { api: true } },
    });
    expect(start.status, start.text).toBe(202);
    const id = start.json.data.executionId as string;
    expect((await endOf(authed, id)).status).toBe('COMPLETED');
    const results = await server.call('GET', `/api/executions/${id}/results`, { headers: auth });
    expect(results.json.data[0].payload).toEqual({ got: { api: true } });
  });
});
