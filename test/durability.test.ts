// SPEC "Deployment facts" (persistence, graceful shutdown), "Recover conditions", the boot
// recovery with a durable execution log, and Events 9, proven on a real server process that
// is killed with SIGKILL at several points and started again on the same directories.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { http, startServerProcess } from './support/process.js';
import { openSse } from './support/server.js';
import type { ServerProcess } from './support/process.js';
import { eventually } from './support/wait.js';
import { delayedWorkflow, slowWorkflow } from './support/workflows.js';

const approval = {
  workflowId: 'approval',
  description: 'two messages, each approved',
  nodes: [
    { nodeId: 'in', type: 'CONSTANT_SOURCE', config: { messages: ['a', 'b'] } },
    { nodeId: 'ask', type: 'WAIT_FOR_SIGNAL', config: { prompt: 'ok?' } },
    { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
  ],
  edges: [
    { source: 'in', target: 'ask' },
    { source: 'ask', target: 'out', sourcePort: 'approved' },
  ],
};

const slow = slowWorkflow('slow');

describe('Durability across a crash (SPEC Deployment facts, Recover conditions)', () => {
  let dir: string;
  let server: ServerProcess | undefined;
  let env: Record<string, string>;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'durability-'));
    env = {
      SVC_SESSION_STORE_TYPE: 'file',
      SVC_SESSION_BASE_DIR: path.join(dir, 'sessions'),
      SVC_EXECUTION_LOG_DIR: path.join(dir, 'log'),
      SVC_RESTART_DIR: path.join(dir, 'checkpoints'),
    };
  });

  afterEach(async () => {
    if (server !== undefined && server.child.exitCode === null) {
      server.child.kill('SIGKILL');
      await server.exited();
    }
    server = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  async function boot(extra: Record<string, string> = {}): Promise<ServerProcess> {
    server = await startServerProcess([], { ...env, ...extra });
    return server;
  }

  async function crash(running: ServerProcess): Promise<void> {
    running.child.kill('SIGKILL');
    await running.exited();
  }

  async function define(running: ServerProcess, workflows: unknown[]): Promise<void> {
    const created = await http(running, 'POST', '/api/sessions', {
      sessionId: 's',
      name: 's',
      initiator: 'tests',
      workflows,
    });
    expect(created.status).toBe(201);
  }

  const start = async (running: ServerProcess, workflowId: string): Promise<string> => {
    const answer = await http(running, 'POST', '/api/workflow/start', {
      sessionId: 's',
      workflowId,
    });
    expect(answer.status).toBe(202);
    return answer.json.data.executionId as string;
  };
  const record = async (running: ServerProcess, id: string) =>
    (await http(running, 'GET', `/api/executions/${id}`)).json.data;
  const ended = (running: ServerProcess, id: string) =>
    eventually(
      () => record(running, id),
      (data) => !['QUEUED', 'RUNNING', 'PAUSED'].includes((data as { status: string }).status),
      20_000,
    );
  const resultsOf = async (running: ServerProcess, id: string) =>
    (
      (await http(running, 'GET', `/api/executions/${id}/results`)).json.data as {
        messageId: string;
        payload: unknown;
      }[]
    ).map((result) => [result.messageId, result.payload] as const);

  it('kill -9 inside a node, after an end marker and before its downstream: ABORTED on restart, recover gives the same results', async () => {
    let running = await boot();
    await define(running, [delayedWorkflow]);
    const reference = await start(running, 'delayed');
    expect((await ended(running, reference)).status).toBe('COMPLETED');
    const expected = (await resultsOf(running, reference)).map(([, payload]) => payload).sort();

    const id = await start(running, 'delayed');
    // `times` has its end marker; `wait`, downstream of it, is still busy with a message.
    await eventually(
      () => http(running, 'GET', `/api/executions/${id}/checkpoints`),
      (answer) =>
        answer.json.data.nodes.times?.complete === true &&
        answer.json.data.nodes.wait?.complete !== true,
    );
    await crash(running);

    running = await boot();
    const aborted = await record(running, id);
    expect(aborted.status).toBe('ABORTED');
    // The boot told the event stream: a client following it from the start learns of it.
    const events = await openSse(running.baseUrl, `/api/events?executionId=${id}`, {
      'last-event-id': '0',
    });
    const [abortedEvent] = await events.until((seen) => seen.length > 0);
    events.close();
    expect(abortedEvent?.data).toMatchObject({
      kind: 'execution.aborted',
      executionId: id,
      sessionId: 's',
      workflowId: 'delayed',
      status: 'ABORTED',
    });
    expect(aborted.nodes.times.status).toBe('COMPLETED');
    expect((await record(running, reference)).status).toBe('COMPLETED');
    const checkpoints = await http(running, 'GET', `/api/executions/${id}/checkpoints`);
    expect(checkpoints.json.data.store).toBe('file');
    expect(checkpoints.json.data.nodes.times).toMatchObject({ messages: 3, complete: true });

    const recovered = await http(running, 'POST', `/api/executions/${id}/recover`);
    expect(recovered.status).toBe(202);
    const resumed = await ended(running, recovered.json.data.executionId);
    expect(resumed.status).toBe('COMPLETED');
    expect(resumed.resumedFrom).toBe(id);
    // Finished nodes were replayed, not run: the replayed node took no input.
    expect(resumed.nodes.times).toMatchObject({ messagesIn: 0, messagesOut: 3 });
    const results = await resultsOf(running, resumed.executionId);
    expect(results.map(([, payload]) => payload).sort()).toEqual(expected);
    expect(new Set(results.map(([messageId]) => messageId)).size).toBe(results.length);

    // A run is resumed once (SPEC rule 4), and the refusals of Errors 409.
    const again = await http(running, 'POST', `/api/executions/${id}/recover`);
    expect(again.status).toBe(409);
    expect(again.json.message).toContain('already resumed');
    const notAborted = await http(running, 'POST', `/api/executions/${reference}/recover`);
    expect(notAborted.status).toBe(409);
    expect(notAborted.json.message).toContain('not ABORTED');
    expect((await http(running, 'POST', '/api/executions/nope/recover')).status).toBe(404);
  });

  it('kill -9 during a signal wait: the resumed run reuses the answered approval and asks again only for the open one', async () => {
    let running = await boot();
    await define(running, [approval]);
    const id = await start(running, 'approval');
    // Both messages wait at once, each an approval of its own.
    const pending = await eventually(
      () => http(running, 'GET', `/api/executions/${id}/approvals`),
      (answer) => answer.json.data.length === 2,
    );
    const [first, open] = pending.json.data.map(
      (waiting: { messageId: string }) => waiting.messageId,
    ) as [string, string];
    const signalled = await http(running, 'POST', `/api/executions/${id}/nodes/ask/signal`, {
      approved: true,
      messageId: first,
    });
    expect(signalled.status).toBe(200);
    // The answer is recorded before the message goes on: once its result is in, it is durable.
    await eventually(
      () => resultsOf(running, id),
      (results) => results.length === 1,
    );
    await crash(running);

    running = await boot();
    expect((await record(running, id)).status).toBe('ABORTED');
    // Pending approvals lived in memory: the interrupted run waits for nothing any more.
    expect((await http(running, 'GET', `/api/executions/${id}/approvals`)).json.data).toEqual([]);
    expect((await http(running, 'GET', '/api/sessions/s/approvals')).json.data).toEqual([]);
    const recovered = await http(running, 'POST', `/api/executions/${id}/recover`);
    expect(recovered.status).toBe(202);
    const newId = recovered.json.data.executionId as string;
    const asked = await eventually(
      () => http(running, 'GET', `/api/executions/${newId}/approvals`),
      (answer) => answer.json.data.length === 1,
    );
    expect(asked.json.data.map((waiting: { messageId: string }) => waiting.messageId)).toEqual([
      open,
    ]);
    await http(running, 'POST', `/api/executions/${newId}/nodes/ask/signal`, { approved: true });
    expect((await ended(running, newId)).status).toBe('COMPLETED');
    expect((await resultsOf(running, newId)).map(([, payload]) => payload).sort()).toEqual([
      'a',
      'b',
    ]);
  });

  it('kill -9 during session saves: every acknowledged save survives', async () => {
    let running = await boot();
    await define(running, [slow]);
    const saves = Array.from({ length: 30 }, (_, i) =>
      http(running, 'PUT', '/api/sessions/s/workflows/slow', {
        ...slow,
        description: `save ${i}`,
      }).then(
        (answer) => answer.status,
        () => 0,
      ),
    );
    // Kill once a few saves were acknowledged, while the rest are on their way.
    await Promise.all(saves.slice(0, 3));
    await crash(running);
    const statuses = await Promise.all(saves);
    const acknowledged = statuses.filter((status) => status === 200).length;
    expect(acknowledged).toBeGreaterThan(0);

    running = await boot();
    const versions = await http(running, 'GET', '/api/sessions/s/workflows/slow/versions');
    expect(versions.status).toBe(200);
    // The first version plus every acknowledged save (at most 20 versions are kept).
    expect(versions.json.data.length).toBeGreaterThanOrEqual(Math.min(20, acknowledged + 1));
  });

  it('a graceful stop drains, and a run still going at exit is ABORTED at the next start', async () => {
    let running = await boot({ SVC_EXECUTION_SHUTDOWN_TIMEOUT: '300ms' });
    await define(running, [slow, delayedWorkflow]);
    const done = await start(running, 'delayed');
    await ended(running, done);
    const going = await start(running, 'slow');
    running.child.kill('SIGTERM');
    expect(await running.exited()).toBe(0);

    running = await boot();
    expect((await record(running, done)).status).toBe('COMPLETED');
    const aborted = await record(running, going);
    expect(aborted.status).toBe('ABORTED');
    expect(aborted.error).toContain('server stopped');
  });

  it('a graceful stop lets a run that ends within the shutdown timeout complete, and refuses new starts meanwhile', async () => {
    let running = await boot();
    await define(running, [delayedWorkflow]);
    const going = await start(running, 'delayed');
    running.child.kill('SIGTERM');
    // The server no longer admits starts while it drains.
    const refused = await eventually(
      () =>
        http(running, 'POST', '/api/workflow/start', {
          sessionId: 's',
          workflowId: 'delayed',
        }).catch(() => ({ status: 0, json: null })),
      (answer) => answer.status === 429,
    );
    expect(refused.json.message).toBe('The server is shutting down');
    expect(await running.exited()).toBe(0);

    running = await boot();
    const drained = await record(running, going);
    expect(drained.status).toBe('COMPLETED');
    expect(drained.nodes.out.messagesIn).toBe(3);
  });

  it('boot keeps the newest runs, drops older ones with their checkpoints, and applies the newest limits again', async () => {
    let running = await boot({ SVC_EXECUTION_LOG_RETAINED_RUNS: '2' });
    await define(running, [delayedWorkflow]);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const id = await start(running, 'delayed');
      await ended(running, id);
      ids.push(id);
    }
    expect((await http(running, 'POST', '/api/scheduler/limits?maxConcurrent=3')).status).toBe(200);
    await crash(running);

    running = await boot({ SVC_EXECUTION_LOG_RETAINED_RUNS: '2' });
    const listed = await http(running, 'GET', '/api/executions');
    expect(listed.json.data.items.map((item: { executionId: string }) => item.executionId)).toEqual(
      [ids[2], ids[1]],
    );
    expect((await http(running, 'GET', `/api/executions/${ids[0]}`)).status).toBe(404);
    const limits = await http(running, 'GET', '/api/scheduler/limits');
    expect(limits.json.data.maxConcurrent).toBe(3);
    // The file stores keep what a restart needs: the run of the earlier process restarts.
    const restart = await http(running, 'POST', `/api/executions/${ids[2]}/restart`);
    expect(restart.status).toBe(202);
    const dropped = await http(running, 'POST', `/api/executions/${ids[0]}/restart`);
    expect(dropped.status).toBe(404);
  });

  it('recover answers 429 when the new run gets no slot and does not count it as resumed; 409 once the workflow changed', async () => {
    let running = await boot();
    await define(running, [slow, delayedWorkflow]);
    const id = await start(running, 'delayed');
    await crash(running);

    running = await boot();
    expect((await http(running, 'POST', '/api/scheduler/limits?maxConcurrent=1')).status).toBe(200);
    const holder = await start(running, 'slow');
    const refused = await http(running, 'POST', `/api/executions/${id}/recover`);
    expect(refused.status).toBe(429);
    await http(running, 'POST', `/api/executions/${holder}/stop`);
    await ended(running, holder);

    // Changed since the run started: refused even though it was never resumed.
    await http(running, 'PUT', '/api/sessions/s/workflows/delayed', {
      ...delayedWorkflow,
      description: 'changed',
    });
    const changed = await http(running, 'POST', `/api/executions/${id}/recover`);
    expect(changed.status).toBe(409);
    expect(changed.json.message).toContain('workflow changed');
  });

  it('resumes every interrupted run in turn on start with svc.restart.auto-resume', async () => {
    let running = await boot();
    await define(running, [delayedWorkflow]);
    const id = await start(running, 'delayed');
    await crash(running);

    running = await boot({ SVC_RESTART_AUTO_RESUME: 'true' });
    const found = await eventually(
      () => http(running, 'GET', '/api/executions?workflowId=delayed'),
      (answer) =>
        answer.json.data.items.some(
          (item: { resumedFrom: string | null; status: string }) =>
            item.resumedFrom === id && item.status === 'COMPLETED',
        ),
      20_000,
    );
    expect(found.json.data.items.length).toBe(2);
    expect((await record(running, id)).status).toBe('ABORTED');
  });

  it('with svc.restart.auto-resume skips an interrupted run that cannot be resumed, logs it, and resumes the others', async () => {
    let running = await boot();
    await define(running, [slow, delayedWorkflow]);
    const changed = await start(running, 'slow');
    const fine = await start(running, 'delayed');
    // A new version of `slow` while its run goes on: that run can no longer be resumed.
    const saved = await http(running, 'PUT', '/api/sessions/s/workflows/slow', {
      ...slow,
      description: 'a new version',
    });
    expect(saved.status).toBe(200);
    await crash(running);

    running = await boot({ SVC_RESTART_AUTO_RESUME: 'true' });
    await eventually(
      () => http(running, 'GET', '/api/executions?workflowId=delayed'),
      (answer) =>
        answer.json.data.items.some(
          (item: { resumedFrom: string | null; status: string }) =>
            item.resumedFrom === fine && item.status === 'COMPLETED',
        ),
      20_000,
    );
    const ofSlow = await http(running, 'GET', '/api/executions?workflowId=slow');
    expect(ofSlow.json.data.items.map((item: { executionId: string }) => item.executionId)).toEqual(
      [changed],
    );
    expect((await record(running, changed)).status).toBe('ABORTED');
    expect(running.output()).toContain('Interrupted run not resumed');
    expect(running.output()).toContain(changed);
  });

  it('lists the control commands recorded before a restart in the audit (SPEC Events 8)', async () => {
    let running = await boot();
    await define(running, [slow]);
    const id = await start(running, 'slow');
    expect((await http(running, 'POST', `/api/executions/${id}/stop`)).status).toBe(200);
    await ended(running, id);
    expect((await http(running, 'POST', `/api/executions/${id}/stop`)).status).toBe(409);
    expect((await http(running, 'POST', '/api/scheduler/limits?maxConcurrent=5')).status).toBe(200);
    const before = (await http(running, 'GET', '/api/control/audit')).json.data;
    expect(before.map((entry: { command: string }) => entry.command)).toEqual([
      'SCHEDULER_LIMITS',
      'STOP',
      'STOP',
    ]);
    await crash(running);

    running = await boot();
    const after = await http(running, 'GET', '/api/control/audit');
    expect(after.json.data).toEqual(before);
    const ofRun = await http(running, 'GET', `/api/control/audit?executionId=${id}`);
    expect(ofRun.json.data.map((entry: { outcome: string }) => entry.outcome)).toEqual([
      'REFUSED',
      'APPLIED',
    ]);
  });
});
