// Workers as their own processes, the way `npm start -- --svc.workers.role=worker` runs them
// (docs/workers.md "The worker process"): the sources or a native binary, with JSON log lines
// read back from what the process prints.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanEnvironment } from './process.js';
import type { TestServer } from './server.js';
import { eventually } from './wait.js';
import { TOKEN } from './workers.js';
import type { WorkerOptions } from './workers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SOURCES = ['--import', 'tsx', join(root, 'src/main.ts')];

export type LogLine = Record<string, unknown>;

export interface WorkerProcess {
  readonly child: ChildProcess;
  /** Resolves with the exit code (null when a signal ended it). */
  readonly exited: Promise<number | null>;
  /** Everything it printed so far. */
  output(): string;
  /** Every JSON line it printed so far, parsed. */
  logLines(): LogLine[];
  /** The id the control plane gave it when it connected, or undefined. */
  workerId(): string | undefined;
  /** A stop signal: the worker lets its calls go and ends. */
  stop(): Promise<number | null>;
  /** Kills it at once (after waking it, were it stopped). */
  kill(): Promise<number | null>;
}

/** What an in-process worker takes, and the program to run. */
export interface WorkerProcessOptions extends WorkerOptions {
  /** The program to run instead of the sources with this Node.js (a native binary). */
  readonly binary?: string;
}

/** What a worker logs once the control plane welcomed it. */
export const CONNECTED = 'Connected to the control plane';

function parsed(output: string): LogLine[] {
  const lines: LogLine[] = [];
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      lines.push(JSON.parse(line) as LogLine);
    } catch {
      // A line still being written; it is read whole next time.
    }
  }
  return lines;
}

/** Starts a worker process with these arguments; resolves once it is running. */
export function spawnWorker(
  args: readonly string[],
  env: Readonly<Record<string, string>>,
  binary?: string,
): WorkerProcess {
  const [command, commandArgs] =
    binary === undefined ? [process.execPath, [...SOURCES, ...args]] : [binary, [...args]];
  const child = spawn(command, commandArgs, {
    cwd: root,
    env: cleanEnvironment(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer): void => {
    output += chunk.toString();
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const ended = (): boolean => child.exitCode !== null || child.signalCode !== null;
  const logLines = (): LogLine[] => parsed(output);
  return {
    child,
    exited,
    output: () => output,
    logLines,
    workerId: () => {
      const connected = logLines().filter((line) => line.msg === CONNECTED);
      return connected.at(-1)?.workerId as string | undefined;
    },
    stop: async () => {
      if (!ended()) child.kill('SIGTERM');
      return exited;
    },
    kill: async () => {
      if (!ended()) {
        child.kill('SIGCONT');
        child.kill('SIGKILL');
      }
      return exited;
    },
  };
}

/**
 * A worker process connected to the control plane of `server`, logging JSON with its nodes and
 * calls (debug lines of the engine logger); resolves once it is connected unless told not to.
 */
export async function startWorkerProcess(
  server: Pick<TestServer, 'workers'>,
  options: WorkerProcessOptions = {},
): Promise<WorkerProcess> {
  const worker = spawnWorker(
    [
      '--svc.workers.role=worker',
      `--svc.workers.connect=${options.host ?? '127.0.0.1'}:${server.workers?.port ?? 0}`,
      '--svc.logging.format=json',
      '--svc.logging.level.engine=DEBUG',
      ...(options.argv ?? []),
    ],
    { SVC_WORKERS: 'true', SVC_WORKERS_TOKEN: options.token ?? TOKEN, ...options.env },
    options.binary,
  );
  if (options.connected === false) return worker;
  try {
    // Generous: a loaded machine takes long to start a process.
    await untilLogged(worker, (line) => line.msg === CONNECTED, 150_000);
  } catch (error) {
    await worker.kill();
    throw new Error(`the worker did not connect:\n${worker.output()}`, { cause: error });
  }
  return worker;
}

/** Waits for a log line of the worker matching `predicate` (failing early if it exits). */
export async function untilLogged(
  worker: WorkerProcess,
  predicate: (line: LogLine) => boolean,
  timeoutMs = 10_000,
): Promise<LogLine> {
  const lines = await eventually(
    () => Promise.resolve(worker.logLines()),
    (logged) =>
      logged.some(predicate) || worker.child.exitCode !== null || worker.child.signalCode !== null,
    timeoutMs,
  );
  const found = lines.find(predicate);
  if (found === undefined) throw new Error(`the worker ended first:\n${worker.output()}`);
  return found;
}

/** What the worker last said was open and running (from its debug lines). */
export function lastCounts(worker: WorkerProcess): { openNodes: number; runningCalls: number } {
  const counted = worker.logLines().filter((line) => typeof line.openNodes === 'number');
  const last = counted.at(-1);
  return {
    openNodes: (last?.openNodes as number | undefined) ?? 0,
    runningCalls: (last?.runningCalls as number | undefined) ?? 0,
  };
}

/** The most calls the worker said it ran at once. */
export function peakCalls(worker: WorkerProcess): number {
  return Math.max(
    0,
    ...worker
      .logLines()
      .filter((line) => line.msg === 'Call started')
      .map((line) => line.runningCalls as number),
  );
}

/** The worker of `pool` that ran a call of execution `executionId`, once it says so. */
export async function ranCallOf(
  pool: readonly WorkerProcess[],
  executionId: string,
): Promise<WorkerProcess> {
  const ran = (each: WorkerProcess): boolean =>
    each.logLines().some((line) => line.msg === 'Call started' && line.executionId === executionId);
  const found = await eventually(
    () => Promise.resolve(pool.find(ran)),
    (worker) => worker !== undefined,
  );
  if (found === undefined) throw new Error(`no worker ran a call of ${executionId}`);
  return found;
}

/** Starts several workers at once; should one fail, the others are killed before it throws. */
export async function startWorkerProcesses(
  server: Pick<TestServer, 'workers'>,
  each: readonly WorkerProcessOptions[],
): Promise<WorkerProcess[]> {
  const settled = await Promise.allSettled(
    each.map((options) => startWorkerProcess(server, options)),
  );
  const started = settled.flatMap((result) =>
    result.status === 'fulfilled' ? [result.value] : [],
  );
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed === undefined) return started;
  await Promise.all(started.map((worker) => worker.kill()));
  throw failed.reason;
}
