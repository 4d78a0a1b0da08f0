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

interface Held {
  readonly events: NumberedEvent[];
  changedAt: number;
}

export class ProgressHistory {
  readonly #options: ProgressHistoryOptions;
  /** In the order executions last changed, oldest first. */
  readonly #held = new Map<string, Held>();
  /** The execution that changed last: the last one of `#held` when it is held. */
  #newest: string | undefined;

  constructor(options: ProgressHistoryOptions) {
    this.#options = options;
  }

  record(numbered: NumberedEvent): void {
    const { executionId } = numbered.event;
    if (executionId === null) return;
    const now = this.#options.now();
    const held = this.#held.get(executionId);
    if (held === undefined) {
      this.#held.set(executionId, { events: [numbered], changedAt: now });
      if (this.#held.size > this.#options.executions) this.#dropOldest();
    } else {
      // The newest moves to the end; most events follow one of the same execution, already
      // there.
      if (this.#newest !== executionId) {
        this.#held.delete(executionId);
        this.#held.set(executionId, held);
      }
      held.events.push(numbered);
      if (held.events.length > this.#options.perExecution) held.events.shift();
      held.changedAt = now;
    }
    this.#newest = executionId;
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

  #dropOldest(): void {
    const oldest = this.#held.keys().next();
    if (oldest.done !== true) this.#held.delete(oldest.value);
  }

  #expire(now: number): void {
    for (const [executionId, held] of this.#held) {
      if (now - held.changedAt <= this.#options.ttlMs) return;
      this.#held.delete(executionId);
    }
  }
}
