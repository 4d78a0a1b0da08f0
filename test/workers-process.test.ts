// The worker role as its own process, the way `npm start -- --svc.workers.role=worker` runs it
// (SPEC Build-time choices: svc.workers=true; docs/workers.md "The worker process").
import net from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runServerToExit } from './support/process.js';
import type { TestServer } from './support/server.js';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { endOf, eventually } from './support/wait.js';
import { TOKEN, meter, placedFlow, startControlPlane, startRun } from './support/workers.js';
import { startWorkerProcess } from './support/worker-process.js';
import type { WorkerProcessOptions } from './support/worker-process.js';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function controlPlane(argv: readonly string[] = []): Promise<TestServer> {
  const server = await startControlPlane({ argv });
  closers.push(() => server.close());
  return server;
}

/** A worker process (PROCESS_EXECUTOR with any command by default), killed after the test. */
async function worker(server: TestServer, options: WorkerProcessOptions = {}) {
  const started = await startWorkerProcess(server, {
    ...options,
    argv: options.argv ?? [
      '--svc.workers.plugin-types=PROCESS_EXECUTOR',
      '--svc.process.allow-any=true',
    ],
  });
  closers.push(() => started.kill());
  return started;
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-worker-process-'));
  closers.push(() => {
    rmSync(dir, { recursive: true, force: true });
    return Promise.resolve();
  });
  return dir;
}

/** A command that hangs the first time (leaving `marker`) and prints `second` after. */
function hangsOnce(marker: string): readonly string[] {
  return ['-c', `if [ -e ${marker} ]; then echo second; else touch ${marker}; exec sleep 30; fi`];
}

describe('the worker process (svc.workers.role=worker)', { timeout: 180_000 }, () => {
  it('connects to its control plane, runs placed nodes, serves no HTTP and ends with 0 on a stop signal', async () => {
    const server = await controlPlane();
    const httpPort = await freePort();
    const started = await worker(server, {
      argv: ['--svc.workers.plugin-types=MAPPER', `--svc.server.port=${httpPort}`],
      env: { SVC_VAR_WHERE: 'a worker process' },
    });
    const id = await startRun(
      server,
      placedFlow('process', {
        type: 'MAPPER',
        config: {
          mode: 'TEMPLATE',
          template: 'from ${env.SVC_VAR_WHERE}',
          engine: { placement: 'default' },
        },
      }),
    );
    expect((await endOf(server, id)).status).toBe('COMPLETED');
    const results = await server.call('GET', `/api/executions/${id}/results`);
    expect(results.json.data[0].payload).toBe('from a worker process');
    await expect(fetch(`http://127.0.0.1:${httpPort}/actuator/health`)).rejects.toThrow();
    expect(await started.stop()).toBe(0);
  });

  it('refuses to start as a worker in a build without remote workers', async () => {
    const result = await runServerToExit(
      [
        '--svc.workers.role=worker',
        '--svc.workers.connect=127.0.0.1:1',
        '--svc.workers.plugin-types=MAPPER',
      ],
      { SVC_WORKERS_TOKEN: TOKEN },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'svc.workers.role=worker needs a build with remote workers (npm run build -- --svc.workers=true)',
    );
  });

  it('fails the attempt of a worker killed mid-node: engine.retry runs it again on another worker, and without retry onError applies', async () => {
    const server = await controlPlane();
    const dir = tempDir();
    const first = await worker(server);
    const retried = await startRun(
      server,
      placedFlow('killed', {
        type: 'PROCESS_EXECUTOR',
        config: {
          command: 'sh',
          args: hangsOnce(join(dir, 'retried')),
          engine: { placement: 'default', retry: { maxAttempts: 3, backoffMs: 50 } },
        },
      }),
    );
    await eventually(
      () => Promise.resolve(existsSync(join(dir, 'retried'))),
      (started) => started,
    );
    const other = await worker(server);
    await first.kill();
    const record = await endOf(server, retried);
    expect(record.status, JSON.stringify(record)).toBe('COMPLETED');
    expect(record.nodes.placed.retries).toBe(1);
    const results = await server.call('GET', `/api/executions/${retried}/results`);
    expect(results.json.data[0].payload.stdout).toBe('second\n');
    await other.stop();

    const second = await worker(server, {
      argv: [
        '--svc.workers.plugin-types=PROCESS_EXECUTOR',
        '--svc.process.allow-any=true',
        '--svc.workers.name=doomed',
      ],
    });
    const caughtFlow = {
      ...placedFlow('caught', {
        type: 'PROCESS_EXECUTOR',
        config: {
          command: 'sh',
          args: hangsOnce(join(dir, 'caught')),
          onError: 'ERROR_PORT',
          engine: { placement: 'default' },
        },
      }),
      edges: [
        { source: 'in', target: 'placed' },
        { source: 'placed', target: 'out', sourcePort: 'error' },
      ],
    };
    const caught = await startRun(server, caughtFlow);
    await eventually(
      () => Promise.resolve(existsSync(join(dir, 'caught'))),
      (started) => started,
    );
    await second.kill();
    expect((await endOf(server, caught)).status).toBe('COMPLETED');
    const caughtResults = await server.call('GET', `/api/executions/${caught}/results`);
    expect(JSON.stringify(caughtResults.json.data[0].payload)).toMatch(
      /Worker 'doomed' left while processing the message: /,
    );
  });

  it('drops a worker whose process stops answering gRPC keepalive pings', async () => {
    const server = await controlPlane(['--svc.workers.heartbeat=200ms']);
    const frozen = await worker(server, {
      argv: [
        '--svc.workers.plugin-types=PROCESS_EXECUTOR',
        '--svc.process.allow-any=true',
        '--svc.workers.heartbeat=200ms',
      ],
    });
    expect(await meter(server, 'svc.workers')).toBe(1);
    frozen.child.kill('SIGSTOP');
    await eventually(
      () => meter(server, 'svc.workers'),
      (connected) => connected === 0,
    );
    const workers = await server.call('GET', '/api/workers');
    expect(workers.json.data.workers).toEqual([]);
  });
});
