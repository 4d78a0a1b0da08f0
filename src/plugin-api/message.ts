// CONTRACT section 1: the messages a node gets and what it emits.

export interface MessageHeaders {
  /** 1 on the first attempt, incremented by each retry of the same message. */
  readonly attempt: number;
  readonly [name: string]: unknown;
}

/**
 * CONTRACT section 1: a message; `id` is stable across replays and resumes. Messages and
 * payloads are shared, not copied: every child of a node gets the same object, and
 * checkpoints record it as emitted. A plugin treats the message it gets and the payload it
 * emits as read-only; to change a payload it emits a new value.
 */
export interface Message {
  readonly id: string;
  readonly payload: unknown;
  readonly headers: MessageHeaders;
}

/** One message a node emits; `port` defaults to `out`. */
export interface Emit {
  readonly payload: unknown;
  readonly port?: string;
  /** Headers added to the emitted message; `attempt` is the runtime's own. */
  readonly headers?: Readonly<Record<string, unknown>>;
}

/** What one call of `process` emits: nothing, one message or several, in order. */
export type ProcessResult = Emit | readonly Emit[] | undefined;
