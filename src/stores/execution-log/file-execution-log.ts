// The durable execution log (`SVC_EXECUTION_LOG_DIR`): one JSON line per event in
// `execution-log.jsonl`. Appends are queued and written with group commit: one write and one
// fsync serve every event queued while the previous batch was on its way to the disk.
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
  /** Events queued since the last batch left, as lines, with their events for failure counts. */
  #queued: string[] = [];
  #queuedEvents: ExecutionLogEvent[] = [];
  /** The batch on its way to the disk; the next one starts when it settles. */
  #writing: Promise<void> | undefined;
  /** Events of the batch on its way to the disk. */
  #inFlight = 0;
  /** Compaction swaps the file: appends wait until the new file is in place. */
  #compacting: Promise<void> | undefined;
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
    this.#queued.push(JSON.stringify(event));
    this.#queuedEvents.push(event);
    this.#writing ??= this.#drain();
  }

  get pending(): number {
    return this.#queued.length + this.#inFlight;
  }

  durableNow(): Promise<void> {
    return this.#writing ?? Promise.resolve();
  }

  async compact(events: readonly ExecutionLogEvent[]): Promise<void> {
    // What is queued now is part of `events`; it need not be written to the old file.
    this.#queued = [];
    this.#queuedEvents = [];
    await this.#writing;
    let done: () => void = () => undefined;
    this.#compacting = new Promise((resolve) => {
      done = resolve;
    });
    try {
      const content = events.map((event) => `${JSON.stringify(event)}\n`).join('');
      await this.#handle?.close();
      this.#handle = undefined;
      await writeFileAtomic(this.#file, content);
      this.#handle = await open(this.#file, 'a');
    } finally {
      this.#compacting = undefined;
      done();
    }
    if (this.#queued.length > 0) this.#writing ??= this.#drain();
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

  /** Writes batches until nothing is queued. */
  async #drain(): Promise<void> {
    // Let the current turn of the event loop queue more: they share the batch.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.#queued.length > 0) {
      if (this.#compacting !== undefined) await this.#compacting;
      const lines = this.#queued;
      const events = this.#queuedEvents;
      this.#queued = [];
      this.#queuedEvents = [];
      this.#inFlight = events.length;
      try {
        const handle = this.#handle;
        if (handle === undefined) throw new Error('The execution log is not open');
        await writeAll(handle, Buffer.from(`${lines.join('\n')}\n`, 'utf8'));
        await handle.sync();
      } catch {
        for (const event of events) this.#options.onAppendFailed(appendFailureType(event));
      } finally {
        this.#inFlight = 0;
      }
    }
    this.#writing = undefined;
  }
}
