// Always-on workflows (docs/always-on.md): an activated workflow has one run kept going, with
// no run deadline, started again when it ends and after a crash with the durable stores;
// deactivating stops it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Restartable } from './support/restored-history.js';
import { startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';
import { endOf, eventually } from './support/wait.js';

/** A run that outlives the server's run deadline of 1 s when it has none. */
const slow = {
  workflowId: 'slow',
  description: 'waits two seconds',
  nodes: [
    { nodeId: 'in', type: 'MANUAL' },
    { nodeId: 'wait', type: 'DELAY', config: { delayMs: 2000 } },
    { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
  ],
  edges: [
    { source: 'in', target: 'wait' },
    { source: 'wait', target: 'out' },
  ],
};

/** Runs until it is stopped. */
const endless = {
  workflowId: 'endless',
  description: 'ticks until stopped',
  nodes: [
    { nodeId: 'tick', type: 'CRON', config: { schedule: '0 0 1 1 *' } },
    { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
  ],
  edges: [{ source: 'tick', target: 'out' }],
};

interface RunRecord {
  readonly executionId: string;
  readonly status: string;
}

async function runsOf(server: Pick<TestServer, 'call'>, workflowId: string): Promise<RunRecord[]> {
  const answer = await server.call('GET', `/api/workflow/s/history?workflowId=${workflowId}`);
  return answer.json.data as RunRecord[];
}

describe('always-on workflows', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ argv: ['--svc.session.execution-timeout-seconds=1'] });
    const created = await server.call('POST', '/api/sessions', {
      body: { sessionId: 's', name: 's', initiator: 'test', workflows: [slow, endless] },
    });
    expect(created.status, created.text).toBe(201);
  });

  afterAll(async () => {
    await server.close();
  });

  it('keeps one run going with no run deadline, and starts the next when it ends', async () => {
    const normal = await server.call('POST', '/api/workflow/start', {
      body: { sessionId: 's', workflowId: 'slow' },
    });
    expect((await endOf(server, normal.json.data.executionId)).status).toBe('TIMED_OUT');
    const activated = await server.call('POST', '/api/sessions/s/workflows/slow/activate');
    expect(activated.status, activated.text).toBe(200);
    expect(activated.json.data).toMatchObject({ sessionId: 's', workflowId: 'slow', active: true });
    const first = activated.json.data.executionId as string;
    expect(first).toEqual(expect.any(String));
    const listed = await server.call('GET', '/api/sessions/s/workflows');
    expect(
      listed.json.data.map((workflow: { workflowId: string; active: boolean }) => [
        workflow.workflowId,
        workflow.active,
      ]),
    ).toEqual([
      ['endless', false],
      ['slow', true],
    ]);
    // Past the server's deadline of 1 s: it completes.
    expect((await endOf(server, first)).status).toBe('COMPLETED');
    const next = await eventually(
      () => runsOf(server, 'slow'),
      (runs) => runs.some((run) => run.executionId !== first && run.status === 'RUNNING'),
      10_000,
    );
    expect(next.filter((run) => run.status === 'RUNNING')).toHaveLength(1);
  });

  it('activating again follows the run under way instead of starting another', async () => {
    const once = await server.call('POST', '/api/sessions/s/workflows/endless/activate');
    const twice = await server.call('POST', '/api/sessions/s/workflows/endless/activate');
    expect(twice.json.data.executionId).toBe(once.json.data.executionId);
    expect(
      (await runsOf(server, 'endless')).filter((run) => run.status === 'RUNNING'),
    ).toHaveLength(1);
  });

  it('deactivating stops the run and starts no other', async () => {
    const activated = await server.call('POST', '/api/sessions/s/workflows/endless/activate');
    const id = activated.json.data.executionId as string;
    const deactivated = await server.call('POST', '/api/sessions/s/workflows/endless/deactivate');
    expect(deactivated.status, deactivated.text).toBe(200);
    expect(deactivated.json.data).toEqual({
      sessionId: 's',
      workflowId: 'endless',
      active: false,
      executionId: null,
    });
    expect((await endOf(server, id)).status).toBe('STOPPED');
    const audit = await server.call('GET', `/api/control/audit?executionId=${id}`);
    expect(audit.json.data.map((entry: { command: string }) => entry.command)).toContain('STOP');
    // A run of another workflow starts and ends meanwhile; none of this one does.
    const other = await server.call('POST', '/api/workflow/start', {
      body: { sessionId: 's', workflowId: 'slow' },
    });
    await endOf(server, other.json.data.executionId);
    expect((await runsOf(server, 'endless')).map((run) => run.status)).not.toContain('RUNNING');
  });

  it('answers 404 for a workflow that does not exist', async () => {
    const answer = await server.call('POST', '/api/sessions/s/workflows/nothing/activate');
    expect(answer.status).toBe(404);
    expect(answer.json.message).toBe("Workflow 'nothing' does not exist in session 's'");
  });
});

describe('always-on workflows after a crash with the file stores', () => {
  let dir = '';
  let servers: Restartable;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'always-on-'));
    servers = new Restartable([], () => ({
      SVC_SESSION_STORE_TYPE: 'file',
      SVC_SESSION_BASE_DIR: path.join(dir, 'sessions'),
      SVC_EXECUTION_LOG_DIR: path.join(dir, 'log'),
    }));
    await servers.boot();
  });

  afterAll(async () => {
    await servers.kill();
    await rm(dir, { recursive: true, force: true });
  });

  it('starts the run again when the server starts again', async () => {
    await servers.define([endless]);
    const activated = await servers.call('POST', '/api/sessions/s/workflows/endless/activate');
    const before = activated.json.data.executionId as string;
    await servers.crashAndBoot();
    expect((await servers.ended(before)).status).toBe('ABORTED');
    const after = await eventually(
      () => servers.call('GET', '/api/workflow/s/history?workflowId=endless'),
      (answer) =>
        (answer.json.data as RunRecord[]).some(
          (run) => run.executionId !== before && run.status === 'RUNNING',
        ),
    );
    expect(after.status).toBe(200);
    const listed = await servers.call('GET', '/api/sessions/s/workflows');
    expect(listed.json.data[0]).toMatchObject({ workflowId: 'endless', active: true });
  });
});
