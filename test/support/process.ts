// Runs the server as its own process, the way `npm start` does, from the TypeScript sources.
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
}

export interface ProcessResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function spawnServer(args: readonly string[], env: Readonly<Record<string, string>>): ChildProcess {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('SVC_')),
  );
  return spawn(process.execPath, ['--import', 'tsx', join(root, 'src/main.ts'), ...args], {
    cwd: root,
    env: { ...clean, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Starts a server on a free port and waits for the line that names its address and port. */
export function startServerProcess(
  args: readonly string[] = [],
  env: Readonly<Record<string, string>> = {},
  timeoutMs = 15_000,
): Promise<ServerProcess> {
  const child = spawnServer(['--svc.server.port=0', ...args], env);
  let output = '';
  const exit = new Promise<number | null>((resolve) => {
    child.on('exit', (code) => {
      resolve(code);
    });
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start in time:\n${output}`));
    }, timeoutMs);
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

/** Runs the server expecting it to stop by itself (a refused start-up). */
export function runServerToExit(
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
  timeoutMs = 15_000,
): Promise<ProcessResult> {
  const child = spawnServer(args, env);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
