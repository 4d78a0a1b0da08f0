// The spans of a run (SPEC Tracing), as the engine sees them: a port that whoever hosts the run
// fills when tracing is on, and the wrapper that gives each node attempt its span. A run
// without tracing has no port, and its nodes run their plugins unwrapped: off, tracing costs
// one check per node, nothing per message.
import { isStreamNode } from '../../plugin-api/index.js';
import type {
  CallSpan,
  Emit,
  Message,
  MessageProcessor,
  NodeContext,
  NodeLog,
  NodeRuntime,
  OutgoingCall,
  ProcessResult,
  StreamNode,
} from '../../plugin-api/index.js';
import { DelegatingContext } from './node-context.js';
import type { NodeTask } from './node-task.js';

/** How an attempt ended, as its span's `svc.status` tells it. */
export type AttemptStatus = 'COMPLETED' | 'FAILED' | 'STOPPED';

/** One attempt of a node: one message's try, or the whole stream of a stream node. */
export interface AttemptStart {
  readonly nodeId: string;
  /** The plugin type (`HTTP_REQUEST`). */
  readonly type: string;
  /** 1 for the first try of a message, incremented by each retry. */
  readonly attempt: number;
  /** The message tried; absent for a stream node, whose span covers its whole stream. */
  readonly messageId?: string;
}

/** The span of one attempt, a child of the run's span. */
export interface AttemptSpan {
  /** The span's id (16 hex characters), for the attempt's log lines. */
  readonly spanId: string;
  /** A client span of a call the plugin makes, a child of this one. */
  traceCall(call: OutgoingCall): CallSpan;
  end(status: AttemptStatus, error?: unknown): void;
}

/** What a run traces with; absent when tracing is off. */
export interface RunTracing {
  startAttempt(attempt: AttemptStart): AttemptSpan;
}

/** A line of an attempt's log, with the attempt's span id. */
export interface SpanLogWriter {
  write(
    level: 'TRACE' | 'DEBUG' | 'INFO' | 'WARN' | 'ERROR',
    message: string,
    fields: Readonly<Record<string, unknown>> | undefined,
    spanId: string,
  ): void;
}

function isThenable<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** A node's runtime whose every attempt runs inside a span of its own; as it is untraced. */
export function tracedRuntime(
  runtime: NodeRuntime,
  task: NodeTask,
  tracing: RunTracing | undefined,
): NodeRuntime {
  if (tracing === undefined) return runtime;
  return isStreamNode(runtime)
    ? tracedStream(runtime, task, tracing)
    : tracedProcessor(runtime, task, tracing);
}

function tracedProcessor(
  runtime: MessageProcessor,
  task: NodeTask,
  tracing: RunTracing,
): MessageProcessor {
  const { nodeId, type } = task.node;
  const traced: MessageProcessor = {
    process(message: Message, ctx: NodeContext): ProcessResult | Promise<ProcessResult> {
      const span = tracing.startAttempt({
        nodeId,
        type,
        attempt: message.headers.attempt,
        messageId: message.id,
      });
      let result: ProcessResult | Promise<ProcessResult>;
      try {
        result = runtime.process(message, new TracedContext(ctx, span, task.context.spanLog));
      } catch (error) {
        span.end(failedStatus(ctx), error);
        throw error;
      }
      if (!isThenable(result)) {
        span.end('COMPLETED');
        return result;
      }
      return result.then(
        (value) => {
          span.end('COMPLETED');
          return value;
        },
        (error: unknown) => {
          span.end(failedStatus(ctx), error);
          throw error;
        },
      );
    },
    ...(runtime.concurrency === undefined ? {} : { concurrency: runtime.concurrency }),
    ...(runtime.close === undefined ? {} : { close: () => runtime.close?.() }),
  };
  return traced;
}

function tracedStream(runtime: StreamNode, task: NodeTask, tracing: RunTracing): StreamNode {
  const { nodeId, type } = task.node;
  return {
    run(input: AsyncIterable<Message>, ctx: NodeContext): AsyncIterable<Emit> {
      const span = tracing.startAttempt({ nodeId, type, attempt: 1 });
      let output: AsyncIterable<Emit> | Iterable<Emit>;
      try {
        output = runtime.run(input, new TracedContext(ctx, span, task.context.spanLog));
      } catch (error) {
        span.end(failedStatus(ctx), error);
        throw error;
      }
      return spanOver(output, span, ctx);
    },
  };
}

/** The stream as it was, its span ending with it: completed, failed, or let go early. */
async function* spanOver(
  output: AsyncIterable<Emit> | Iterable<Emit>,
  span: AttemptSpan,
  ctx: NodeContext,
): AsyncGenerator<Emit> {
  let status: AttemptStatus = 'STOPPED';
  let failure: unknown;
  try {
    yield* output;
    status = 'COMPLETED';
  } catch (error) {
    status = failedStatus(ctx);
    failure = error;
    throw error;
  } finally {
    span.end(status, failure);
  }
}

/** A failure while the node is being stopped is its stop, not the plugin's fault. */
function failedStatus(ctx: NodeContext): AttemptStatus {
  return ctx.signal.aborted ? 'STOPPED' : 'FAILED';
}

/** The attempt's context: the node's, with the attempt's span for calls and log lines. */
class TracedContext extends DelegatingContext {
  readonly #span: AttemptSpan;
  readonly #writer: SpanLogWriter;
  #log: NodeLog | undefined;

  constructor(parent: NodeContext, span: AttemptSpan, writer: SpanLogWriter) {
    super(parent);
    this.#span = span;
    this.#writer = writer;
  }

  override get log(): NodeLog {
    return (this.#log ??= spanLog(this.#writer, this.#span.spanId));
  }

  override traceCall(call: OutgoingCall): CallSpan {
    return this.#span.traceCall(call);
  }
}

function spanLog(writer: SpanLogWriter, spanId: string): NodeLog {
  return {
    trace: (message, fields) => {
      writer.write('TRACE', message, fields, spanId);
    },
    debug: (message, fields) => {
      writer.write('DEBUG', message, fields, spanId);
    },
    info: (message, fields) => {
      writer.write('INFO', message, fields, spanId);
    },
    warn: (message, fields) => {
      writer.write('WARN', message, fields, spanId);
    },
    error: (message, fields) => {
      writer.write('ERROR', message, fields, spanId);
    },
  };
}
