// SPEC "Execution calls" restart, restart from a node and retry, with "Restart rules" 1-5,
// the 400/404/409/429 rows of "Errors", and CONTRACT's checkpoints read, through a real server.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';
import { eventually } from './support/wait.js';

/** in -> double -> out, and in -> side -> sideOut: an independent branch. */
const branched = {
  workflowId: 'branched',
  description: 'two branches',
  nodes: [
    { nodeId: 'in', type: 'CONSTANT_SOURCE', config: { messages: [1, 2, 3] } },
    { nodeId: 'double', type: 'MAPPER', config: { expression: '$ * 2' } },
    { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
    { nodeId: 'side', type: 'MAPPER', config: { expression: '$ + 100' } },
    { nodeId: 'sideOut', type: 'NOTIFY_TERMINAL' },
  ],
  edges: [
    { source: 'in', target: 'double' },
    { source: 'double', target: 'out' },
    { source: 'in', target: 'side' },
    { source: 'side', target: 'sideOut' },
  ],
};

/** Calls a sub-workflow that does not exist until a test defines it: fails, then succeeds. */
const callsChild = {
  workflowId: 'parent',
  description: 'calls a child',
  nodes: [
    { nodeId: 'in', type: 'CONSTANT_SOURCE', config: { messages: [5] } },
    { nodeId: 'shape', type: 'MAPPER', config: { expression: '$ + 1' } },
    {
      nodeId: 'call',
      type: 'SUB_WORKFLOW',
      config: { workflowId: 'child', engine: { retry: { maxAttempts: 1 } } },
    },
    { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
  ],
  edges: [
    { source: 'in', target: 'shape' },
    { source: 'shape', target: 'call' },
    { source: 'call', target: 'out' },
  ],
};

const child = {
  workflowId: 'child',
  description: 'echoes its start payload',
  nodes: [
    { nodeId: 'in', type: 'API_TRIGGER' },
    { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
  ],
  edges: [{ source: 'in', target: 'out' }],
};

/**
 * Like `parent`, but the call has a node deadline: it ends TIMED_OUT while the child it calls
 * is slow, and completes once the child answers at once.
 */
const callsSlowChild = {
  workflowId: 'deadlined',
  description: 'calls a child under a node deadline',
  nodes: [
    { nodeId: 'in', type: 'CONSTANT_SOURCE', config: { messages: [5] } },
    { nodeId: 'shape', type: 'MAPPER', config: { expression: '$ + 1' } },
    {
      nodeId: 'call',
      type: 'SUB_WORKFLOW',
      config: { workflowId: 'child', engine: { deadlineMs: 1000 } },
    },
    { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
  ],
  edges: [
    { source: 'in', target: 'shape' },
    { source: 'shape', target: 'call' },
    { source: 'call', target: 'out' },
  ],
};

const slowChild = {
  workflowId: 'child',
  description: 'echoes its start payload a minute later',
  nodes: [
    { nodeId: 'in', type: 'API_TRIGGER' },
    { nodeId: 'wait', type: 'DELAY', config: { delayMs: 60_000 } },
    { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
  ],
  edges: [
    { source: 'in', target: 'wait' },
    { source: 'wait', target: 'out' },
  ],
};

const slow = {
  workflowId: 'slow',
  description: 'a source, a long delay, a terminal',
  nodes: [
    { nodeId: 'in', type: 'CONSTANT_SOURCE', config: { messages: [1, 2] } },
    { nodeId: 'wait', type: 'DELAY', config: { delayMs: 60_000 } },
    { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
  ],
  edges: [
    { source: 'in', target: 'wait' },
    { source: 'wait', target: 'out' },
  ],
};

const echo = {
  workflowId: 'echo',
  description: 'hands its start payload to a terminal',
  nodes: [
    { nodeId: 'in', type: 'API_TRIGGER' },
    { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
  ],
  edges: [{ source: 'in', target: 'out' }],
};

const many = {
  workflowId: 'many',
  description: 'more messages than the memory caps hold',
  nodes: [
    { nodeId: 'in', type: 'CONSTANT_SOURCE', config: { messages: [1, 2, 3, 4, 5] } },
    { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
  ],
  edges: [{ source: 'in', target: 'out' }],
};

describe('Restart, restart from a node and retry (SPEC Restart rules)', () => {
  let server: TestServer;

  async function boot(argv: string[] = []): Promise<void> {
    server = await startTestServer({ argv });
    await server.call('POST', '/api/sessions', {
      body: {
        sessionId: 's',
        name: 's',
        initiator: 'i',
        workflows: [branched, callsChild, callsSlowChild, echo, slow, many],
      },
    });
  }

  afterEach(async () => {
    await server.close();
  });

  const start = async (workflowId: string): Promise<string> =>
    (await server.call('POST', '/api/workflow/start', { body: { sessionId: 's', workflowId } }))
      .json.data.executionId as string;
  const record = async (id: string) =>
    (await server.call('GET', `/api/executions/${id}`)).json.data;
  const ended = (id: string) =>
    eventually(
      () => record(id),
      (data) => !['QUEUED', 'RUNNING', 'PAUSED'].includes((data as { status: string }).status),
    );
  const results = async (id: string) =>
    (
      (await server.call('GET', `/api/executions/${id}/results`)).json.data as {
        nodeId: string;
        messageId: string;
        payload: unknown;
      }[]
    ).map((r) => [r.nodeId, r.messageId, r.payload]);

  it('restarts the whole workflow as a new execution with the same results and message ids', async () => {
    await boot();
    const first = await start('branched');
    await ended(first);
    const answer = await server.call('POST', `/api/executions/${first}/restart`);
    expect(answer.status).toBe(202);
    const { executionId, status } = answer.json.data;
    expect(executionId).not.toBe(first);
    expect(['RUNNING', 'QUEUED', 'COMPLETED']).toContain(status);
    const again = await ended(executionId);
    expect(again.status).toBe('COMPLETED');
    expect(again.restartOf).toBe(first);
    expect((await results(executionId)).sort()).toEqual((await results(first)).sort());
  });

  it('restarts from a node: feeding nodes replay, independent branches are not re-run', async () => {
    await boot();
    const first = await start('branched');
    await ended(first);
    const answer = await server.call('POST', `/api/executions/${first}/restart/out`);
    expect(answer.status).toBe(202);
    const again = await ended(answer.json.data.executionId);
    expect(again.status).toBe('COMPLETED');
    expect(Object.keys(again.nodes).sort()).toEqual(['double', 'out']);
    // The replayed node took no input: it emitted what it had recorded.
    expect(again.nodes.double).toMatchObject({
      status: 'COMPLETED',
      messagesIn: 0,
      messagesOut: 3,
    });
    const outResults = (await results(first)).filter(([nodeId]) => nodeId === 'out');
    expect(await results(again.executionId)).toEqual(outResults);
  });

  it('restarts with the original start payload, and the new record names the original (SPEC Execution calls, restart)', async () => {
    await boot();
    const payload = { order: 'A-17', lines: [{ sku: 'x', qty: 3 }], note: 'restart me' };
    const started = await server.call('POST', '/api/workflow/start', {
      body: { sessionId: 's', workflowId: 'echo', payload },
    });
    const first = started.json.data.executionId as string;
    expect((await ended(first)).status).toBe('COMPLETED');
    expect(await results(first)).toEqual([['out', expect.any(String), payload]]);
    // The restart request has no body: the payload can only come from the original start.
    const answer = await server.call('POST', `/api/executions/${first}/restart`);
    expect(answer.status).toBe(202);
    const again = await ended(answer.json.data.executionId);
    expect(again).toMatchObject({ status: 'COMPLETED', restartOf: first });
    expect(again.executionId).not.toBe(first);
    expect(await results(again.executionId)).toEqual([['out', expect.any(String), payload]]);
  });

  it('answers 400 for a restart from an unknown node and for a retry of a node that did not fail', async () => {
    await boot();
    const first = await start('branched');
    await ended(first);
    const unknown = await server.call('POST', `/api/executions/${first}/restart/nope`);
    expect(unknown.status).toBe(400);
    expect(unknown.json.message).toContain("node 'nope' is not in the workflow");
    const retry = await server.call('POST', `/api/executions/${first}/nodes/double/retry`);
    expect(retry.status).toBe(400);
    expect(retry.json.message).toContain(
      "Node 'double' of execution '" + first + "' did not fail (it is COMPLETED)",
    );
    expect(retry.json.message).toContain(
      `restart from it (POST /api/executions/${first}/restart/double, or the RESTART_FROM_NODE action of the tool endpoint)`,
    );
  });

  it('retries a failed node from the output its parents recorded', async () => {
    await boot();
    const first = await start('parent');
    const failed = await ended(first);
    expect(failed.status).toBe('FAILED');
    expect(failed.nodes.call.status).toBe('FAILURE');
    // The cause goes away: the child workflow now exists.
    await server.call('PUT', '/api/sessions/s/workflows/child', { body: child });
    const answer = await server.call('POST', `/api/executions/${first}/nodes/call/retry`);
    expect(answer.status).toBe(202);
    const again = await ended(answer.json.data.executionId);
    expect(again.status).toBe('COMPLETED');
    expect(again.nodes.shape).toMatchObject({ messagesIn: 0, messagesOut: 1 });
    expect(again.nodes.in).toBeUndefined();
    expect((await results(again.executionId)).map(([, , payload]) => payload)).toEqual([6]);
  });

  it('retries a node that ended TIMED_OUT from the output its parents recorded (SPEC Execution calls, retry)', async () => {
    await boot();
    await server.call('PUT', '/api/sessions/s/workflows/child', { body: slowChild });
    const first = await start('deadlined');
    const timedOut = await ended(first);
    expect(timedOut.status).toBe('FAILED');
    expect(timedOut.nodes.call).toMatchObject({ status: 'TIMED_OUT', messagesIn: 1 });
    expect(timedOut.nodes.out.status).toBe('UPSTREAM_FAILED');
    // The cause goes away: the child now answers at once, well within the deadline.
    await server.call('PUT', '/api/sessions/s/workflows/child', { body: child });
    const answer = await server.call('POST', `/api/executions/${first}/nodes/call/retry`);
    expect(answer.status).toBe(202);
    expect(answer.json.data.executionId).not.toBe(first);
    const again = await ended(answer.json.data.executionId);
    expect(again).toMatchObject({ status: 'COMPLETED', restartOf: first });
    // The parent replayed what it had recorded; the retried node ran again on it.
    expect(again.nodes.shape).toMatchObject({ messagesIn: 0, messagesOut: 1 });
    expect(again.nodes.in).toBeUndefined();
    expect(again.nodes.call).toMatchObject({ status: 'COMPLETED', messagesIn: 1, messagesOut: 1 });
    expect((await results(again.executionId)).map(([, , payload]) => payload)).toEqual([6]);
  });

  it('answers 404 naming the archive for an execution no longer restartable, and for an unknown one', async () => {
    await boot(['--svc.restart.retained-executions=1']);
    const first = await start('branched');
    await ended(first);
    await ended(await start('branched'));
    const old = await server.call('POST', `/api/executions/${first}/restart`);
    expect(old.status).toBe(404);
    expect(old.json.message).toBe(
      `Execution '${first}' is no longer restartable: only the newest 1 executions are kept for restart while checkpoints are kept in memory (set svc.restart.dir, or svc.restart.store-type=postgres, to keep every run the execution log keeps)`,
    );
    expect((await server.call('POST', '/api/executions/nope/restart')).status).toBe(404);
  });

  it('refuses a restart from a node whose parent is still producing output (400), and stops the original otherwise', async () => {
    await boot();
    const first = await start('slow');
    await eventually(
      () => record(first),
      (data: { nodes: Record<string, { status: string }> }) =>
        data.nodes.in?.status === 'COMPLETED',
    );
    const busy = await server.call('POST', `/api/executions/${first}/restart/out`);
    expect(busy.status).toBe(400);
    expect(busy.json.message).toContain("node 'wait' is still producing output");
    // `in` has finished: a restart from `wait` replays it and stops the original.
    const answer = await server.call('POST', `/api/executions/${first}/restart/wait`);
    expect(answer.status).toBe(202);
    expect((await record(first)).status).toBe('STOPPED');
    const again = await record(answer.json.data.executionId);
    expect(again.nodes.in).toMatchObject({ status: 'COMPLETED', messagesOut: 2 });
    await server.call('POST', `/api/executions/${again.executionId}/stop`);
  });

  it('refuses a restart needing output over the in-memory caps (400), unless a spill directory keeps it', async () => {
    await boot(['--svc.restart.messages-per-node=2']);
    const first = await start('many');
    await ended(first);
    const checkpoints = await server.call('GET', `/api/executions/${first}/checkpoints`);
    expect(checkpoints.json.data.nodes.in).toMatchObject({
      messages: 5,
      complete: false,
      truncated: true,
    });
    const answer = await server.call('POST', `/api/executions/${first}/restart/out`);
    expect(answer.status).toBe(400);
    expect(answer.json.message).toContain('in-memory checkpoint caps');
    await server.close();

    const spill = await mkdtemp(path.join(tmpdir(), 'spill-'));
    try {
      await boot(['--svc.restart.messages-per-node=2', `--svc.restart.spill-dir=${spill}`]);
      const spilled = await start('many');
      await ended(spilled);
      const kept = await server.call('GET', `/api/executions/${spilled}/checkpoints`);
      expect(kept.json.data.store).toBe('spill');
      expect(kept.json.data.nodes.in).toMatchObject({ messages: 5, complete: true });
      const restarted = await server.call('POST', `/api/executions/${spilled}/restart/out`);
      expect(restarted.status).toBe(202);
      const again = await ended(restarted.json.data.executionId);
      expect(again.nodes.out.messagesIn).toBe(5);
    } finally {
      await server.close();
      await rm(spill, { recursive: true, force: true });
      await boot();
    }
  });

  it('takes a slot like any start: 429 when the limit is reached', async () => {
    await boot(['--svc.execution.max-concurrent=1']);
    const first = await start('branched');
    await ended(first);
    const holder = await start('slow');
    const refused = await server.call('POST', `/api/executions/${first}/restart`);
    expect(refused.status).toBe(429);
    await server.call('POST', `/api/executions/${holder}/stop`);
  });

  it('records restarts in the audit with their outcome', async () => {
    await boot();
    const first = await start('branched');
    await ended(first);
    await server.call('POST', `/api/executions/${first}/restart`);
    await server.call('POST', `/api/executions/${first}/restart/nope`);
    const audit = await server.call('GET', `/api/control/audit?executionId=${first}`);
    expect(
      (audit.json.data as { command: string; outcome: string }[]).map((entry) => [
        entry.command,
        entry.outcome,
      ]),
    ).toEqual([
      ['RESTART_FROM_NODE', 'REFUSED'],
      ['RESTART', 'APPLIED'],
    ]);
  });

  it('refuses recover without a durable execution log (409)', async () => {
    await boot();
    const first = await start('branched');
    await ended(first);
    const answer = await server.call('POST', `/api/executions/${first}/recover`);
    expect(answer.status).toBe(409);
    expect(answer.json.message).toContain('durable execution log');
  });

  it('refuses recover while checkpoints are kept in memory only, even with a durable execution log (409)', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'log-only-'));
    try {
      await boot([`--svc.execution-log.dir=${dir}`]);
      const first = await start('branched');
      await ended(first);
      const answer = await server.call('POST', `/api/executions/${first}/recover`);
      expect(answer.status).toBe(409);
      expect(answer.json.message).toContain('file or relational checkpoint store');
    } finally {
      await server.close();
      await rm(dir, { recursive: true, force: true });
      await boot();
    }
  });

  it('shows per node the messages recorded, bytes and whether the output is complete', async () => {
    await boot();
    const first = await start('branched');
    await ended(first);
    const answer = await server.call('GET', `/api/executions/${first}/checkpoints`);
    expect(answer.status).toBe(200);
    expect(answer.json.data.store).toBe('memory');
    expect(answer.json.data.nodes.in).toMatchObject({
      messages: 3,
      complete: true,
      truncated: false,
    });
    expect(answer.json.data.nodes.out).toMatchObject({ complete: true, truncated: false });
    expect(answer.json.data.nodes.double.bytes).toBeGreaterThan(0);
    expect((await server.call('GET', '/api/executions/nope/checkpoints')).status).toBe(404);
    const bytes = await server.call('GET', '/actuator/metrics/svc.checkpoint.bytes');
    expect(bytes.json.measurements[0].value).toBeGreaterThan(0);
  });
});
