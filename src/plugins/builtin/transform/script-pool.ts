// The worker threads that run MAPPER scripts, so that a script never holds the server's event
// loop (SPEC Workflow-author safeguards). Each node and run is pinned to one worker, where its
// sandbox keeps the compiled script and its globals between messages. The limits are enforced
// inside the worker; a worker that does not answer within its time limit and a grace, or one
// that goes on after its run was stopped, is terminated and replaced.
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { StepFailure } from '../../../plugin-api/index.js';
import type {
  ConsoleLine,
  FailureCause,
  RunRequest,
  ScriptLimits,
  WorkerAnswer,
  WorkerRequest,
  WorkerSetup,
} from './script-protocol.js';

/** What a worker is given beyond a script's time limit before it is terminated. */
const GRACE_MS = 1000;
/** The longest timer Node honours; a longer one would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The worker's file. From the sources (tests, tsx) it is the TypeScript file, which Node strips
 * of its types; from the build, the compiled one beside this file; in the native binary, the
 * bundle of it with QuickJS that the binary carries, as it carries no node_modules.
 */
function workerEntry(): URL {
  if (import.meta.url.endsWith('.ts')) return new URL('./script-worker.ts', import.meta.url);
  const bundled = new URL('./script-worker.cjs', import.meta.url);
  return existsSync(bundled) ? bundled : new URL('./script-worker.js', import.meta.url);
}

export interface ScriptPoolOptions {
  /** Worker threads at most; each starts when a script first needs it. */
  readonly workers: number;
  /** Sandboxes a worker keeps; beyond it the one used least recently goes. */
  readonly sandboxesPerWorker?: number;
}

/** One node and run: its sandbox, and the worker it is pinned to. */
export interface ScriptHandle {
  readonly sandbox: number;
  readonly slot: number;
}

/** One message for a script. */
export interface ScriptJob {
  readonly script: string;
  /** `{ payload, message }` as JSON. */
  readonly input: string;
  readonly limits: ScriptLimits;
  /** Aborted when the run is stopped or the node times out: the script is given up. */
  readonly signal: AbortSignal;
  /** Takes the console lines of the run, before its result or failure is answered. */
  readonly log: (lines: readonly ConsoleLine[]) => void;
}

interface Task {
  readonly request: Omit<RunRequest, 'task'>;
  readonly job: ScriptJob;
  /** Takes the script's result as JSON. */
  resolve(output: string): void;
  reject(error: Error): void;
  /** Set once the caller has its answer; a late answer of the worker is then ignored. */
  settled: boolean;
  onAbort?: () => void;
}

interface Slot {
  worker: Worker | undefined;
  ready: boolean;
  abort: Int32Array;
  tasks: number;
  /** Handles pinned to the slot: a new one goes to the slot with the fewest. */
  pinned: number;
  readonly queue: Task[];
  current: { readonly task: Task; readonly id: number } | undefined;
  guard: NodeJS.Timeout | undefined;
}

export class ScriptPool {
  readonly #slots: Slot[];
  readonly #sandboxesPerWorker: number;
  #entry: URL | undefined;
  #nextSandbox = 1;
  #started = 0;
  #closed = false;

  constructor(options: ScriptPoolOptions) {
    this.#sandboxesPerWorker = options.sandboxesPerWorker ?? 16;
    this.#slots = Array.from({ length: options.workers }, () => ({
      worker: undefined,
      ready: false,
      abort: new Int32Array(0),
      tasks: 0,
      pinned: 0,
      queue: [],
      current: undefined,
      guard: undefined,
    }));
  }

  /** Worker threads running now. */
  get running(): number {
    return this.#slots.filter((slot) => slot.worker !== undefined).length;
  }

  /** Worker threads started so far, replacements included. */
  get started(): number {
    return this.#started;
  }

  /** Whether a worker is running a script, or still finishing one it was told to give up. */
  get busy(): boolean {
    return this.#slots.some((slot) => slot.current !== undefined);
  }

  /** A sandbox for one node and run, on the worker that has the fewest. */
  open(): ScriptHandle {
    let slot = 0;
    this.#slots.forEach((candidate, index) => {
      if (candidate.pinned < (this.#slots[slot]?.pinned ?? 0)) slot = index;
    });
    const chosen = this.#slots[slot];
    if (chosen !== undefined) chosen.pinned++;
    return { sandbox: this.#nextSandbox++, slot };
  }

  /** Frees the sandbox of a node that ended. */
  release(handle: ScriptHandle): void {
    const slot = this.#slotOf(handle);
    slot.pinned--;
    this.#post(slot, { kind: 'drop', sandbox: handle.sandbox });
  }

  /**
   * Runs one message through the handle's sandbox; answers the result as JSON. A script that
   * fails or meets a limit rejects with a non-retryable StepFailure.
   */
  run(handle: ScriptHandle, job: ScriptJob): Promise<string> {
    if (this.#closed) return Promise.reject(StepFailure.retryable('Scripts are stopping'));
    if (job.signal.aborted) return Promise.reject(stopReason(job.signal));
    const slot = this.#slotOf(handle);
    const { script, input, limits } = job;
    return new Promise<string>((resolve, reject) => {
      const task: Task = {
        request: { kind: 'run', sandbox: handle.sandbox, script, input, limits },
        job,
        resolve,
        reject,
        settled: false,
      };
      task.onAbort = () => {
        this.#abandon(slot, task);
      };
      job.signal.addEventListener('abort', task.onAbort, { once: true });
      slot.queue.push(task);
      this.#pump(slot);
    });
  }

  /** Ends every worker; runs under way or waiting fail, and later ones are refused. */
  async close(): Promise<void> {
    this.#closed = true;
    const ending = this.#slots.map((slot) => {
      const failure = StepFailure.retryable('Scripts are stopping');
      for (const task of slot.queue.splice(0)) fail(task, failure);
      return this.#stopWorker(slot, failure);
    });
    await Promise.all(ending);
  }

  #slotOf(handle: ScriptHandle): Slot {
    const slot = this.#slots[handle.slot];
    if (slot === undefined) throw new Error(`No script worker ${handle.slot}`);
    return slot;
  }

  #post(slot: Slot, request: WorkerRequest): void {
    slot.worker?.postMessage(request);
  }

  /** Hands the next waiting task to the slot's worker once it is idle and ready. */
  #pump(slot: Slot): void {
    if (slot.current !== undefined || slot.queue.length === 0 || this.#closed) return;
    if (slot.worker === undefined) {
      this.#startWorker(slot);
      return;
    }
    if (!slot.ready) return;
    const task = slot.queue.shift();
    if (task === undefined) return;
    const id = ++slot.tasks;
    slot.current = { task, id };
    const { timeoutMs } = task.request.limits;
    this.#guard(slot, timeoutMs + GRACE_MS, () => failure('timeout', '', task.request.limits));
    this.#post(slot, { ...task.request, task: id });
  }

  #startWorker(slot: Slot): void {
    const abort = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
    const setup: WorkerSetup = { abort, maxSandboxes: this.#sandboxesPerWorker };
    this.#entry ??= workerEntry();
    const worker = new Worker(this.#entry, { workerData: setup });
    // A pool left open (a test, a tool) never keeps the process alive.
    worker.unref();
    this.#started++;
    slot.worker = worker;
    slot.ready = false;
    slot.abort = new Int32Array(abort);
    slot.tasks = 0;
    worker.on('message', (answer: WorkerAnswer) => {
      if (slot.worker === worker) this.#receive(slot, answer);
    });
    const lost = (reason: string) => {
      if (slot.worker !== worker) return;
      const stopped = StepFailure.nonRetryable(`Script worker stopped: ${reason}`);
      // A worker that cannot start fails what waits for it rather than starting again forever.
      if (!slot.ready) for (const task of slot.queue.splice(0)) fail(task, stopped);
      this.#replace(slot, stopped);
    };
    worker.on('error', (error: Error) => {
      lost(error.message);
    });
    worker.on('exit', (code) => {
      lost(`exit code ${code}`);
    });
  }

  #receive(slot: Slot, answer: WorkerAnswer): void {
    if (answer.kind === 'ready') {
      slot.ready = true;
      this.#pump(slot);
      return;
    }
    const current = slot.current;
    if (current?.id !== answer.task) return;
    clearTimeout(slot.guard);
    slot.current = undefined;
    const { task } = current;
    if (!task.settled) task.job.log(answer.logs);
    if (answer.kind === 'done') succeed(task, answer.output);
    else fail(task, failure(answer.cause, answer.detail, task.request.limits));
    if (answer.retire) this.#replace(slot, undefined);
    else this.#pump(slot);
  }

  /** The run was stopped: the caller is answered at once, the script stopped within a grace. */
  #abandon(slot: Slot, task: Task): void {
    const reason = stopReason(task.job.signal);
    const waiting = slot.queue.indexOf(task);
    if (waiting >= 0) slot.queue.splice(waiting, 1);
    fail(task, reason);
    const current = slot.current;
    if (current?.task !== task) return;
    Atomics.store(slot.abort, 0, current.id);
    this.#guard(slot, GRACE_MS, () => reason);
  }

  /** Past `ms`, the worker is terminated and the task it runs fails as `failure()` says. */
  #guard(slot: Slot, ms: number, failure: () => Error): void {
    clearTimeout(slot.guard);
    slot.guard = setTimeout(
      () => {
        this.#replace(slot, failure());
      },
      Math.min(ms, MAX_TIMER_MS),
    );
  }

  /** Ends the slot's worker, then hands what waits to a new one. */
  #replace(slot: Slot, failure: Error | undefined): void {
    void this.#stopWorker(slot, failure).then(() => {
      this.#pump(slot);
    });
  }

  /** Terminates the slot's worker; its sandboxes go with it, and the next run starts another. */
  async #stopWorker(slot: Slot, failure: Error | undefined): Promise<void> {
    clearTimeout(slot.guard);
    const { worker, current } = slot;
    slot.worker = undefined;
    slot.ready = false;
    slot.current = undefined;
    if (current !== undefined && failure !== undefined) fail(current.task, failure);
    await worker?.terminate();
  }
}

/** Answers the caller, once; true the first time. */
function settle(task: Task): boolean {
  if (task.settled) return false;
  task.settled = true;
  if (task.onAbort !== undefined) task.job.signal.removeEventListener('abort', task.onAbort);
  return true;
}

function succeed(task: Task, output: string): void {
  if (settle(task)) task.resolve(output);
}

function fail(task: Task, error: Error): void {
  if (settle(task)) task.reject(error);
}

/** A failed run's message; a limit is named by its setting (SPEC Workflow-author safeguards). */
function failure(cause: FailureCause, detail: string, limits: ScriptLimits): StepFailure {
  return StepFailure.nonRetryable(failureMessage(cause, detail, limits));
}

function failureMessage(cause: FailureCause, detail: string, limits: ScriptLimits): string {
  switch (cause) {
    case 'timeout':
      return `Script ran longer than svc.script.timeout-ms (${limits.timeoutMs} ms)`;
    case 'statements':
      return `Script ran more than svc.script.max-statements (${limits.maxStatements}) statements`;
    case 'memory':
      return `Script used more memory than svc.script.max-memory (${limits.maxMemory} bytes)`;
    case 'aborted':
      return 'Script was stopped';
    case 'invalid':
      return `Invalid script: ${detail}`;
    case 'thrown':
      return `Script failed: ${detail}`;
  }
}

/** The stop reason the runtime gave, so a stopped message is not mistaken for a script failure. */
function stopReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : StepFailure.retryable('Script was stopped');
}
