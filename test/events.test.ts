// SPEC "Events" 1-5 and CONTRACT sections 3-4: the global event stream, an execution's log
// entries and its progress over SSE, with keep-alives and Last-Event-ID resume.
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../src/app.js';
import { loadSettings } from '../src/config/index.js';
import { createSilentLoggers } from '../src/observability/index.js';
import { TEST_BUILD_INFO, call, openSse, startTestServer } from './support/server.js';
import type { SseEvent, TestServer } from './support/server.js';
import { endOf, eventually, within } from './support/wait.js';

const flow = {
  workflowId: 'talk',
  description: 'logs and results',
  nodes: [
    { nodeId: 'in', type: 'API_TRIGGER', config: { splitArray: true } },
    { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [{ source: 'in', target: 'out' }],
};

/** Logs its messages one per `delayMs`: a run that is still writing log lines for a while. */
const paced = {
  workflowId: 'paced',
  description: 'logs over time',
  nodes: [
    { nodeId: 'in', type: 'API_TRIGGER', config: { splitArray: true } },
    { nodeId: 'wait', type: 'DELAY', config: { delayMs: 400 } },
    { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [
    { source: 'in', target: 'wait' },
    { source: 'wait', target: 'out' },
  ],
};

async function runToEnd(server: TestServer, payload: unknown): Promise<string> {
  const start = await server.call('POST', '/api/workflow/start', {
    body: { sessionId: 's', workflowId: 'talk', payload },
  });
  const id = start.json.data.executionId as string;
  const record = await endOf(server, id);
  if (record.status !== 'COMPLETED') throw new Error(`run ended ${record.status}`);
  return id;
}

const kinds = (events: SseEvent[]) => events.map((event) => event.event);

describe('Event streams (SPEC Events)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ streamKeepAliveMs: 50 });
    await server.call('POST', '/api/sessions', {
      body: { sessionId: 's', name: 's', initiator: 'i', workflows: [flow, paced] },
    });
    await server.call('POST', '/api/sessions', {
      body: { sessionId: 'other', name: 'o', initiator: 'i' },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('streams run, node, result and log events with increasing ids and the CONTRACT event shape', async () => {
    const client = await openSse(server.baseUrl, '/api/events?sessionId=s');
    expect(client.status).toBe(200);
    expect(client.headers['content-type']).toContain('text/event-stream');
    const id = await runToEnd(server, [{ n: 1 }, { n: 2 }]);
    const events = await client.until((seen) =>
      seen.some((e) => e.event === 'execution.completed'),
    );
    client.close();
    const ofRun = events.filter((e) => (e.data as { executionId: string }).executionId === id);
    expect(kinds(ofRun)).toEqual(
      expect.arrayContaining([
        'execution.started',
        'node.started',
        'node.completed',
        'result',
        'log',
        'execution.completed',
      ]),
    );
    const ids = events.map((e) => e.id ?? 0);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ofRun.find((e) => e.event === 'result')?.data).toMatchObject({
      kind: 'result',
      executionId: id,
      sessionId: 's',
      workflowId: 'talk',
      nodeId: 'out',
      payload: { n: 1 },
    });
  });

  it('sends every client of the same filter the same events, and a client of another filter only its own', async () => {
    const query = '/api/events?sessionId=s&kinds=execution.*';
    const [first, second, results] = await Promise.all([
      openSse(server.baseUrl, query),
      openSse(server.baseUrl, query),
      openSse(server.baseUrl, '/api/events?sessionId=s&kinds=result'),
    ]);
    const id = await runToEnd(server, [{ n: 1 }, { n: 2 }]);
    const ofRun = (events: SseEvent[]) =>
      events.filter((e) => (e.data as { executionId: string }).executionId === id);
    const completed = (seen: SseEvent[]) =>
      ofRun(seen).some((e) => e.event === 'execution.completed');
    const [a, b, r] = await Promise.all([
      first.until(completed),
      second.until(completed),
      results.until((seen) => ofRun(seen).length >= 2),
    ]);
    for (const client of [first, second, results]) client.close();
    expect(kinds(ofRun(a))).toEqual(['execution.started', 'execution.completed']);
    expect(ofRun(b).map((e) => e.id)).toEqual(ofRun(a).map((e) => e.id));
    expect(kinds(ofRun(r))).toEqual(['result', 'result']);
  });

  it('filters by executionId and kinds', async () => {
    const id = await runToEnd(server, [{ n: 3 }]);
    const client = await openSse(
      server.baseUrl,
      `/api/events?executionId=${id}&kinds=node.*,execution.completed`,
      {
        'last-event-id': '0',
      },
    );
    const events = await client.until((seen) =>
      seen.some((e) => e.event === 'execution.completed'),
    );
    client.close();
    expect(
      events.every((e) => e.event === 'execution.completed' || e.event?.startsWith('node.')),
    ).toBe(true);
    expect(events.every((e) => (e.data as { executionId: string }).executionId === id)).toBe(true);
  });

  it('resumes after Last-Event-ID: nothing twice and nothing missed', async () => {
    const first = await openSse(server.baseUrl, '/api/events?sessionId=s&kinds=result');
    await runToEnd(server, [{ n: 10 }, { n: 11 }, { n: 12 }]);
    const seen = await first.until((events) => events.length >= 3);
    first.close();
    expect(seen.map((e) => (e.data as { payload: { n: number } }).payload.n)).toEqual([10, 11, 12]);
    const lastId = seen[0]?.id ?? 0;
    expect(lastId).toBeGreaterThan(0);
    await runToEnd(server, [{ n: 13 }]);
    const second = await openSse(server.baseUrl, '/api/events?sessionId=s&kinds=result', {
      'last-event-id': String(lastId),
    });
    const resumed = await second.until((events) =>
      events.some((e) => (e.data as { payload: { n: number } }).payload.n === 13),
    );
    second.close();
    const payloads = resumed.map((e) => (e.data as { payload: { n: number } }).payload.n);
    expect(payloads).toEqual([11, 12, 13]);
    expect(resumed.every((e) => (e.id ?? 0) > lastId)).toBe(true);
  });

  it('sends a keep-alive comment at the keep-alive interval', async () => {
    const client = await openSse(server.baseUrl, '/api/events');
    const keepAlives = () => client.comments.filter((comment) => comment === 'keep-alive').length;
    await eventually(
      () => Promise.resolve(keepAlives()),
      (count) => count >= 2,
    );
    client.close();
    expect(keepAlives()).toBeGreaterThanOrEqual(2);
  });

  it('streams an ended execution log entries, stored first, and ends the stream', async () => {
    const id = await runToEnd(server, [{ n: 1 }, { n: 2 }]);
    const client = await openSse(server.baseUrl, `/api/sessions/s/executions/${id}/logs/entries`);
    await client.ended;
    expect(client.events.map((e) => e.event)).toEqual(['log', 'log']);
    expect(client.events[0]?.data).toMatchObject({
      seq: 1,
      executionId: id,
      nodeId: 'out',
      level: 'INFO',
    });
    // CONTRACT section 3: the log entry inside the event shape every stream uses.
    expect(Object.keys(client.events[0]?.data as object).sort()).toEqual(
      [
        'kind',
        'executionId',
        'sessionId',
        'workflowId',
        'fields',
        'level',
        'message',
        'nodeId',
        'seq',
        'timestamp',
      ].sort(),
    );
    expect(client.events[0]?.data).toMatchObject({
      kind: 'log',
      sessionId: 's',
      workflowId: 'talk',
    });
    const resumed = await openSse(server.baseUrl, `/api/sessions/s/executions/${id}/logs/entries`, {
      'last-event-id': '1',
    });
    await resumed.ended;
    expect(resumed.events.map((e) => e.id)).toEqual([2]);
  });

  it('streams a running execution log entries, stored ones first, then live ones as they are written, and ends the stream when the execution is terminal (SPEC Events 1)', async () => {
    const start = await server.call('POST', '/api/workflow/start', {
      body: { sessionId: 's', workflowId: 'paced', payload: [{ n: 1 }, { n: 2 }, { n: 3 }] },
    });
    const id = start.json.data.executionId as string;
    const logs = () => server.call('GET', `/api/executions/${id}/logs`);
    await eventually(logs, (answer) => answer.json.data.length >= 1);
    // Paused, the run writes nothing more: what is stored now is all the client can get first.
    expect((await server.call('POST', `/api/executions/${id}/pause`)).status).toBe(200);
    await eventually(
      () => server.call('GET', `/api/executions/${id}`),
      (answer) => answer.json.data.status === 'PAUSED',
    );
    const stored = ((await logs()).json.data as { seq: number }[]).map((line) => line.seq);
    expect(stored.length).toBeGreaterThanOrEqual(1);
    expect(stored.length).toBeLessThan(3);

    const client = await openSse(server.baseUrl, `/api/sessions/s/executions/${id}/logs/entries`);
    let ended = false;
    void client.ended.then(() => (ended = true));
    const first = await client.until((events) => events.length >= stored.length);
    expect(first.map((e) => e.id)).toEqual(stored);
    // A run that is not terminal keeps its stream open.
    await client.until(() => client.comments.includes('keep-alive'));
    expect(ended).toBe(false);
    expect(client.events).toHaveLength(stored.length);

    expect((await server.call('POST', `/api/executions/${id}/resume`)).status).toBe(200);
    await within(client.ended, 10_000, 'the end of the stream');
    expect((await server.call('GET', `/api/executions/${id}`)).json.data.status).toBe('COMPLETED');
    expect(client.events.map((e) => e.event)).toEqual(['log', 'log', 'log']);
    expect(client.events.map((e) => e.id)).toEqual([1, 2, 3]);
    expect(
      client.events.map((e) => (e.data as { fields: { payload: unknown } }).fields.payload),
    ).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(client.events[2]?.data).toMatchObject({
      kind: 'log',
      executionId: id,
      sessionId: 's',
      workflowId: 'paced',
      nodeId: 'out',
    });
  });

  it('answers 404 for the log stream of an unknown execution or one of another session', async () => {
    const id = await runToEnd(server, [{ n: 1 }]);
    expect((await server.call('GET', '/api/sessions/s/executions/none/logs/entries')).status).toBe(
      404,
    );
    expect(
      (await server.call('GET', `/api/sessions/other/executions/${id}/logs/entries`)).status,
    ).toBe(404);
  });

  it('streams progress as state events with their progress, catching a late client up from the progress history, and ends when the execution is terminal', async () => {
    const id = await runToEnd(server, [{ n: 1 }]);
    const client = await openSse(server.baseUrl, `/api/workflow/s/status/${id}/stream`);
    await client.ended;
    // The run ended before the client came: the whole history is sent, oldest first.
    expect(kinds(client.events)[0]).toBe('execution.started');
    expect(kinds(client.events)).toEqual(
      expect.arrayContaining(['node.started', 'node.completed', 'execution.completed']),
    );
    const last = client.events.at(-1);
    expect(last?.event).toBe('execution.completed');
    expect(last?.data).toMatchObject({
      kind: 'execution.completed',
      executionId: id,
      sessionId: 's',
      workflowId: 'talk',
      progress: { status: 'COMPLETED', nodesTotal: 2, nodesFinished: 2 },
    });
    const ids = client.events.map((event) => event.id ?? 0);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    // Last-Event-ID: only what came after it.
    const middle = ids[1] ?? 0;
    const resumed = await openSse(server.baseUrl, `/api/workflow/s/status/${id}/stream`, {
      'last-event-id': String(middle),
    });
    await resumed.ended;
    expect(resumed.events.map((event) => event.id)).toEqual(ids.slice(2));
  });

  it('sends control.applied, control.refused and scheduler.limits events', async () => {
    const client = await openSse(server.baseUrl, '/api/events?kinds=control.*,scheduler.limits');
    const id = await runToEnd(server, [{ n: 1 }]);
    await server.call('POST', `/api/executions/${id}/pause`);
    await server.call('POST', '/api/scheduler/limits?maxConcurrent=50');
    const seen = await client.until((events) => events.length >= 3);
    client.close();
    // The change takes effect, then its audit entry is written.
    expect(kinds(seen)).toEqual(['control.refused', 'scheduler.limits', 'control.applied']);
    expect(seen[0]?.data).toMatchObject({
      kind: 'control.refused',
      executionId: id,
      sessionId: 's',
      workflowId: 'talk',
      command: 'PAUSE',
    });
    expect(seen[1]?.data).toMatchObject({ limits: { maxConcurrent: 50 } });
    expect(seen[2]?.data).toMatchObject({ command: 'SCHEDULER_LIMITS', executionId: null });
  });

  it('does not let a client that reads nothing slow a run', async () => {
    const { request } = await import('node:http');
    const url = new URL(server.baseUrl);
    // A client that connects and never reads its socket.
    const stalled = request({
      host: url.hostname,
      port: url.port,
      path: '/api/events',
      method: 'GET',
    });
    stalled.end();
    await once(stalled, 'response');
    const started = Date.now();
    await runToEnd(
      server,
      Array.from({ length: 2000 }, (_, n) => ({ n, padding: 'x'.repeat(200) })),
    );
    expect(Date.now() - started).toBeLessThan(5000);
    stalled.destroy();
  });
});

describe('Keep-alive default (SPEC Events 2)', () => {
  let server: TestServer;
  beforeAll(async () => {
    // No streamKeepAliveMs: the interval the server uses when nothing shortens it.
    server = await startTestServer();
  });
  afterAll(async () => {
    vi.useRealTimers();
    await server.close();
  });

  it('sends a keep-alive comment on an event stream every 15 s by default, and none before (SPEC Events 2)', async () => {
    // Only intervals are faked, and only from here: the stream's keep-alive is the one made now.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const client = await openSse(server.baseUrl, '/api/events?kinds=scheduler.limits');
      const keepAlives = () => client.comments.filter((comment) => comment === 'keep-alive');
      vi.advanceTimersByTime(14_999);
      // An event sent after the 14 999 ms comes behind any keep-alive queued before it.
      await server.call('POST', '/api/scheduler/limits?maxConcurrent=40');
      await client.until((events) => events.length === 1);
      expect(keepAlives()).toEqual([]);
      vi.advanceTimersByTime(1);
      await client.until(() => keepAlives().length === 1);
      vi.advanceTimersByTime(15_000);
      await client.until(() => keepAlives().length === 2);
      client.close();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('Stored log entries (SPEC Log line losses, Events 1)', () => {
  it('keeps an execution log entries in memory 30 minutes by default: the stream sends them 29 minutes on, and none 31 minutes on (SPEC Log line losses)', async () => {
    // The server's clock runs with real time, shifted by `skew`; nothing shortens the retention.
    let skew = 0;
    const { settings, profile } = loadSettings({
      argv: ['--svc.server.port=0'],
      env: {},
      features: { postgres: false },
    });
    const app = await createApp({
      settings,
      profile,
      buildInfo: TEST_BUILD_INFO,
      loggers: createSilentLoggers(),
      env: {},
      clock: { now: () => Date.now() + skew },
    });
    try {
      const { port } = await app.listen();
      const baseUrl = `http://127.0.0.1:${port}`;
      await call(baseUrl, 'POST', '/api/sessions', {
        body: { sessionId: 's', name: 's', initiator: 'i', workflows: [flow] },
      });
      const start = await call(baseUrl, 'POST', '/api/workflow/start', {
        body: { sessionId: 's', workflowId: 'talk', payload: [{ n: 1 }, { n: 2 }] },
      });
      const id = start.json.data.executionId as string;
      await eventually(
        () => call(baseUrl, 'GET', `/api/executions/${id}`),
        (answer) => answer.json.data.status === 'COMPLETED',
      );
      const entries = async (): Promise<SseEvent[]> => {
        const client = await openSse(baseUrl, `/api/sessions/s/executions/${id}/logs/entries`);
        await within(client.ended, 5_000, 'the end of the stream');
        return client.events;
      };
      skew = 29 * 60_000;
      expect((await entries()).map((e) => e.id)).toEqual([1, 2]);
      skew = 31 * 60_000;
      expect(await entries()).toEqual([]);
      expect((await call(baseUrl, 'GET', `/api/executions/${id}/logs`)).json.data).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
