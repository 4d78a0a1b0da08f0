// High availability on the real PostgreSQL of SVC_TEST_DB_URL (SPEC "States and transitions",
// "Recover conditions", "Deployment facts", "Events" 3, 6 and 9, "Errors", "Meters", workers;
// CONTRACT 4 control status; docs/high-availability.md): two servers of this process share one
// schema; one leads, the other is a standby that takes over when the leader stops, and a leader
// that loses its lease stops leading at once. A worker runs as its own process, as deployed.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { loadSettings } from '../src/config/index.js';
import { createSilentLoggers } from '../src/observability/index.js';
import { connectMcp } from './support/mcp.js';
import { TEST_DB_URL, postgresUnavailable, testDbClient } from './support/postgres.js';
import { asAdmin, dropSchema, uniqueName } from './support/postgres-schemas.js';
import { TEST_BUILD_INFO, openSse, startTestServer } from './support/server.js';
import type { SseClient, TestServer } from './support/server.js';
import { eventually } from './support/wait.js';
import { CONNECTED, startWorkerProcess, untilLogged } from './support/worker-process.js';
import type { WorkerProcess } from './support/worker-process.js';
import { TOKEN } from './support/workers.js';
import { approvalWorkflow } from './support/workflows.js';

const unavailable = await postgresUnavailable();
const skipped = unavailable === undefined ? '' : ` (skipped: ${unavailable})`;

const BUILD = { ...TEST_BUILD_INFO, persistence: true };

const approval = approvalWorkflow;

const TERMINAL = ['COMPLETED', 'FAILED', 'STOPPED', 'TIMED_OUT', 'ABORTED'];

/** The time limit of a case that starts a worker process: a loaded machine takes long. */
const WORKER_STARTS = 180_000;

const REFUSED_BY_STANDBY = 'Refused: The server is a standby; connect to the leader';

/** How often the worker process said a standby refused it. */
function refusals(worker: WorkerProcess): number {
  return worker.logLines().filter((line) => line.msg === REFUSED_BY_STANDBY).length;
}

interface PairOptions {
  readonly lease?: string;
  readonly renew?: string;
  readonly argv?: readonly string[];
  readonly workers?: boolean;
}

describe('high availability settings (docs/high-availability.md)', () => {
  // Refused before the database is opened: these URLs lead nowhere.
  const nowhere = 'postgres://user@127.0.0.1:1/none';
  const start = (argv: readonly string[]) => {
    const { settings, profile } = loadSettings({
      argv: [`--svc.db.url=${nowhere}`, `--svc.db.migration-url=${nowhere}`, ...argv],
      env: {},
      features: { postgres: true },
    });
    return createApp({ settings, profile, buildInfo: BUILD, loggers: createSilentLoggers() });
  };

  it('refuses to start with high availability and stores that are not the relational ones, naming them', async () => {
    await expect(
      start(['--svc.ha.enabled=true', '--svc.session.store-type=postgres']),
    ).rejects.toMatchObject({
      code: 'SETTINGS_INVALID',
      message:
        'svc.ha.enabled=true needs the relational-database stores, which the servers of the pair share: set svc.restart.store-type, svc.execution-log.store-type to postgres (the postgres profile sets all three)',
    });
  });

  it('refuses a renew interval longer than half the lease', async () => {
    await expect(
      start([
        'postgres',
        '--svc.ha.enabled=true',
        '--svc.ha.lease-duration=10s',
        '--svc.ha.renew-interval=6s',
      ]),
    ).rejects.toMatchObject({
      code: 'SETTINGS_INVALID',
      message: expect.stringContaining(
        'svc.ha.renew-interval (6000 ms) must be longer than 0 and at most half of svc.ha.lease-duration (10000 ms)',
      ),
    });
  });
});

describe.skipIf(unavailable !== undefined)(`a leader and a standby on one schema${skipped}`, () => {
  const schemas: string[] = [];
  const servers: TestServer[] = [];
  const cleanups: (() => unknown)[] = [];

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await Promise.all(servers.splice(0).map((server) => server.close().catch(() => undefined)));
  });

  afterAll(async () => {
    for (const schema of schemas) await dropSchema(schema);
  });

  function argvFor(schema: string, options: PairOptions): string[] {
    return [
      'postgres',
      `--svc.db.url=${TEST_DB_URL}`,
      `--svc.db.migration-url=${TEST_DB_URL}`,
      `--svc.db.schema=${schema}`,
      '--svc.ha.enabled=true',
      `--svc.ha.lease-duration=${options.lease ?? '10s'}`,
      `--svc.ha.renew-interval=${options.renew ?? '100'}`,
      ...(options.workers === true
        ? [`--svc.workers.token=${TOKEN}`, '--svc.workers.listen-port=0']
        : []),
      ...(options.argv ?? []),
    ];
  }

  async function server(schema: string, options: PairOptions = {}): Promise<TestServer> {
    const started = await startTestServer({
      argv: argvFor(schema, options),
      buildInfo: options.workers === true ? { ...BUILD, workers: true } : BUILD,
    });
    servers.push(started);
    return started;
  }

  /** The first server started leads; the second is its standby. */
  async function pair(options: PairOptions = {}): Promise<{
    schema: string;
    leader: TestServer;
    standby: TestServer;
  }> {
    const schema = uniqueName();
    schemas.push(schema);
    const leader = await server(schema, options);
    // Started second, once the first leads: the lease is held and this one is the standby.
    await eventually(
      () => leads(leader),
      (leading) => leading,
    );
    const standby = await server(schema, options);
    return { schema, leader, standby };
  }

  const leads = async (server: TestServer): Promise<boolean> =>
    (await server.call('GET', '/api/control/status')).json.data.leader as boolean;

  const meter = async (server: TestServer, name: string, tag = ''): Promise<number> =>
    (await server.call('GET', `/actuator/metrics/${name}${tag === '' ? '' : `?tag=${tag}`}`)).json
      .measurements[0].value as number;

  async function defineApproval(server: TestServer): Promise<void> {
    const created = await server.call('POST', '/api/sessions', {
      body: { sessionId: 's', name: 'orders', initiator: 'tests', workflows: [approval] },
    });
    expect(created.status).toBe(201);
  }

  /** Starts the approval run on `server` and waits until it asks. */
  async function waitingRun(
    server: TestServer,
    headers: Record<string, string> = {},
  ): Promise<string> {
    const started = await server.call('POST', '/api/workflow/start', {
      body: { sessionId: 's', workflowId: 'approval' },
      headers,
    });
    expect(started.status).toBe(202);
    const id = started.json.data.executionId as string;
    await eventually(
      () => server.call('GET', `/api/executions/${id}/approvals`),
      (answer) => (answer.json.data as unknown[]).length === 1,
    );
    // Quiet from here on: `in` has ended and the log has everything it was given.
    await eventually(
      () => record(server, id),
      (data) => data.nodes.in?.status === 'COMPLETED',
    );
    await eventually(
      () => meter(server, 'svc.tracker.queue.depth'),
      (depth) => depth === 0,
    );
    return id;
  }

  const record = async (server: TestServer, id: string) =>
    (await server.call('GET', `/api/executions/${id}`)).json.data;

  async function globalEvents(server: TestServer, lastEventId?: number): Promise<SseClient> {
    const stream = await openSse(
      server.baseUrl,
      '/api/events',
      lastEventId === undefined ? {} : { 'last-event-id': String(lastEventId) },
    );
    cleanups.push(() => {
      stream.close();
    });
    return stream;
  }

  it('lets exactly one of two servers lead: svc.leader 1 and 0, control status leader true and false (SPEC Meters, CONTRACT 4)', async () => {
    const { leader, standby } = await pair();
    expect(await leads(leader)).toBe(true);
    expect(await leads(standby)).toBe(false);
    expect(await meter(leader, 'svc.leader')).toBe(1);
    expect(await meter(standby, 'svc.leader')).toBe(0);
    const health = await standby.call('GET', '/actuator/health');
    expect(health.json.components.leadership).toMatchObject({
      status: 'UP',
      details: { state: 'standby' },
    });
    // The standby keeps trying and never takes a lease that is held: not in this time either.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await leads(standby)).toBe(false);
    expect(await leads(leader)).toBe(true);
  });

  it('answers a start on the standby 503 saying it is a standby, counted with reason not_leader, on every way to start a run (SPEC States and transitions, Errors)', async () => {
    const { leader, standby } = await pair();
    await defineApproval(leader);
    // Reads that need no leader are served from the shared database.
    const session = await standby.call('GET', '/api/sessions/s/workflows/approval');
    expect(session.status).toBe(200);

    const refused = await standby.call('POST', '/api/workflow/start', {
      body: { sessionId: 's', workflowId: 'approval' },
      headers: { 'idempotency-key': 'k-1' },
    });
    expect(refused.status).toBe(503);
    expect(refused.json).toMatchObject({ status: 503, error: 'Service Unavailable' });
    expect(refused.json.message).toMatch(/standby/);
    expect(await meter(standby, 'svc.executions.rejected', 'reason:not_leader')).toBe(1);

    const scoped = await standby.call('POST', '/api/workflow/s/start', {
      body: { workflowId: 'approval' },
    });
    expect(scoped.status).toBe(503);
    expect(scoped.json.message).toMatch(/standby/);

    const id = await waitingRun(leader);
    for (const path of [
      `/api/executions/${id}/restart`,
      `/api/executions/${id}/restart/ask`,
      `/api/executions/${id}/nodes/ask/retry`,
      `/api/executions/${id}/recover`,
    ]) {
      const answer = await standby.call('POST', path);
      expect(answer.status, path).toBe(503);
      expect(answer.json.message, path).toMatch(/standby/);
    }
    expect(await meter(standby, 'svc.executions.rejected', 'reason:not_leader')).toBe(6);

    const mcp = await connectMcp(standby.baseUrl);
    cleanups.push(() => mcp.close());
    const tool = await mcp.call('start_workflow', { sessionId: 's', workflowId: 'approval' });
    expect(tool.isError).toBe(true);
    expect(tool.text).toMatch(/^503 .*standby/);
    const control = await mcp.call('control_workflow', { executionId: id, action: 'RESTART' });
    expect(control.text).toMatch(/^503 /);

    // The standby holds no executions: it sends the caller to the leader rather than say 404.
    const read = await standby.call('GET', `/api/executions/${id}`);
    expect(read.status).toBe(503);
    expect(read.json.message).toMatch(/standby/);
    const stop = await standby.call('POST', `/api/executions/${id}/stop`);
    expect(stop.status).toBe(503);

    // Changes of shared state are the leader's too.
    const limits = await standby.call('POST', '/api/scheduler/limits?maxConcurrent=3');
    expect(limits.status).toBe(503);
    const save = await standby.call('PUT', '/api/sessions/s/workflows/other', {
      body: { ...approval, workflowId: 'other' },
    });
    expect(save.status).toBe(503);
    // Nothing the standby refused reached the shared log or changed the leader's run.
    expect(await meter(leader, 'svc.executions.rejected', 'reason:not_leader')).toBe(0);
    expect((await record(leader, id)).status).toBe('RUNNING');
  });

  it('releases the lease at once on a graceful stop: the standby takes over long before the lease would expire, marks the cut-off run ABORTED and recovers it (SPEC Deployment facts step 3, Recover conditions, Events 3, 6 and 9)', async () => {
    const { leader, standby } = await pair({
      lease: '10s',
      argv: ['--svc.execution.shutdown-timeout=100'],
    });
    await defineApproval(leader);
    const events = await globalEvents(leader);
    // A client of the standby is dropped at the takeover too, and reconnects.
    const onStandby = await globalEvents(standby);
    const id = await waitingRun(leader);
    await events.until((seen) => seen.some((event) => event.event === 'approval.requested'));

    const stopping = Date.now();
    await leader.app.shutdown();
    await events.ended;
    await eventually(
      () => leads(standby),
      (leading) => leading,
    );
    // Much sooner than the 10 s the lease would last.
    expect(Date.now() - stopping).toBeLessThan(3_000);
    await onStandby.ended;
    expect(await meter(standby, 'svc.leader')).toBe(1);

    const aborted = await record(standby, id);
    expect(aborted).toMatchObject({ status: 'ABORTED' });
    expect(aborted.error).toContain('server stopped');
    expect(aborted.nodes.in.status).toBe('COMPLETED');
    // The pending approval lived in the old leader's memory.
    expect((await standby.call('GET', `/api/executions/${id}/approvals`)).json.data).toEqual([]);
    expect((await standby.call('GET', '/api/sessions/s/approvals')).json.data).toEqual([]);

    // A client continues from the last event it saw on the old leader.
    const lastSeen = events.events.at(-1)?.id ?? 0;
    const resumed = await globalEvents(standby, lastSeen);
    const missed = await resumed.until((seen) =>
      seen.some((event) => event.event === 'execution.aborted'),
    );
    expect(missed.every((event) => (event.id ?? 0) > lastSeen)).toBe(true);

    const recovered = await standby.call('POST', `/api/executions/${id}/recover`);
    expect(recovered.status).toBe(202);
    const newId = recovered.json.data.executionId as string;
    await eventually(
      () => standby.call('GET', `/api/executions/${newId}/approvals`),
      (answer) => (answer.json.data as unknown[]).length === 1,
    );
    const signal = await standby.call('POST', `/api/executions/${newId}/nodes/ask/signal`, {
      body: { approved: true },
    });
    expect(signal.status).toBe(200);
    const finished = await eventually(
      () => record(standby, newId),
      (data) => TERMINAL.includes(data.status as string),
    );
    expect(finished).toMatchObject({ status: 'COMPLETED', resumedFrom: id });
    expect(finished.nodes.in).toMatchObject({ messagesIn: 0, messagesOut: 1 });
  });

  it('keeps an always-on workflow going on the leader only, and on the new leader after a takeover (docs/always-on.md)', async () => {
    const { leader, standby } = await pair({ argv: ['--svc.execution.shutdown-timeout=100'] });
    await defineApproval(leader);
    const refused = await standby.call('POST', '/api/sessions/s/workflows/approval/activate');
    expect(refused.status).toBe(503);
    const activated = await leader.call('POST', '/api/sessions/s/workflows/approval/activate');
    expect(activated.status, activated.text).toBe(200);
    const first = activated.json.data.executionId as string;
    await eventually(
      () => record(leader, first),
      (data) => data.status === 'RUNNING',
    );
    await leader.app.shutdown();
    await eventually(
      () => leads(standby),
      (leading) => leading,
    );
    const history = await eventually(
      () => standby.call('GET', '/api/workflow/s/history?workflowId=approval'),
      (answer) =>
        (answer.json.data as { executionId: string; status: string }[]).some(
          (run) => run.executionId !== first && run.status === 'RUNNING',
        ),
    );
    expect(
      (history.json.data as { status: string }[]).filter((run) => run.status === 'RUNNING'),
    ).toHaveLength(1);
    expect((await record(standby, first)).status).toBe('ABORTED');
  });

  it('answers a start retried at the new leader with the same Idempotency-Key with the run the old leader started, starting nothing twice (SPEC Errors: Idempotency-Key)', async () => {
    const { leader, standby } = await pair({ argv: ['--svc.execution.shutdown-timeout=100'] });
    await defineApproval(leader);
    const key = { 'idempotency-key': 'order-42' };
    const id = await waitingRun(leader, key);
    // The same key at the same leader: the same run.
    const repeated = await leader.call('POST', '/api/workflow/start', {
      body: { sessionId: 's', workflowId: 'approval' },
      headers: key,
    });
    expect(repeated.json.data.executionId).toBe(id);

    await leader.app.shutdown();
    await eventually(
      () => leads(standby),
      (leading) => leading,
    );
    // The client retries at the server that leads now: the key lives in the shared database.
    const retried = await standby.call('POST', '/api/workflow/start', {
      body: { sessionId: 's', workflowId: 'approval' },
      headers: key,
    });
    expect(retried.status).toBe(202);
    expect(retried.json.data).toEqual({ executionId: id, status: 'ABORTED' });
    const history = await standby.call('GET', '/api/workflow/s/history?workflowId=approval');
    expect(
      history.json.data.map((execution: { executionId: string }) => execution.executionId),
    ).toEqual([id]);
    // Another key is another start.
    const other = await standby.call('POST', '/api/workflow/start', {
      body: { sessionId: 's', workflowId: 'approval' },
      headers: { 'idempotency-key': 'order-43' },
    });
    expect(other.status).toBe(202);
    expect(other.json.data.executionId).not.toBe(id);
  });

  it('answers on a standby 503 with Retry-After, in the SPEC envelope, to every list that needs the leader: search, history, audit and pending approvals, not an empty list', async () => {
    const { leader, standby } = await pair();
    await defineApproval(leader);
    const id = await waitingRun(leader);
    await leader.call('POST', `/api/executions/${id}/pause`);
    for (const path of [
      '/api/executions',
      '/api/executions?sessionId=s',
      '/api/workflow/s/history',
      '/api/control/audit',
      '/api/sessions/s/approvals',
    ]) {
      const onLeader = await leader.call('GET', path);
      expect(onLeader.status, path).toBe(200);
      expect((onLeader.json.data.items ?? onLeader.json.data).length, path).toBeGreaterThan(0);
      const onStandby = await standby.call('GET', path);
      expect(onStandby.status, path).toBe(503);
      expect(onStandby.json, path).toMatchObject({
        status: 503,
        error: 'Service Unavailable',
        path: path.split('?')[0],
        message: expect.stringMatching(/standby/),
      });
      // svc.ha.renew-interval is 100 ms here: a second, rounded up.
      expect(onStandby.headers.get('retry-after'), path).toBe('1');
    }
    // Every other 503 of a standby says when to try again too.
    const start = await standby.call('POST', '/api/workflow/start', {
      body: { sessionId: 's', workflowId: 'approval' },
    });
    expect(start.status).toBe(503);
    expect(start.headers.get('retry-after')).toBe('1');
    const read = await standby.call('GET', `/api/executions/${id}`);
    expect(read.status).toBe(503);
    expect(read.headers.get('retry-after')).toBe('1');

    const mcp = await connectMcp(standby.baseUrl);
    cleanups.push(() => mcp.close());
    const history = await mcp.call('get_workflow_history', { sessionId: 's' });
    expect(history.isError).toBe(true);
    expect(history.text).toMatch(/^503 .*standby/);
    const approvals = await mcp.call('list_pending_approvals', { sessionId: 's' });
    expect(approvals.text).toMatch(/^503 /);
  });

  it('stops leading at once when another server takes its lease: no more starts, its streams end, its runs stop without an end in the shared log (fencing)', async () => {
    const { schema, leader, standby } = await pair({ lease: '10s' });
    await defineApproval(leader);
    const id = await waitingRun(leader);
    const events = await globalEvents(leader);
    const progress = await openSse(leader.baseUrl, `/api/workflow/s/status/${id}/stream`);
    cleanups.push(() => {
      progress.close();
    });

    // Another server takes the lease, for a short while.
    await asAdmin((client) =>
      client.query(
        `UPDATE ${schema}.leader_lease
            SET holder = 'intruder', epoch = epoch + 1, expires_at = now() + interval '1 second'`,
      ),
    );
    await events.ended;
    await progress.ended;
    expect(await leads(leader)).toBe(false);
    expect(await meter(leader, 'svc.leader')).toBe(0);
    const refused = await leader.call('POST', '/api/workflow/start', {
      body: { sessionId: 's', workflowId: 'approval' },
    });
    expect(refused.status).toBe(503);
    expect(leader.app.leadership?.state).toBe('fenced');

    // Once the intruder's lease runs out, the standby takes over and finds the run cut off.
    await eventually(
      () => leads(standby),
      (leading) => leading,
    );
    expect(await record(standby, id)).toMatchObject({ status: 'ABORTED' });
    // The fenced server sealed its log: it did not even try to write the end of its run.
    expect(await meter(leader, 'svc.tracker.log.append.failed')).toBe(0);
    // And it stays fenced: it does not take the lease back.
    expect(await leads(leader)).toBe(false);
  });

  it('stops leading when it cannot renew its lease before it expires, and the standby takes over once the database answers again (fencing)', async () => {
    const { schema, leader, standby } = await pair({ lease: '1s', renew: '200' });
    const events = await globalEvents(leader);
    // The lease row stops answering: every statement on it waits.
    const locker = testDbClient();
    await locker.connect();
    cleanups.push(() => locker.end());
    await locker.query('BEGIN');
    await locker.query(`LOCK TABLE ${schema}.leader_lease IN ACCESS EXCLUSIVE MODE`);
    const lockedAt = Date.now();
    await events.ended;
    const fencedAfter = Date.now() - lockedAt;
    expect(fencedAfter).toBeLessThan(3_000);
    expect(await leads(leader)).toBe(false);
    expect(await leads(standby)).toBe(false);
    await locker.query('ROLLBACK');
    await eventually(
      () => leads(standby),
      (leading) => leading,
    );
    expect(await leads(leader)).toBe(false);
  });

  it(
    'refuses workers on the standby, which reach it once it leads and are let go when it loses its lease (SPEC Workflow-author safeguards: workers)',
    { timeout: WORKER_STARTS },
    async () => {
      const { schema, leader, standby } = await pair({ workers: true });
      // A worker process, as deployed: it tries again with its own backoff while refused.
      const worker = await startWorkerProcess(standby, {
        connected: false,
        argv: ['--svc.workers.plugin-types=MAPPER'],
      });
      cleanups.push(() => worker.kill());
      await untilLogged(worker, (line) => line.msg === REFUSED_BY_STANDBY, WORKER_STARTS);
      expect(worker.workerId()).toBeUndefined();
      expect(await meter(standby, 'svc.workers')).toBe(0);

      await leader.app.shutdown();
      await untilLogged(worker, (line) => line.msg === CONNECTED, WORKER_STARTS);
      expect(await leads(standby)).toBe(true);
      expect(await meter(standby, 'svc.workers')).toBe(1);
      const refusedWhileStandby = refusals(worker);

      await asAdmin((client) =>
        client.query(
          `UPDATE ${schema}.leader_lease
            SET holder = 'intruder', epoch = epoch + 1, expires_at = now() + interval '1 hour'`,
        ),
      );
      await eventually(
        () => meter(standby, 'svc.workers'),
        (connected) => connected === 0,
      );
      expect(await leads(standby)).toBe(false);
      // Let go, the worker comes back and is refused again: this server is a standby now.
      await eventually(
        () => Promise.resolve(refusals(worker)),
        (refused) => refused > refusedWhileStandby,
        WORKER_STARTS,
      );
    },
  );
});
