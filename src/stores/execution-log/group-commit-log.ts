// The queueing every durable execution log shares: appends are queued and written with group
// commit, one write serving every event queued while the previous one was on its way to
// storage. One pump does all the writing, compactions included, so an event appended while
// the log is being replaced always lands after the replacement. Adapters say how a batch is
// written and how the whole log is replaced.
import { appendFailureType } from './execution-log-events.js';
import type { ExecutionLogEvent, ExecutionLogStore } from './execution-log-events.js';

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

export abstract class GroupCommitLog<
  TItem extends { readonly event: ExecutionLogEvent },
> implements ExecutionLogStore {
  readonly durable = true;
  readonly #onAppendFailed: (type: 'node' | 'run') => void;
  /** Events appended and not yet taken by the pump, oldest first. */
  #queued: TItem[] = [];
  /** A compaction waiting for the pump; `covered` queued events are part of its content. */
  #compaction: Compaction | undefined;
  #pumping = false;
  /** Events appended so far, and those written or failed: `durableNow` waits on these. */
  #appended = 0;
  #settled = 0;
  #waiters: Waiter[] = [];
  #closed = false;

  /** `onAppendFailed` counts each event of a batch that could not be written. */
  constructor(onAppendFailed: (type: 'node' | 'run') => void) {
    this.#onAppendFailed = onAppendFailed;
  }

  abstract open(): Promise<ExecutionLogEvent[]>;

  /** What the adapter keeps of a queued event until its batch is written. */
  protected abstract item(event: ExecutionLogEvent): TItem;

  /** Writes a batch and forces it to storage; rejects when it could not. */
  protected abstract writeBatch(batch: readonly TItem[]): Promise<void>;

  /** Replaces the whole log by `events`, or leaves it as it was and rejects. */
  protected abstract replaceAll(events: readonly ExecutionLogEvent[]): Promise<void>;

  /** Releases what the adapter holds once the log is closed. */
  protected afterClose(): Promise<void> {
    return Promise.resolve();
  }

  append(event: ExecutionLogEvent): void {
    if (this.#closed) {
      this.#onAppendFailed(appendFailureType(event));
      return;
    }
    this.#queued.push(this.item(event));
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
    await this.afterClose();
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
        await this.writeBatch(batch);
      } catch {
        for (const item of batch) this.#onAppendFailed(appendFailureType(item.event));
      }
      this.#settle(batch.length);
    }
  }

  /**
   * Replaces the log with the compaction's events; the queued events it covers are then on
   * storage. A failed replacement leaves the old log, and the queued events go on to it.
   */
  async #replace(compaction: Compaction): Promise<void> {
    try {
      await this.replaceAll(compaction.events);
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
