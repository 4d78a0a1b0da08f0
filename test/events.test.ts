// SPEC "Events" 1-5 and CONTRACT sections 3-4: the global event stream, an execution's log
// entries and its progress over SSE, with keep-alives and Last-Event-ID resume.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSse, startTestServer } from './support/server.js';
import type { SseEvent, TestServer } from './support/server.js';

const flow = {
  workflowId: 'talk',
  description: 'logs and results',
  nodes: [
    { nodeId: 'in', type: 'API_TRIGGER', config: { splitArray: true } },
    { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [{ source: 'in', target: 'out' }],
};

async function runToEnd(server: TestServer, payload: unknown): Promise<string> {
  const start = await server.call('POST', '/api/workflow/start', {
    body: { sessionId: 's', workflowId: 'talk', payload },
  });
  const id = start.json.data.executionId as string;
  for (let i = 0; i < 300; i++) {
    const record = await server.call('GET', `/api/executions/${id}`);
    if (record.json.data.status === 'COMPLETED') return id;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('run did not complete');
}

const kinds = (events: SseEvent[]) => events.map((event) => event.event);

describe('Event streams (SPEC Events)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ streamKeepAliveMs: 50 });
    await server.call('POST', '/api/sessions', {
      body: { sessionId: 's', name: 's', initiator: 'i', workflows: [flow] },
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
    await new Promise((resolve) => setTimeout(resolve, 200));
    client.close();
    expect(
      client.comments.filter((comment) => comment === 'keep-alive').length,
    ).toBeGreaterThanOrEqual(2);
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
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await runToEnd(
      server,
      Array.from({ length: 2000 }, (_, n) => ({ n, padding: 'x'.repeat(200) })),
    );
    expect(Date.now() - started).toBeLessThan(5000);
    stalled.destroy();
  });
});
