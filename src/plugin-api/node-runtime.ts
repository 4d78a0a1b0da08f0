// The run-time part of a node: per message (most plugins) or the whole stream.
import type { Emit, Message, ProcessResult } from './message.js';
import type { NodeContext } from './node-context.js';

/** Most plugins: called once per message; the runtime adds retries, timeouts and onError. */
export interface MessageProcessor {
  process(message: Message, ctx: NodeContext): ProcessResult | Promise<ProcessResult>;
  /**
   * How many messages may be inside `process` at once; 1 when absent. Above 1, what each
   * message emits flows on when its own work ends, so outputs may leave in another order than
   * their inputs came (their ids still derive from each input). For plugins whose messages wait
   * on something outside the run, independently of each other: an approval per message.
   */
  readonly concurrency?: number;
  /** Called once when the node ends, however it ends. */
  close?(): void | Promise<void>;
}

/**
 * Triggers and stateful plugins (aggregator, loops): the whole input stream in, the whole
 * output stream out. Pulled: the engine asks for the next emit only when its children can
 * take it, so back-pressure needs nothing more. Clean up in `finally`.
 */
export interface StreamNode {
  /** A plain iterable suits a plugin that never waits (it costs no promise per message). */
  run(input: AsyncIterable<Message>, ctx: NodeContext): AsyncIterable<Emit> | Iterable<Emit>;
}

export type NodeRuntime = MessageProcessor | StreamNode;

export function isStreamNode(runtime: NodeRuntime): runtime is StreamNode {
  return 'run' in runtime;
}
