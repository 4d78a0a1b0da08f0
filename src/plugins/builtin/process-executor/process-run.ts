// One child process of PROCESS_EXECUTOR: started without a shell unless asked, its output
// captured up to a cap, and ended together with everything it started.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ProcessRunOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly shell: boolean;
  readonly cwd: string | undefined;
  /** The child's whole environment: nothing of the server's is added. */
  readonly env: Readonly<Record<string, string>>;
  /** Written to the standard input, which then closes; absent: the input is empty. */
  readonly stdin: string | undefined;
  /** Most bytes kept of stdout and of stderr each; the rest is read and counted. */
  readonly maxOutputBytes: number;
  /** How long `terminate` waits after SIGTERM before SIGKILL. */
  readonly killGraceMs: number;
}

export type ProcessOutcome =
  | {
      readonly kind: 'exited';
      /** `null` when a signal ended the process. */
      readonly exitCode: number | null;
      readonly signal: NodeJS.Signals | null;
      readonly stdout: string;
      readonly stderr: string;
    }
  | { readonly kind: 'not-started'; readonly code: string; readonly path: string | undefined };

/** On POSIX the child leads its own process group, so ending it reaches its children too. */
const OWN_GROUP = process.platform !== 'win32';
const GROUP_POLL_MS = 20;

export class ProcessRun {
  /** Settles once: with the exit and all output, or with why the process did not start. */
  readonly done: Promise<ProcessOutcome>;
  readonly #child: ChildProcess;
  readonly #killGraceMs: number;
  readonly #exited: Promise<void>;
  #terminating: Promise<void> | undefined;

  /** Throws when Node refuses the arguments before any process starts (e.g. a NUL byte). */
  constructor(options: ProcessRunOptions) {
    this.#killGraceMs = options.killGraceMs;
    const child = spawn(options.command, [...options.args], {
      cwd: options.cwd,
      env: options.env,
      shell: options.shell,
      stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      detached: OWN_GROUP,
      windowsHide: true,
    });
    this.#child = child;
    const stdout = new CappedOutput(options.maxOutputBytes);
    const stderr = new CappedOutput(options.maxOutputBytes);
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout.push(chunk);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr.push(chunk);
    });
    if (child.stdin && options.stdin !== undefined) {
      // A command that exits without reading its input makes the write fail with EPIPE;
      // that is the command's choice, not a failure of the run.
      child.stdin.on('error', () => undefined);
      child.stdin.end(options.stdin, 'utf8');
    }
    this.#exited = new Promise((resolve) => {
      child.once('exit', () => {
        resolve();
      });
    });
    this.done = new Promise((resolve) => {
      child.once('error', (error: NodeJS.ErrnoException) => {
        // After a start, 'error' only reports a failed kill; 'exit' and 'close' still follow.
        if (child.pid !== undefined) return;
        resolve({ kind: 'not-started', code: error.code ?? 'UNKNOWN', path: error.path });
      });
      // 'close' comes after the exit and the end of both output pipes, so no output is lost.
      child.once('close', (exitCode: number | null, signal: NodeJS.Signals | null) => {
        resolve({
          kind: 'exited',
          exitCode,
          signal,
          stdout: stdout.text(),
          stderr: stderr.text(),
        });
      });
    });
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  /**
   * Ends the process and whatever it started: SIGTERM to its group, SIGKILL once the grace
   * period passes while any member is left. Resolves when the process has exited and its
   * pipes are released, so nothing it holds outlives the node.
   */
  terminate(): Promise<void> {
    this.#terminating ??= this.#terminate();
    return this.#terminating;
  }

  async #terminate(): Promise<void> {
    if (this.#child.pid === undefined) return;
    try {
      if (!this.#signal('SIGTERM')) return;
      // Liveness of a group has no event to wait on, so it is polled until the grace is over.
      // The leader may be gone while a child of it that ignores SIGTERM lives on.
      const deadline = Date.now() + this.#killGraceMs;
      while (this.#groupAlive() && Date.now() < deadline) await sleep(GROUP_POLL_MS);
      if (this.#groupAlive()) this.#signal('SIGKILL');
      await this.#exited;
    } finally {
      // A grandchild that left the group could hold the pipes open; 'close' must not wait.
      this.#releasePipes();
    }
  }

  /** Signals the process group (or the process alone); false when nothing is left to signal. */
  #signal(signal: NodeJS.Signals | 0): boolean {
    const pid = this.#child.pid;
    if (pid === undefined) return false;
    try {
      if (OWN_GROUP) process.kill(-pid, signal);
      else return this.#child.kill(signal);
      return true;
    } catch {
      return false;
    }
  }

  #groupAlive(): boolean {
    if (!OWN_GROUP) return this.#child.exitCode === null && this.#child.signalCode === null;
    // Signal 0 only asks whether any member of the group is left.
    return this.#signal(0);
  }

  #releasePipes(): void {
    this.#child.stdin?.destroy();
    this.#child.stdout?.destroy();
    this.#child.stderr?.destroy();
  }
}

/** Keeps the first `max` bytes of a stream and counts the rest, which is read and dropped. */
class CappedOutput {
  readonly #max: number;
  readonly #chunks: Buffer[] = [];
  #kept = 0;
  #dropped = 0;

  constructor(max: number) {
    this.#max = max;
  }

  push(chunk: Buffer): void {
    const room = this.#max - this.#kept;
    if (room >= chunk.length) {
      this.#chunks.push(chunk);
      this.#kept += chunk.length;
      return;
    }
    if (room > 0) {
      this.#chunks.push(chunk.subarray(0, room));
      this.#kept += room;
    }
    this.#dropped += chunk.length - Math.max(room, 0);
  }

  text(): string {
    const bytes = Buffer.concat(this.#chunks, this.#kept);
    if (this.#dropped === 0) return bytes.toString('utf8');
    // Without end(), the decoder drops a character the cut split in two rather than
    // showing a replacement character.
    const kept = new StringDecoder('utf8').write(bytes);
    return `${kept}\n[truncated: ${this.#dropped} more bytes]`;
  }
}
