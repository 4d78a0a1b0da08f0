// Progress history (SPEC Events 4): the state events of each execution, so that a client that
// connects late to a progress stream catches up. Bounded three ways: snapshots per execution,
// executions held (the least recently changed go first) and time since an execution changed.
import type { NumberedEvent } from './event-bus.js';

export interface ProgressHistoryOptions {
  /** SPEC: 200 snapshots per execution (`svc.streaming.status-history-max-snapshots`). */
  readonly perExecution: number;
  /** SPEC: 1000 executions. */
  readonly executions: number;
  /** SPEC: 5 minutes (`svc.streaming.status-history-ttl-minutes`). */
  readonly ttlMs: number;
  readonly now: () => number;
}

/**
 * One execution's snapshots, and its place in the order executions last changed: a list
 * linked through the entries, so that the least recently changed is found, and an execution
 * moved to the end, without walking a map (whose iteration from the front skips the deleted
 * entries it still holds, hundreds of them between two rehashes).
 */
interface Held {
  readonly executionId: string;
  readonly events: NumberedEvent[];
  changedAt: number;
  older: Held | undefined;
  newer: Held | undefined;
}

export class ProgressHistory {
  readonly #options: ProgressHistoryOptions;
  readonly #held = new Map<string, Held>();
  /** The least recently changed execution held, and the most recently changed. */
  #oldest: Held | undefined;
  #newest: Held | undefined;

  constructor(options: ProgressHistoryOptions) {
    this.#options = options;
  }

  record(numbered: NumberedEvent): void {
    const { executionId } = numbered.event;
    if (executionId === null) return;
    const now = this.#options.now();
    let held = this.#held.get(executionId);
    if (held === undefined) {
      held = {
        executionId,
        events: [numbered],
        changedAt: now,
        older: undefined,
        newer: undefined,
      };
      this.#held.set(executionId, held);
      this.#append(held);
      if (this.#held.size > this.#options.executions && this.#oldest !== undefined) {
        this.#forget(this.#oldest);
      }
    } else {
      // Most events follow one of the same execution, already the newest.
      if (held !== this.#newest) {
        this.#unlink(held);
        this.#append(held);
      }
      held.events.push(numbered);
      if (held.events.length > this.#options.perExecution) held.events.shift();
      held.changedAt = now;
    }
    this.#expire(now);
  }

  /** The snapshots kept for an execution after `seq`, oldest first. */
  since(executionId: string, seq: number): NumberedEvent[] {
    this.#expire(this.#options.now());
    return (this.#held.get(executionId)?.events ?? []).filter((numbered) => numbered.seq > seq);
  }

  /** Executions whose history is held. */
  get size(): number {
    return this.#held.size;
  }

  #expire(now: number): void {
    const { ttlMs } = this.#options;
    while (this.#oldest !== undefined && now - this.#oldest.changedAt > ttlMs) {
      this.#forget(this.#oldest);
    }
  }

  #forget(held: Held): void {
    this.#held.delete(held.executionId);
    this.#unlink(held);
  }

  #append(held: Held): void {
    held.older = this.#newest;
    held.newer = undefined;
    if (this.#newest === undefined) this.#oldest = held;
    else this.#newest.newer = held;
    this.#newest = held;
  }

  #unlink(held: Held): void {
    if (held.older === undefined) this.#oldest = held.newer;
    else held.older.newer = held.newer;
    if (held.newer === undefined) this.#newest = held.older;
    else held.newer.older = held.older;
    held.older = undefined;
    held.newer = undefined;
  }
}
