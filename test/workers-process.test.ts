// The worker role as its own process, the way `npm start -- --svc.workers.role=worker` runs it
// (SPEC Build-time choices: svc.workers=true; docs/workers.md "The worker process").
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import net from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runServerToExit } from './support/process.js';
import type { TestServer } from './support/server.js';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { endOf, eventually } from './support/wait.js';
import {
  TOKEN,
  meter,
  placedFlow,
  startControlPlane,
  startRun,
  startWorker,
} from './support/workers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
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

/** Starts `src/main.ts` in the worker role; resolves once it is connected. */
function startWorkerProcess(
  args: readonly string[],
  env: Readonly<Record<string, string>>,
): Promise<{ child: ChildProcess; exited: Promise<number | null> }> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('SVC_')),
  );
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/main.ts'), ...args], {
    cwd: root,
    env: { ...clean, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the worker did not connect in time:\n${output}`));
    }, 20_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes('Connected to the control plane')) {
        clearTimeout(timer);
        resolve({ child, exited });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the worker exited with ${code}:\n${output}`));
    });
  });
}

async function controlPlane(argv: readonly string[] = []): Promise<TestServer> {
  const server = await startControlPlane({ argv });
  closers.push(() => server.close());
  return server;
}

/** A worker process running PROCESS_EXECUTOR with any command, killed after the test. */
async function processWorker(server: TestServer, argv: readonly string[] = []) {
  const started = await startWorkerProcess(
    [
      '--svc.workers.role=worker',
      `--svc.workers.connect=127.0.0.1:${server.workers?.port ?? 0}`,
      '--svc.workers.plugin-types=PROCESS_EXECUTOR',
      '--svc.process.allow-any=true',
      ...argv,
    ],
    { SVC_WORKERS: 'true', SVC_WORKERS_TOKEN: TOKEN },
  );
  closers.push(async () => {
    started.child.kill('SIGCONT');
    started.child.kill('SIGKILL');
    await started.exited;
  });
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

describe('the worker process (svc.workers.role=worker)', () => {
  it('connects to its control plane, runs placed nodes, serves no HTTP and ends with 0 on a stop signal', async () => {
    const server = await controlPlane();
    const httpPort = await freePort();
    const { child, exited } = await startWorkerProcess(
      [
        '--svc.workers.role=worker',
        `--svc.workers.connect=127.0.0.1:${server.workers?.port ?? 0}`,
        '--svc.workers.plugin-types=MAPPER',
        `--svc.server.port=${httpPort}`,
      ],
      { SVC_WORKERS: 'true', SVC_WORKERS_TOKEN: TOKEN, SVC_VAR_WHERE: 'a worker process' },
    );
    closers.push(async () => {
      child.kill('SIGKILL');
      await exited;
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
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('exits with 1 and says why when the control plane refuses its token', async () => {
    const server = await controlPlane();
    const result = await runServerToExit(
      [
        '--svc.workers.role=worker',
        `--svc.workers.connect=127.0.0.1:${server.workers?.port ?? 0}`,
        '--svc.workers.plugin-types=MAPPER',
      ],
      { SVC_WORKERS: 'true', SVC_WORKERS_TOKEN: 'a-wrong-token' },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'Start-up failed: The control plane refused this worker: The worker token is wrong',
    );
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
    const first = await processWorker(server);
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
    const other = await startWorker(server, {
      argv: ['--svc.workers.plugin-types=PROCESS_EXECUTOR', '--svc.process.allow-any=true'],
    });
    closers.push(() => other.close());
    first.child.kill('SIGKILL');
    const record = await endOf(server, retried);
    expect(record.status, JSON.stringify(record)).toBe('COMPLETED');
    expect(record.nodes.placed.retries).toBe(1);
    const results = await server.call('GET', `/api/executions/${retried}/results`);
    expect(results.json.data[0].payload.stdout).toBe('second\n');
    await other.close();

    const second = await processWorker(server, ['--svc.workers.name=doomed']);
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
    second.child.kill('SIGKILL');
    expect((await endOf(server, caught)).status).toBe('COMPLETED');
    const caughtResults = await server.call('GET', `/api/executions/${caught}/results`);
    expect(JSON.stringify(caughtResults.json.data[0].payload)).toMatch(
      /Worker 'doomed' left while processing the message: /,
    );
  });

  it('drops a worker whose process stops answering gRPC keepalive pings', async () => {
    const server = await controlPlane(['--svc.workers.heartbeat=200ms']);
    const frozen = await processWorker(server, ['--svc.workers.heartbeat=200ms']);
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
