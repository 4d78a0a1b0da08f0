// The sessions a registry holds executions of, in the order they last started one (SPEC
// `svc.tracker.max-sessions`). Kept as executions come and go, so that bounding the sessions
// costs what it drops, not a walk over every execution held at every start.

export interface OfSession {
  readonly sessionId: string;
}

export class HeldSessions<T extends OfSession> {
  /** Each session's executions; the map's order is the order the sessions last started one. */
  readonly #bySession = new Map<string, Set<T>>();

  /** Sessions with at least one execution held. */
  get size(): number {
    return this.#bySession.size;
  }

  /** An execution was created: its session is now the one that started most recently. */
  add(execution: T): void {
    const { sessionId } = execution;
    let held = this.#bySession.get(sessionId);
    if (held === undefined) held = new Set();
    else this.#bySession.delete(sessionId);
    held.add(execution);
    this.#bySession.set(sessionId, held);
  }

  /** An execution is no longer held; a session left with none is no longer held either. */
  remove(execution: T): void {
    const held = this.#bySession.get(execution.sessionId);
    if (held === undefined || !held.delete(execution)) return;
    if (held.size === 0) this.#bySession.delete(execution.sessionId);
  }

  /**
   * The executions of each session, the session that started one least recently first. Safe
   * to `remove` from while iterating: a map and a set skip what is deleted on the way.
   */
  leastRecentFirst(): IterableIterator<ReadonlySet<T>> {
    return this.#bySession.values();
  }
}
