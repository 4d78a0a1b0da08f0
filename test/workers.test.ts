// Remote workers through the public surface: a control plane in-process, workers as their own
// processes over real TCP sockets (SPEC Build-time choices svc.workers=true, engine.placement,
// Workflow-author safeguards, Errors, Log line losses, Meters; CONTRACT 4 GET /api/workers).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { isRunning } from './support/process.js';
import type { TestServer } from './support/server.js';
import { endOf, eventually } from './support/wait.js';
import { meter, placedFlow, startControlPlane, startRun } from './support/workers.js';
import {
  lastCounts,
  ranCallOf,
  startWorkerProcess,
  startWorkerProcesses,
  untilLogged,
} from './support/worker-process.js';
import type { WorkerProcess, WorkerProcessOptions } from './support/worker-process.js';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function controlPlane(options: Parameters<typeof startControlPlane>[0] = {}) {
  const server = await startControlPlane(options);
  closers.push(() => server.close());
  return server;
}

async function worker(server: TestServer, options: WorkerProcessOptions = {}) {
  const started = await startWorkerProcess(server, options);
  closers.push(() => started.kill());
  return started;
}

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-workers-'));
  closers.push(() => {
    rmSync(dir, { recursive: true, force: true });
    return Promise.resolve();
  });
  return dir;
}

const NO_WORKER = (pool: string, type: string) =>
  `No connected worker in pool '${pool}' serves plugin type '${type}' with a free slot`;

/** A PROCESS_EXECUTOR node running this Node.js with a script. */
function nodeScript(script: string, pool = 'gpu') {
  return {
    type: 'PROCESS_EXECUTOR',
    config: { command: process.execPath, args: ['-e', script], engine: { placement: pool } },
  };
}

const ANY_COMMAND = ['--svc.workers.plugin-types=PROCESS_EXECUTOR', '--svc.process.allow-any=true'];
/** The time limit of a case that starts a worker process: a loaded machine takes long. */
const STARTS = 180_000;
vi.setConfig({ testTimeout: STARTS });

/**
 * One control plane and its workers, shared by the cases that place nodes: starting a worker
 * process costs seconds, so each pool below serves the cases that name it.
 */
const shared = {} as {
  server: TestServer;
  /**
   * Pool `gpu`: MAPPER with its own SVC_VAR_WHERE, PROCESS_EXECUTOR of this Node.js only,
   * SUB_WORKFLOW and WAIT_FOR_SIGNAL.
   */
  gpu: WorkerProcess;
  /** Pool `shell`: two workers running PROCESS_EXECUTOR with any command. */
  shell: WorkerProcess[];
};

beforeAll(async () => {
  const server = await startControlPlane({ env: { SVC_VAR_WHERE: 'the control plane' } });
  const [gpu, ...shell] = await startWorkerProcesses(server, [
    {
      argv: [
        '--svc.workers.pool=gpu',
        '--svc.workers.plugin-types=MAPPER,PROCESS_EXECUTOR,SUB_WORKFLOW,WAIT_FOR_SIGNAL',
        `--svc.process.allowed-commands=${process.execPath}`,
      ],
      env: { SVC_VAR_WHERE: 'the worker' },
    },
    ...['first', 'second'].map((name) => ({
      argv: ['--svc.workers.pool=shell', `--svc.workers.name=${name}`, ...ANY_COMMAND],
    })),
  ]);
  if (gpu === undefined) throw new Error('no worker started');
  Object.assign(shared, { server, gpu, shell });
}, 300_000);

afterAll(async () => {
  const started = [shared.gpu, ...((shared.shell as WorkerProcess[] | undefined) ?? [])];
  // Whatever beforeAll started, should it have failed half-way.
  await Promise.all(
    started.map((each) => (each as WorkerProcess | undefined)?.kill() ?? Promise.resolve(null)),
  );
  await (shared.server as TestServer | undefined)?.close();
});

describe('placed nodes run on a worker (SPEC Node-level engine settings: engine.placement)', () => {
  it('runs a placed MAPPER on a worker of its pool, resolving placeholders with the worker environment, and the run completes with its results', async () => {
    const { server, gpu } = shared;
    const id = await startRun(
      server,
      placedFlow('map', {
        type: 'MAPPER',
        config: {
          mode: 'TEMPLATE',
          template: 'Hello {{name}} from ${env.SVC_VAR_WHERE}',
          engine: { placement: 'gpu' },
        },
      }),
      { name: 'you' },
    );
    const record = await endOf(server, id);
    expect(record.status, JSON.stringify(record)).toBe('COMPLETED');
    const results = await server.call('GET', `/api/executions/${id}/results`);
    expect(results.json.data.map((event: { payload: unknown }) => event.payload)).toEqual([
      'Hello you from the worker',
    ]);
    // The control plane said the node ended: its runtime on the worker is closed, its slot free.
    await untilLogged(gpu, (line) => line.msg === 'Placed node closed');
    expect(lastCounts(gpu).openNodes).toBe(0);
    const workers = await server.call('GET', '/api/workers');
    expect(
      workers.json.data.workers.find((listed: { pool: string }) => listed.pool === 'gpu'),
    ).toMatchObject({ pool: 'gpu', slots: 4, freeSlots: 4 });
  });

  it("applies the worker's own allow-list to a placed PROCESS_EXECUTOR, not the control plane's (SPEC Workflow-author safeguards)", async () => {
    // Process execution is off on the control plane; the worker allows this Node.js only.
    const { server } = shared;
    const allowed = await startRun(
      server,
      placedFlow('allowed', nodeScript('console.log("ran on the worker")')),
    );
    const done = await endOf(server, allowed);
    expect(done.status, JSON.stringify(done)).toBe('COMPLETED');
    const results = await server.call('GET', `/api/executions/${allowed}/results`);
    expect(results.json.data[0].payload).toMatchObject({
      exitCode: 0,
      stdout: 'ran on the worker\n',
    });

    const refused = await startRun(
      server,
      placedFlow('refused', {
        type: 'PROCESS_EXECUTOR',
        config: { command: 'sh', args: ['-c', 'true'], engine: { placement: 'gpu' } },
      }),
    );
    const failed = await endOf(server, refused);
    expect(failed.status).toBe('FAILED');
    expect(failed.nodes.placed.error).toBe("Command 'sh' is not in svc.process.allowed-commands");
    // Counted on the control plane, where the run is.
    expect(await meter(server, 'svc.plugin.events?tag=outcome:refused')).toBe(1);
  });

  it('fails a placed node with the SPEC message when no connected worker in its pool serves the type with a free slot (SPEC Errors, process-level failures)', async () => {
    // Pool `gpu` runs MAPPER; pool `shell` runs PROCESS_EXECUTOR only.
    const { server } = shared;
    const mapper = (pool: string) => ({
      type: 'MAPPER',
      config: { mode: 'PROJECTION', expression: '$', engine: { placement: pool } },
    });
    // No worker in the pool at all; a pool whose worker does not serve the type.
    for (const [workflowId, pool] of [
      ['nowhere', 'nowhere'],
      ['wrongtype', 'shell'],
    ] as const) {
      const record = await endOf(
        server,
        await startRun(server, placedFlow(workflowId, mapper(pool))),
      );
      expect(record.status).toBe('FAILED');
      expect(record.nodes.placed.error).toBe(NO_WORKER(pool, 'MAPPER'));
    }
  });

  it('retries a placed node while no worker fits, so engine.retry waits for a worker to connect', async () => {
    const { server } = shared;
    const id = await startRun(
      server,
      placedFlow('waits', {
        type: 'MAPPER',
        config: {
          mode: 'PROJECTION',
          expression: '"placed"',
          engine: { placement: 'late', retry: { maxAttempts: 10, backoffMs: 100 } },
        },
      }),
    );
    await eventually(
      () => server.call('GET', `/api/executions/${id}`),
      (answer) => answer.json.data.nodes.placed.retries >= 1,
    );
    await worker(server, {
      argv: ['--svc.workers.pool=late', '--svc.workers.plugin-types=MAPPER'],
    });
    const record = await endOf(server, id, 60_000);
    expect(record.status, JSON.stringify(record)).toBe('COMPLETED');
    const results = await server.call('GET', `/api/executions/${id}/results`);
    expect(results.json.data[0].payload).toBe('placed');
  });

  it('refuses a sub-workflow and a signal wait on a worker, each with a clear message', async () => {
    const { server } = shared;
    const cases = [
      {
        type: 'SUB_WORKFLOW',
        config: { workflowId: 'other' },
        error:
          "Sub-workflow 'other' did not complete: Sub-workflows cannot be started from a remote worker",
      },
      {
        type: 'WAIT_FOR_SIGNAL',
        config: {},
        error: 'Signals cannot be received on a remote worker',
      },
    ];
    for (const { type, config, error } of cases) {
      const flow = placedFlow(type.toLowerCase().replace(/_/g, '-'), {
        type,
        config: { ...config, engine: { placement: 'gpu' } },
      });
      const record = await endOf(server, await startRun(server, flow));
      expect(record.status, type).toBe('FAILED');
      expect(record.nodes.placed.error, type).toBe(error);
    }
  });

  it('refuses a whole-stream processor placed on a worker when the workflow is validated and when it is saved, not at run time', async () => {
    const server = await controlPlane();
    const flow = placedFlow('aggregate', {
      type: 'AGGREGATOR',
      config: { size: 2, engine: { placement: 'default' } },
    });
    const validated = await server.call('POST', '/api/sessions/validate', { body: flow });
    expect(validated.json.data).toMatchObject({
      valid: false,
      message:
        "nodes[1].config.engine.placement: Plugin type 'AGGREGATOR' processes the whole stream; only per-message processors can run on a remote worker",
    });
    await server.call('POST', '/api/sessions', {
      body: { sessionId: 's', name: 's', initiator: 'i' },
    });
    const saved = await server.call('PUT', '/api/sessions/s/workflows/aggregate', { body: flow });
    expect(saved.status).toBe(400);
    expect(saved.json.errors).toEqual([
      {
        field: 'nodes[1].config.engine.placement',
        message:
          "Plugin type 'AGGREGATOR' processes the whole stream; only per-message processors can run on a remote worker",
      },
    ]);
  });

  it('refuses engine.placement on a trigger or a terminal when a workflow is validated', async () => {
    const server = await controlPlane();
    const answer = await server.call('POST', '/api/sessions/validate', {
      body: {
        workflowId: 'bad',
        description: 'placed trigger',
        nodes: [
          { nodeId: 'in', type: 'MANUAL', config: { engine: { placement: 'gpu' } } },
          { nodeId: 'out', type: 'CONSOLE_TERMINAL', config: { engine: { placement: 'gpu' } } },
        ],
        edges: [{ source: 'in', target: 'out' }],
      },
    });
    expect(answer.json.data.valid).toBe(false);
    expect(answer.json.data.message).toBe(
      "2 problems: nodes[0].config.engine.placement: Only processors can be placed on a remote worker; 'MANUAL' is a trigger; nodes[1].config.engine.placement: Only processors can be placed on a remote worker; 'CONSOLE_TERMINAL' is a terminal",
    );
  });
});

describe('stopping and cancelling placed calls (ARCHITECTURE cancellation)', () => {
  it('cancels a call running on a worker when the run is stopped: the command there ends', async () => {
    const { server, shell } = shared;
    const pidFile = path.join(tempDir(), 'pid');
    const id = await startRun(
      server,
      placedFlow('sleeper', {
        type: 'PROCESS_EXECUTOR',
        config: {
          command: 'sh',
          args: ['-c', `echo $$ > ${pidFile}; exec sleep 30`],
          engine: { placement: 'shell' },
        },
      }),
    );
    await eventually(
      () => Promise.resolve(existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== ''),
      (written) => written,
    );
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    const busy = await ranCallOf(shell, id);
    await eventually(
      () => Promise.resolve(lastCounts(busy).runningCalls),
      (running) => running === 1,
    );
    const stop = await server.call('POST', `/api/executions/${id}/stop`);
    expect(stop.status).toBe(200);
    expect((await endOf(server, id)).status).toBe('STOPPED');
    await eventually(
      () => Promise.resolve(isRunning(pid)),
      (alive) => !alive,
    );
    await eventually(
      () => Promise.resolve(lastCounts(busy)),
      (left) => left.openNodes + left.runningCalls === 0,
    );
  });

  it('fails a message retryably when its worker leaves during the call, and the next attempt runs on another worker', async () => {
    const { server, shell } = shared;
    const marker = path.join(tempDir(), 'started');
    const id = await startRun(
      server,
      placedFlow('moves', {
        type: 'PROCESS_EXECUTOR',
        config: {
          command: 'sh',
          // The first attempt hangs; the second finds the marker and ends at once.
          args: [
            '-c',
            `if [ -e ${marker} ]; then echo second; else touch ${marker}; exec sleep 30; fi`,
          ],
          engine: { placement: 'shell', retry: { maxAttempts: 3, backoffMs: 50 } },
        },
      }),
    );
    await eventually(
      () => Promise.resolve(existsSync(marker)),
      (started) => started,
    );
    // Both workers of the pool are connected: the one running the call leaves, with a stop
    // signal, and the other is there for the next attempt.
    const first = await ranCallOf(shell, id);
    expect(await first.stop()).toBe(0);
    const record = await endOf(server, id);
    expect(record.status, JSON.stringify(record)).toBe('COMPLETED');
    expect(record.nodes.placed.retries).toBe(1);
    const results = await server.call('GET', `/api/executions/${id}/results`);
    expect(results.json.data[0].payload.stdout).toBe('second\n');
  });
});

describe('worker connections (SPEC Workflow-author safeguards: remote workers)', () => {
  it('refuses a worker whose token is wrong, and does not list it', async () => {
    const server = await controlPlane();
    const intruder = await worker(server, {
      token: 'not-the-token',
      argv: ['--svc.workers.plugin-types=MAPPER'],
      connected: false,
    });
    expect(await intruder.exited).toBe(1);
    expect(intruder.output()).toContain(
      'Start-up failed: The control plane refused this worker: The worker token is wrong',
    );
    expect(intruder.logLines()).toContainEqual(
      expect.objectContaining({
        reason: 'token',
        msg: 'The control plane refused this worker: The worker token is wrong',
      }),
    );
    const workers = await server.call('GET', '/api/workers');
    expect(workers.json.data).toEqual({ accepting: true, workers: [], pools: [] });
  });

  it('shows connected workers, pools and free slots in GET /api/workers and in the svc.workers and svc.worker.slots gauges (CONTRACT 4, SPEC Meters)', async () => {
    const server = await controlPlane();
    expect(await meter(server, 'svc.workers')).toBe(0);
    expect(await meter(server, 'svc.worker.slots')).toBe(0);
    const [, beta] = await Promise.all([
      worker(server, {
        argv: [
          '--svc.workers.name=alpha',
          '--svc.workers.pool=gpu',
          '--svc.workers.slots=2',
          '--svc.workers.plugin-types=PROCESS_EXECUTOR,MAPPER',
          '--svc.process.allow-any=true',
        ],
      }),
      worker(server, {
        argv: [
          '--svc.workers.name=beta',
          '--svc.workers.slots=3',
          '--svc.workers.plugin-types=MAPPER',
        ],
      }),
    ]);
    const answer = await server.call('GET', '/api/workers');
    expect(answer.status).toBe(200);
    expect(answer.json.data.accepting).toBe(true);
    // Listed in the order they connected: both started at once, so by name here.
    const byName = [...answer.json.data.workers].sort((a: { name: string }, b: { name: string }) =>
      a.name.localeCompare(b.name),
    );
    expect(byName).toEqual([
      expect.objectContaining({
        name: 'alpha',
        pool: 'gpu',
        pluginTypes: ['MAPPER', 'PROCESS_EXECUTOR'],
        slots: 2,
        freeSlots: 2,
        secure: false,
      }),
      expect.objectContaining({
        workerId: beta.workerId(),
        name: 'beta',
        pool: 'default',
        pluginTypes: ['MAPPER'],
        slots: 3,
        freeSlots: 3,
      }),
    ]);
    expect(answer.json.data.pools).toEqual([
      { pool: 'default', workers: 1, slots: 3, freeSlots: 3, pluginTypes: ['MAPPER'] },
      {
        pool: 'gpu',
        workers: 1,
        slots: 2,
        freeSlots: 2,
        pluginTypes: ['MAPPER', 'PROCESS_EXECUTOR'],
      },
    ]);
    expect(await meter(server, 'svc.workers')).toBe(2);
    expect(await meter(server, 'svc.worker.slots')).toBe(5);

    // A placed node holds a slot while it runs.
    const id = await startRun(
      server,
      placedFlow('holds', {
        type: 'PROCESS_EXECUTOR',
        config: { command: 'sleep', args: ['30'], engine: { placement: 'gpu' } },
      }),
    );
    await eventually(
      () => meter(server, 'svc.worker.slots'),
      (free) => free === 4,
    );
    await server.call('POST', `/api/executions/${id}/stop`);
    await eventually(
      () => meter(server, 'svc.worker.slots'),
      (free) => free === 5,
    );
    await beta.stop();
    await eventually(
      () => meter(server, 'svc.workers'),
      (connected) => connected === 1,
    );
    expect(await meter(server, 'svc.worker.slots')).toBe(2);
  });

  it('refuses GET /api/workers to a session-limited key with 403 (SPEC Roles)', async () => {
    const server = await controlPlane({
      env: {
        SVC_API_KEYS_0_KEY: 'limited-key',
        SVC_API_KEYS_0_ROLE: 'ADMIN',
        SVC_API_KEYS_0_SESSIONS: 's',
        SVC_API_KEYS_1_KEY: 'viewer-key',
      },
    });
    const limited = await server.call('GET', '/api/workers', {
      headers: { authorization: 'Bearer limited-key' },
    });
    expect(limited.status).toBe(403);
    const viewer = await server.call('GET', '/api/workers', {
      headers: { authorization: 'Bearer viewer-key' },
    });
    expect(viewer.status).toBe(200);
  });
});

describe('logs of placed nodes (SPEC Log line losses)', () => {
  it("keeps log lines a plugin writes on a worker out of the execution's log stream and writes them in the worker's own log", async () => {
    const { server, gpu: logging } = shared;
    const id = await startRun(
      server,
      placedFlow('logs', nodeScript('console.log("line from the worker")')),
    );
    expect((await endOf(server, id)).status).toBe('COMPLETED');
    const logs = await server.call('GET', `/api/executions/${id}/logs?nodeId=placed`);
    expect(JSON.stringify(logs.json.data)).not.toContain('line from the worker');
    await untilLogged(logging, (line) => line.msg === 'line from the worker');
    expect(logging.logLines()).toContainEqual(
      expect.objectContaining({
        msg: 'line from the worker',
        executionId: id,
        nodeId: 'placed',
        type: 'PROCESS_EXECUTOR',
        stream: 'stdout',
      }),
    );
  });
});
