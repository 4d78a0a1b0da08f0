// CONTRACT section 1: the messages a node gets and what it emits.
import type { Settlement } from './settlement.js';

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
  /**
   * A trigger's only: its id comes from `settlement.key`, and `settlement.onSettled` is told
   * once how everything the message led to ended (docs/brokers.md). Ignored on other nodes.
   */
  readonly settlement?: Settlement;
}

/**
 * Emits made one at a time: the engine asks for the next only once the node's children have
 * room for it, and stops asking when the node is paused, stopped or timed out, so a node can
 * emit millions of messages without holding them all. A plain iterable (a `function*`) costs
 * no promise per emit; an async one (an `async function*`) may wait between emits.
 */
export type EmitStream = Iterable<Emit> | AsyncIterable<Emit>;

/**
 * What one call of `process` emits: nothing, one message, several in an array, or an
 * `EmitStream`, in order.
 */
export type ProcessResult = Emit | readonly Emit[] | EmitStream | undefined;

/**
 * Whether `process` answered an `EmitStream` (an array is emitted as it is). Takes anything,
 * since a plugin in plain JavaScript may answer anything.
 */
export function isEmitStream(result: unknown): result is EmitStream {
  return (
    typeof result === 'object' &&
    result !== null &&
    !Array.isArray(result) &&
    (Symbol.iterator in result || Symbol.asyncIterator in result)
  );
}

/**
 * Everything `process` answered, as a list in order: a stream is pulled to its end. For tests,
 * and for callers that must ship a whole answer at once (a remote worker's reply).
 */
export async function collectEmits(result: ProcessResult): Promise<Emit[]> {
  if (result === undefined) return [];
  if (isEmitStream(result)) {
    const emits: Emit[] = [];
    for await (const emit of result) emits.push(emit);
    return emits;
  }
  return Array.isArray(result) ? [...(result as readonly Emit[])] : [result];
}
