// Runs the server as its own process (from the TypeScript sources, through npm or as a binary)
// and other commands of the project.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface ServerProcess {
  readonly child: ChildProcess;
  readonly baseUrl: string;
  readonly port: number;
  output(): string;
  /** Resolves with the exit code once the process has ended. */
  exited(): Promise<number | null>;
  /** Ends the process (its whole group when started detached) and waits for it. */
  stop(): Promise<void>;
}

export interface ProcessResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The environment of this process without the server's own settings (`SVC_*`), plus `env`. */
export function cleanEnvironment(env: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('SVC_')),
  );
  return { ...clean, ...env };
}

export interface CommandOptions {
  readonly cwd?: string;
  /** Settings for the command, on top of the environment without `SVC_*`. */
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
  /** Runs the command in a process group of its own, which `stop` ends as a whole. */
  readonly detached?: boolean;
}

function spawnCommand(
  command: string,
  args: readonly string[],
  options: CommandOptions,
): ChildProcess {
  return spawn(command, args, {
    cwd: options.cwd ?? root,
    env: cleanEnvironment(options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached ?? false,
  });
}

/**
 * Starts a command that runs a server (the sources, `npm start`, a binary) and waits for the
 * line that names its address and port.
 */
export function startListening(
  command: string,
  args: readonly string[],
  options: CommandOptions = {},
): Promise<ServerProcess> {
  const child = spawnCommand(command, args, options);
  let output = '';
  // The exit of a process comes before the last of what it printed has been read: the exit is
  // answered once its output has ended too (or after a second, should a child it started keep
  // the pipes open).
  const ended = (stream: NodeJS.ReadableStream | null): Promise<void> =>
    stream === null
      ? Promise.resolve()
      : new Promise((resolve) => {
          stream.once('end', resolve);
          stream.once('close', resolve);
        });
  const outputEnded = Promise.all([ended(child.stdout), ended(child.stderr)]);
  const exit = new Promise<number | null>((resolve) => {
    child.on('exit', (code) => {
      const bound = setTimeout(() => {
        resolve(code);
      }, 1_000);
      void outputEnded.then(() => {
        clearTimeout(bound);
        resolve(code);
      });
    });
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start in time:\n${output}`));
    }, options.timeoutMs ?? 15_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /Listening on http:\/\/([^:\s"]+):(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        const port = Number(match[2]);
        resolve({
          child,
          port,
          baseUrl: `http://127.0.0.1:${port}`,
          output: () => output,
          exited: () => exit,
          stop: async () => {
            if (child.exitCode !== null || child.signalCode !== null) return;
            if (options.detached === true && child.pid !== undefined) {
              process.kill(-child.pid, 'SIGTERM');
            } else {
              child.kill('SIGTERM');
            }
            await exit;
          },
        });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exit.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
}

/** Runs a command to its end (killed after `timeoutMs`), collecting what it prints. */
export function runToExit(
  command: string,
  args: readonly string[],
  options: CommandOptions = {},
): Promise<ProcessResult> {
  const child = spawnCommand(command, args, options);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 15_000);
    child.once('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const SOURCES = ['--import', 'tsx', join(root, 'src/main.ts')];

/** Starts a server on a free port and waits for the line that names its address and port. */
export function startServerProcess(
  args: readonly string[] = [],
  env: Readonly<Record<string, string>> = {},
  timeoutMs = 15_000,
): Promise<ServerProcess> {
  return startListening(process.execPath, [...SOURCES, '--svc.server.port=0', ...args], {
    env,
    timeoutMs,
  });
}

/** Runs the server expecting it to stop by itself (a refused start-up). */
export function runServerToExit(
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
  timeoutMs = 15_000,
): Promise<ProcessResult> {
  return runToExit(process.execPath, [...SOURCES, ...args], { env, timeoutMs });
}

/** Whether a process of this id is still running. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The status and parsed body of one API call. */
export interface Answer {
  readonly status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers of the API
  readonly json: any;
}

/** One JSON call of the API of a server process. */
export async function http(
  server: ServerProcess,
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  const text = await response.text();
  return { status: response.status, json: text === '' ? null : JSON.parse(text) };
}
