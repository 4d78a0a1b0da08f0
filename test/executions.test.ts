// SPEC "Execution calls" and CONTRACT sections 3-4: starting workflows and reading their
// executions, results and logs through a real server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from './support/server.js';
import type { HttpAnswer, TestServer } from './support/server.js';
import { endOf, eventually } from './support/wait.js';
import { failingWorkflow } from './support/workflows.js';

const mapperFlow = {
  workflowId: 'double',
  description: 'doubles each number',
  nodes: [
    { nodeId: 'in', type: 'API_TRIGGER', config: { splitArray: true } },
    { nodeId: 'twice', type: 'MAPPER', config: { mode: 'PROJECTION', expression: '{"n": n * 2}' } },
    { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [
    { source: 'in', target: 'twice' },
    { source: 'twice', target: 'out' },
  ],
};

describe('Executions (SPEC Execution calls, CONTRACT 3-4)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    await server.call('POST', '/api/sessions', {
      body: { sessionId: 'run', name: 'Runs', initiator: 'ops', workflows: [mapperFlow] },
    });
    await server.call('POST', '/api/sessions', {
      body: { sessionId: 'other', name: 'Other', initiator: 'ops' },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('starts a workflow with 202 and an executionId, and runs it to COMPLETED with the full record', async () => {
    const start = await server.call('POST', '/api/workflow/start', {
      body: { sessionId: 'run', workflowId: 'double', payload: [{ n: 1 }, { n: 2 }, { n: 3 }] },
    });
    expect(start.status).toBe(202);
    expect(start.json.data).toEqual({ executionId: expect.any(String), status: 'RUNNING' });
    const record = await endOf(server, start.json.data.executionId);
    expect(Object.keys(record).sort()).toEqual(
      [
        'createdAt',
        'endedAt',
        'error',
        'executionId',
        'nodes',
        'parentExecutionId',
        'priority',
        'restartOf',
        'resumedFrom',
        'sessionId',
        'startedAt',
        'status',
        'workflowId',
        'workflowVersion',
      ].sort(),
    );
    expect(record).toMatchObject({
      status: 'COMPLETED',
      sessionId: 'run',
      workflowId: 'double',
      workflowVersion: 1,
      priority: 0,
      error: null,
    });
    expect(record.nodes.twice).toMatchObject({
      status: 'COMPLETED',
      messagesIn: 3,
      messagesOut: 3,
      retries: 0,
    });
    expect(Object.keys(record.nodes.twice).sort()).toEqual(
      ['endedAt', 'error', 'messagesIn', 'messagesOut', 'retries', 'startedAt', 'status'].sort(),
    );
  });

  it('records what terminals received as result events, oldest first (CONTRACT 3)', async () => {
    const start = await server.call('POST', '/api/workflow/start', {
      body: { sessionId: 'run', workflowId: 'double', payload: [{ n: 5 }, { n: 6 }] },
    });
    const { executionId } = start.json.data;
    await endOf(server, executionId);
    const results = await server.call('GET', `/api/executions/${executionId}/results`);
    expect(results.status).toBe(200);
    expect(results.json.data.map((r: { payload: unknown }) => r.payload)).toEqual([
      { n: 10 },
      { n: 12 },
    ]);
    expect(results.json.data[0]).toMatchObject({
      seq: 1,
      nodeId: 'out',
      messageId: expect.any(String),
    });
    expect(Date.parse(results.json.data[0].timestamp)).not.toBeNaN();
  });

  it('keeps the node log lines a run wrote, filtered by node and sequence', async () => {
    const start = await server.call('POST', '/api/workflow/start', {
      body: { sessionId: 'run', workflowId: 'double', payload: [{ n: 1 }, { n: 2 }] },
    });
    const { executionId } = start.json.data;
    await endOf(server, executionId);
    const logs = await server.call('GET', `/api/executions/${executionId}/logs?nodeId=out`);
    expect(logs.status).toBe(200);
    expect(logs.json.data.length).toBeGreaterThanOrEqual(2);
    expect(logs.json.data[0]).toMatchObject({ executionId, nodeId: 'out', level: 'INFO' });
    const after = await server.call(
      'GET',
      `/api/executions/${executionId}/logs?after=${logs.json.data[0].seq}`,
    );
    expect(after.json.data.every((line: { seq: number }) => line.seq > logs.json.data[0].seq)).toBe(
      true,
    );
  });

  it('starts through the session path POST /api/workflow/{sid}/start', async () => {
    const start = await server.call('POST', '/api/workflow/run/start', {
      body: { workflowId: 'double', payload: [{ n: 1 }], priority: 3 },
    });
    expect(start.status).toBe(202);
    const record = await endOf(server, start.json.data.executionId);
    expect(record).toMatchObject({ status: 'COMPLETED', priority: 3 });
  });

  it('answers 404 for an unknown session or workflow, and 400 for a bad start body', async () => {
    const noSession = await server.call('POST', '/api/workflow/start', {
      body: { sessionId: 'nope', workflowId: 'double' },
    });
    expect(noSession.status).toBe(404);
    expect(noSession.json.message).toBe("Session 'nope' does not exist");
    const noWorkflow = await server.call('POST', '/api/workflow/start', {
      body: { sessionId: 'run', workflowId: 'nope' },
    });
    expect(noWorkflow.status).toBe(404);
    expect(noWorkflow.json.message).toBe("Workflow 'nope' does not exist in session 'run'");
    const unknownField = await server.call('POST', '/api/workflow/start', {
      body: { sessionId: 'run', workflowId: 'double', speed: 'fast' },
    });
    expect(unknownField.status).toBe(400);
    expect(unknownField.json.errors).toEqual([
      { field: 'speed', message: "Unknown field: 'speed'" },
    ]);
    const missing = await server.call('POST', '/api/workflow/start', {
      body: { sessionId: 'run' },
    });
    expect(missing.status).toBe(400);
    expect(missing.json.errors).toContainEqual({
      field: 'workflowId',
      message: 'Workflow id is mandatory',
    });
    expect(
      (await server.call('POST', '/api/workflow/nope/start', { body: { workflowId: 'double' } }))
        .status,
    ).toBe(404);
  });

  it('answers an unknown execution with 404 on every read', async () => {
    for (const path of [
      '/api/executions/none',
      '/api/executions/none/results',
      '/api/executions/none/logs',
    ]) {
      const answer = await server.call('GET', path);
      expect(answer.status).toBe(404);
      expect(answer.json.message).toContain("'none'");
    }
  });

  it('gives a progress snapshot per session, and 404 for an execution of another session', async () => {
    const start = await server.call('POST', '/api/workflow/start', {
      body: { sessionId: 'run', workflowId: 'double', payload: [{ n: 1 }] },
    });
    const { executionId } = start.json.data;
    await endOf(server, executionId);
    const status = await server.call('GET', `/api/workflow/run/status/${executionId}`);
    expect(status.status).toBe(200);
    expect(status.json.data).toMatchObject({ executionId, status: 'COMPLETED' });
    expect(status.json.data.progress).toMatchObject({
      nodesTotal: 3,
      nodesFinished: 3,
      percent: 100,
    });
    expect((await server.call('GET', `/api/workflow/other/status/${executionId}`)).status).toBe(
      404,
    );
  });

  it('lists a session history newest first, filtered by workflow and status', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const start = await server.call('POST', '/api/workflow/run/start', {
        body: { workflowId: 'double', payload: [] },
      });
      ids.push(start.json.data.executionId);
      await endOf(server, start.json.data.executionId);
    }
    const history = await server.call(
      'GET',
      '/api/workflow/run/history?workflowId=double&status=COMPLETED&limit=3',
    );
    expect(history.status).toBe(200);
    expect(history.json.data.map((e: { executionId: string }) => e.executionId)).toEqual(
      [...ids].reverse(),
    );
    expect((await server.call('GET', '/api/workflow/run/history?status=WEIRD')).status).toBe(400);
    expect((await server.call('GET', '/api/workflow/other/history')).json.data).toEqual([]);
  });

  it('searches executions with filters and pages through them with a cursor', async () => {
    const first = await server.call('GET', '/api/executions?sessionId=run&limit=2');
    expect(first.status).toBe(200);
    expect(first.json.data.items).toHaveLength(2);
    expect(first.json.data.nextCursor).toEqual(expect.any(String));
    const second = await server.call(
      'GET',
      `/api/executions?sessionId=run&limit=2&cursor=${first.json.data.nextCursor}`,
    );
    const seen = [...first.json.data.items, ...second.json.data.items].map(
      (e: { executionId: string }) => e.executionId,
    );
    expect(new Set(seen).size).toBe(seen.length);
    const none = await server.call(
      'GET',
      `/api/executions?since=${encodeURIComponent('2999-01-01T00:00:00Z')}`,
    );
    expect(none.json.data.items).toEqual([]);
    expect((await server.call('GET', '/api/executions?limit=0')).status).toBe(400);
    expect((await server.call('GET', '/api/executions?cursor=garbage')).status).toBe(400);
  });

  it('searches executions by status and until, the latter inclusive, and answers 400 for a bad status or until (CONTRACT 4: execution search)', async () => {
    await server.call('POST', '/api/sessions', {
      body: {
        sessionId: 'search',
        name: 'Search',
        initiator: 'ops',
        workflows: [
          mapperFlow,
          {
            workflowId: 'fails',
            description: 'fails on purpose',
            nodes: [
              { nodeId: 'in', type: 'MANUAL' },
              { nodeId: 'boom', type: 'MAPPER', config: { expression: '$error("boom")' } },
              { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
            ],
            edges: [
              { source: 'in', target: 'boom' },
              { source: 'boom', target: 'out' },
            ],
          },
        ],
      },
    });
    const run = async (workflowId: string): Promise<HttpAnswer['json']> => {
      const start = await server.call('POST', '/api/workflow/start', {
        body: { sessionId: 'search', workflowId, payload: [{ n: 1 }] },
      });
      return endOf(server, start.json.data.executionId);
    };
    const ids = async (query: string): Promise<string[]> => {
      const answer = await server.call('GET', `/api/executions?sessionId=search&${query}`);
      expect(answer.status).toBe(200);
      return answer.json.data.items.map((e: { executionId: string }) => e.executionId);
    };
    const early = await run('double');
    const failed = await run('fails');
    // The next run must be created strictly after the first two (creation times are in ms).
    await eventually(
      () => Promise.resolve(Date.now()),
      (now) => now > Date.parse(failed.createdAt),
    );
    const late = await run('double');
    expect([early.status, failed.status, late.status]).toEqual([
      'COMPLETED',
      'FAILED',
      'COMPLETED',
    ]);

    expect(await ids('status=FAILED')).toEqual([failed.executionId]);
    expect(await ids('status=COMPLETED')).toEqual([late.executionId, early.executionId]);
    expect(await ids('status=RUNNING')).toEqual([]);
    // until is inclusive: an execution created at that very instant is found.
    expect(await ids(`until=${encodeURIComponent(failed.createdAt)}`)).toEqual([
      failed.executionId,
      early.executionId,
    ]);
    expect(await ids(`until=${encodeURIComponent('2000-01-01T00:00:00Z')}`)).toEqual([]);
    expect(
      await ids(
        `status=COMPLETED&until=${encodeURIComponent(failed.createdAt)}&since=${encodeURIComponent(early.createdAt)}`,
      ),
    ).toEqual([early.executionId]);

    const badStatus = await server.call('GET', '/api/executions?status=WEIRD');
    expect(badStatus.status).toBe(400);
    expect(badStatus.json.errors).toEqual([
      { field: 'status', message: expect.stringContaining("Parameter 'status' must be one of") },
    ]);
    const badUntil = await server.call('GET', '/api/executions?until=yesterday');
    expect(badUntil.status).toBe(400);
    expect(badUntil.json.errors).toEqual([
      { field: 'until', message: "Parameter 'until' must be an ISO date-time" },
    ]);
  });

  it('ends a run FAILED when a node fails: the node FAILURE, the nodes behind it UPSTREAM_FAILED', async () => {
    const { workflowId, ...definition } = failingWorkflow('broken', 'boom');
    await server.call('PUT', `/api/sessions/run/workflows/${workflowId}`, { body: definition });
    const start = await server.call('POST', '/api/workflow/start', {
      body: { sessionId: 'run', workflowId: 'broken' },
    });
    const record = await endOf(server, start.json.data.executionId);
    expect(record.status).toBe('FAILED');
    // The root cause, not the terminal that ended UPSTREAM_FAILED behind it.
    expect(record.error).toBe(`Node 'boom' ended FAILURE: ${record.nodes.boom.error}`);
    expect(record.nodes.boom.status).toBe('FAILURE');
    expect(record.nodes.boom.error).toContain('boom');
    expect(record.nodes.after.status).toBe('UPSTREAM_FAILED');
    expect(record.nodes.out.status).toBe('UPSTREAM_FAILED');
    expect(record.nodes.in.status).toBe('COMPLETED');
  });

  it('runs a sub-workflow as a child execution and refuses nesting deeper than 5 (SPEC Limits)', async () => {
    await server.call('PUT', '/api/sessions/run/workflows/outer', {
      body: {
        description: 'calls double',
        nodes: [
          { nodeId: 'in', type: 'API_TRIGGER' },
          { nodeId: 'call', type: 'SUB_WORKFLOW', config: { workflowId: 'double' } },
          { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
        ],
        edges: [
          { source: 'in', target: 'call' },
          { source: 'call', target: 'out' },
        ],
      },
    });
    const start = await server.call('POST', '/api/workflow/start', {
      body: { sessionId: 'run', workflowId: 'outer', payload: [{ n: 4 }] },
    });
    const record = await endOf(server, start.json.data.executionId);
    expect(record.status).toBe('COMPLETED');
    const results = await server.call(
      'GET',
      `/api/executions/${start.json.data.executionId}/results`,
    );
    expect(results.json.data.map((r: { payload: unknown }) => r.payload)).toEqual([{ n: 8 }]);
    const children = await server.call(
      'GET',
      '/api/executions?sessionId=run&workflowId=double&limit=1',
    );
    expect(children.json.data.items[0].parentExecutionId).toBe(start.json.data.executionId);

    await server.call('PUT', '/api/sessions/run/workflows/recursive', {
      body: {
        description: 'calls itself',
        nodes: [
          { nodeId: 'in', type: 'MANUAL' },
          { nodeId: 'again', type: 'SUB_WORKFLOW', config: { workflowId: 'recursive' } },
          { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
        ],
        edges: [
          { source: 'in', target: 'again' },
          { source: 'again', target: 'out' },
        ],
      },
    });
    const deep = await server.call('POST', '/api/workflow/start', {
      body: { sessionId: 'run', workflowId: 'recursive' },
    });
    const deepRecord = await endOf(server, deep.json.data.executionId);
    expect(deepRecord.status).toBe('FAILED');
    const nested = await server.call(
      'GET',
      '/api/executions?sessionId=run&workflowId=recursive&limit=100',
    );
    // the top run and five nested levels; the sixth start is refused
    expect(nested.json.data.items).toHaveLength(6);
    const deepest = nested.json.data.items[0];
    expect(deepest.nodes.again.error).toMatch(/deeper than 5/);
  });
});

describe('Meters recorded by runs (SPEC Meters)', () => {
  it('counts node executions by module and status, retries, node and run durations, and edge drops', async () => {
    const server = await startTestServer();
    try {
      await server.call('POST', '/api/sessions', {
        body: {
          sessionId: 'm',
          name: 'Meters',
          initiator: 'ops',
          workflows: [
            {
              workflowId: 'flaky',
              description: 'retries then fails',
              nodes: [
                { nodeId: 'in', type: 'CONSTANT_SOURCE', config: { messages: [1, 2, 3, 4, 5] } },
                {
                  nodeId: 'slow',
                  type: 'DELAY',
                  config: { delayMs: 5, engine: { edgeBuffer: { size: 1 } } },
                },
                {
                  nodeId: 'bad',
                  type: 'NOTIFY_TERMINAL',
                  config: {
                    webhookUrl: 'http://127.0.0.1:9/none',
                    engine: { retry: { maxAttempts: 2, backoffMs: 1 } },
                  },
                },
              ],
              edges: [
                { source: 'in', target: 'slow' },
                { source: 'slow', target: 'bad' },
              ],
            },
          ],
        },
      });
      const start = await server.call('POST', '/api/workflow/start', {
        body: { sessionId: 'm', workflowId: 'flaky' },
      });
      const record = await endOf(server, start.json.data.executionId);
      expect(record.status).toBe('FAILED');
      const { meters } = server.app;
      expect(
        await meters.read('svc.node.executions', {
          module: 'CONSTANT_SOURCE',
          status: 'COMPLETED',
        }),
      ).toBe(1);
      expect(
        await meters.read('svc.node.executions', { module: 'NOTIFY_TERMINAL', status: 'FAILURE' }),
      ).toBe(1);
      expect(await meters.read('svc.node.retries', { module: 'NOTIFY_TERMINAL' })).toBe(1);
      expect(await meters.read('svc.node.duration', { module: 'DELAY' })).toBe(1);
      expect(await meters.read('svc.execution.duration', { status: 'FAILED' })).toBe(1);
      expect(await meters.read('svc.edge.dropped', { type: 'DELAY' })).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });
});

describe('Idempotency key settings (SPEC Limits: idempotency keys, svc.start.idempotency-*)', () => {
  const start = (server: TestServer, key: string): Promise<HttpAnswer> =>
    server.call('POST', '/api/workflow/start', {
      headers: { 'idempotency-key': key },
      body: { sessionId: 'run', workflowId: 'double', payload: [] },
    });
  const define = (server: TestServer): Promise<HttpAnswer> =>
    server.call('POST', '/api/sessions', {
      body: { sessionId: 'run', name: 'Runs', initiator: 'ops', workflows: [mapperFlow] },
    });

  it('keeps at most svc.start.idempotency-max-keys keys on the server: a key dropped for room starts a new run (SPEC Limits: idempotency keys)', async () => {
    const server = await startTestServer({ argv: ['--svc.start.idempotency-max-keys=1'] });
    try {
      await define(server);
      const a = (await start(server, 'a')).json.data.executionId as string;
      expect((await start(server, 'a')).json.data.executionId).toBe(a);
      const b = (await start(server, 'b')).json.data.executionId as string;
      expect(b).not.toBe(a);
      // Remembering b dropped a: a repeated a starts a new run.
      const again = await start(server, 'a');
      expect(again.status).toBe(202);
      expect(again.json.data.executionId).not.toBe(a);
      const all = await server.call('GET', '/api/executions?sessionId=run&limit=100');
      expect(all.json.data.items).toHaveLength(3);
    } finally {
      await server.close();
    }
  });

  it('remembers a key for svc.start.idempotency-ttl: after the window the repeated key starts a new run (SPEC Limits: idempotency keys)', async () => {
    const ttlMs = 500;
    const server = await startTestServer({ argv: [`--svc.start.idempotency-ttl=${ttlMs}ms`] });
    try {
      await define(server);
      const first = (await start(server, 'k')).json.data.executionId as string;
      // The key was stored before the first start was answered: it expires by then + ttl.
      const answeredAt = Date.now();
      expect((await start(server, 'k')).json.data.executionId).toBe(first);
      await eventually(
        () => Promise.resolve(Date.now()),
        (now) => now > answeredAt + ttlMs,
      );
      const after = await start(server, 'k');
      expect(after.status).toBe(202);
      expect(after.json.data.executionId).not.toBe(first);
      expect((await start(server, 'k')).json.data.executionId).toBe(after.json.data.executionId);
    } finally {
      await server.close();
    }
  });
});
