// The durable execution log (`SVC_EXECUTION_LOG_DIR`): one JSON line per event in
// `execution-log.jsonl`. Appends are queued and written with group commit: one write and one
// fsync serve every event queued while the previous batch was on its way to the disk. One
// pump does all the writing, compactions included, so an event appended while the file is
// being replaced always lands in the new file.
import { mkdir, open, readFile, truncate } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { writeAll } from '../file/write-all.js';
import { isNotFound, writeFileAtomic } from '../file/write-file-atomic.js';
import { appendFailureType } from './execution-log-events.js';
import type { ExecutionLogEvent, ExecutionLogStore } from './execution-log-events.js';

export const EXECUTION_LOG_FILE = 'execution-log.jsonl';

export interface FileExecutionLogOptions {
  readonly dir: string;
  /** A batch could not be written: each of its events, counted by the caller. */
  readonly onAppendFailed: (type: 'node' | 'run') => void;
}

export class FileExecutionLog implements ExecutionLogStore {
  readonly durable = true;
  readonly #file: string;
  readonly #options: FileExecutionLogOptions;
  #handle: FileHandle | undefined;
  /** Events appended and not yet taken by the pump, oldest first. */
  #queued: { readonly line: string; readonly event: ExecutionLogEvent }[] = [];
  /** A compaction waiting for the pump; `covered` queued events are part of its content. */
  #compaction: Compaction | undefined;
  #pumping = false;
  /** Events appended so far, and those written or failed: `durableNow` waits on these. */
  #appended = 0;
  #settled = 0;
  #waiters: Waiter[] = [];
  #closed = false;

  constructor(options: FileExecutionLogOptions) {
    this.#options = options;
    this.#file = path.join(options.dir, EXECUTION_LOG_FILE);
  }

  async open(): Promise<ExecutionLogEvent[]> {
    await mkdir(this.#options.dir, { recursive: true });
    let text = '';
    try {
      text = await readFile(this.#file, 'utf8');
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    const events: ExecutionLogEvent[] = [];
    const lines = text.split('\n');
    let intact = text.length;
    for (let index = 0; index < lines.length; index++) {
      const line = lines[index];
      if (line === undefined || line === '') continue;
      try {
        events.push(JSON.parse(line) as ExecutionLogEvent);
      } catch (error) {
        // A crash can tear the last line only; damage anywhere else is reported.
        if (index !== lines.length - 1) {
          throw new Error(`Execution log ${this.#file} is damaged at line ${index + 1}`, {
            cause: error,
          });
        }
        intact = text.length - line.length;
      }
    }
    // Cut a torn tail off, so that the next append starts on a line of its own.
    if (intact < text.length) await truncate(this.#file, Buffer.byteLength(text.slice(0, intact)));
    this.#handle = await open(this.#file, 'a');
    return events;
  }

  append(event: ExecutionLogEvent): void {
    if (this.#closed) {
      this.#options.onAppendFailed(appendFailureType(event));
      return;
    }
    this.#queued.push({ line: JSON.stringify(event), event });
    this.#appended++;
    this.#pump();
  }

  get pending(): number {
    return this.#appended - this.#settled;
  }

  /** Resolves once every event appended so far is on storage, or has failed. */
  durableNow(): Promise<void> {
    const target = this.#appended;
    if (this.#settled >= target) return Promise.resolve();
    return new Promise((resolve) => {
      this.#waiters.push({ target, resolve });
    });
  }

  /** `events` stand for everything appended so far, those still queued included. */
  compact(events: readonly ExecutionLogEvent[]): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#compaction?.resolve();
      this.#compaction = { events, covered: this.#queued.length, resolve, reject };
      this.#pump();
    });
  }

  async close(timeoutMs: number): Promise<void> {
    if (this.#closed) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
      timer.unref();
    });
    await Promise.race([this.durableNow(), timeout]);
    clearTimeout(timer);
    this.#closed = true;
    await this.#handle?.close().catch(() => undefined);
    this.#handle = undefined;
  }

  #pump(): void {
    if (this.#pumping) return;
    this.#pumping = true;
    void this.#run().finally(() => {
      this.#pumping = false;
      if (!this.#closed && (this.#queued.length > 0 || this.#compaction !== undefined)) {
        this.#pump();
      }
    });
  }

  /** Writes batches and compactions, one at a time, until nothing waits. */
  async #run(): Promise<void> {
    // Let the current turn of the event loop queue more: they share the batch.
    await new Promise<void>((resolve) => setImmediate(resolve));
    for (;;) {
      if (this.#closed) return;
      const compaction = this.#compaction;
      if (compaction !== undefined) {
        this.#compaction = undefined;
        await this.#replace(compaction);
        continue;
      }
      if (this.#queued.length === 0) return;
      const batch = this.#queued;
      this.#queued = [];
      try {
        const handle = this.#handle;
        if (handle === undefined) throw new Error('The execution log is not open');
        const text = batch.map((queued) => queued.line).join('\n');
        await writeAll(handle, Buffer.from(`${text}\n`, 'utf8'));
        await handle.sync();
      } catch {
        for (const queued of batch) this.#options.onAppendFailed(appendFailureType(queued.event));
      }
      this.#settle(batch.length);
    }
  }

  /**
   * Replaces the file with the compaction's events; the queued events it covers are then on
   * storage. A failed replacement leaves the old file, and the queued events go on to it.
   */
  async #replace(compaction: Compaction): Promise<void> {
    try {
      const content = compaction.events.map((event) => `${JSON.stringify(event)}\n`).join('');
      await writeFileAtomic(this.#file, content);
      const old = this.#handle;
      this.#handle = await open(this.#file, 'a');
      await old?.close().catch(() => undefined);
    } catch (error) {
      compaction.reject(error);
      return;
    }
    const covered = this.#queued.splice(0, compaction.covered);
    this.#settle(covered.length);
    compaction.resolve();
  }

  #settle(count: number): void {
    this.#settled += count;
    if (this.#waiters.length === 0) return;
    const waiting: Waiter[] = [];
    for (const waiter of this.#waiters) {
      if (this.#settled >= waiter.target) waiter.resolve();
      else waiting.push(waiter);
    }
    this.#waiters = waiting;
  }
}

interface Waiter {
  /** Resolved once this many events are settled. */
  readonly target: number;
  readonly resolve: () => void;
}

interface Compaction {
  readonly events: readonly ExecutionLogEvent[];
  /** Events queued when the compaction was asked for: they are part of `events`. */
  readonly covered: number;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}
