// A NodeContext for plugin unit tests: a manual clock, recorded logs, and a scripted
// sub-workflow runner. Real code, no mocks of our own modules.
import type {
  CallSpan,
  Emit,
  Message,
  MessageProcessor,
  NodeContext,
  NodeRuntime,
  MeterTags,
  OutgoingCall,
  SignalAnswer,
  SignalRequest,
  SpanAttributes,
  StreamNode,
  SubWorkflowRequest,
} from '../../plugin-api/index.js';
import { collectEmits, isStreamNode } from '../../plugin-api/index.js';

export interface LoggedLine {
  readonly level: string;
  readonly message: string;
  readonly fields?: Readonly<Record<string, unknown>> | undefined;
}

export interface TestContext extends NodeContext {
  readonly logs: LoggedLine[];
  /** What the plugin reported, as `event:outcome`, in order. */
  readonly reports: string[];
  /** What the plugin added to its meters (`ctx.meter`), in order. */
  readonly meterCalls: MeterCall[];
  readonly sleeps: number[];
  readonly subWorkflowCalls: SubWorkflowRequest[];
  /** The outgoing calls the plugin traced (`ctx.traceCall`), in order. */
  readonly calls: TracedCall[];
  /** Moves the clock; sleeps that are due resolve. */
  advance(ms: number): Promise<void>;
  abort(reason?: unknown): void;
}

/** An outgoing call as the plugin traced it: what it said before, and after, the call. */
export interface TracedCall {
  readonly call: OutgoingCall;
  readonly attributes: Record<string, SpanAttributes[string]>;
  /** Whether the span ended, and with what error. */
  ended: { readonly error: unknown } | undefined;
}

/** One call of `ctx.meter`: the amount counted or the value observed. */
export interface MeterCall {
  readonly kind: 'count' | 'observe';
  readonly name: string;
  readonly value: number;
  readonly tags: MeterTags;
}

export interface TestContextOptions {
  readonly nodeId?: string;
  readonly startPayload?: unknown;
  readonly now?: number;
  /** When false, `sleep` waits for `advance`; by default it resolves at once (and advances). */
  readonly instantSleep?: boolean;
  readonly subWorkflow?: (request: SubWorkflowRequest) => Promise<readonly unknown[]>;
  /** Answers signal waits; without it a wait never ends. */
  readonly signal?: (request: SignalRequest) => Promise<SignalAnswer>;
  /** The headers every traced call gets, as a traced run gives (`traceparent`). */
  readonly traceHeaders?: Readonly<Record<string, string>>;
}

export function createTestContext(options: TestContextOptions = {}): TestContext {
  const controller = new AbortController();
  const logs: LoggedLine[] = [];
  const sleeps: number[] = [];
  const subWorkflowCalls: SubWorkflowRequest[] = [];
  const reports: string[] = [];
  const meterCalls: MeterCall[] = [];
  const calls: TracedCall[] = [];
  let now = options.now ?? Date.UTC(2026, 0, 1);
  const timers: { at: number; resolve: () => void }[] = [];
  const log =
    (level: string) =>
    (message: string, fields?: Readonly<Record<string, unknown>>): void => {
      logs.push({ level, message, fields });
    };
  return {
    executionId: 'exec-1',
    sessionId: 'session-1',
    workflowId: 'workflow-1',
    nodeId: options.nodeId ?? 'node-1',
    signal: controller.signal,
    log: {
      trace: log('trace'),
      debug: log('debug'),
      info: log('info'),
      warn: log('warn'),
      error: log('error'),
    },
    startPayload: options.startPayload,
    logs,
    reports,
    meterCalls,
    sleeps,
    subWorkflowCalls,
    calls,
    traceCall(call): CallSpan {
      const traced: TracedCall = { call, attributes: { ...call.attributes }, ended: undefined };
      calls.push(traced);
      return {
        headers: options.traceHeaders ?? {},
        set(attributes) {
          Object.assign(traced.attributes, attributes);
        },
        end(error) {
          traced.ended ??= { error };
        },
      };
    },
    now: () => now,
    report(event, outcome) {
      reports.push(`${event}:${outcome}`);
    },
    meter: {
      count(name, tags = {}, amount = 1) {
        meterCalls.push({ kind: 'count', name, value: amount, tags });
      },
      observe(name, value, tags = {}) {
        meterCalls.push({ kind: 'observe', name, value, tags });
      },
    },
    sleep(ms, sleepOptions) {
      sleeps.push(ms);
      const signal =
        sleepOptions?.signal === undefined
          ? controller.signal
          : AbortSignal.any([controller.signal, sleepOptions.signal]);
      if (signal.aborted) return Promise.reject(signal.reason as Error);
      if (options.instantSleep !== false) {
        now += ms;
        return Promise.resolve();
      }
      return new Promise<void>((resolve, reject) => {
        timers.push({ at: now + ms, resolve });
        signal.addEventListener('abort', () => {
          reject(signal.reason as Error);
        });
      });
    },
    async advance(ms) {
      now += ms;
      for (const timer of timers.splice(0)) {
        if (timer.at <= now) timer.resolve();
        else timers.push(timer);
      }
      await new Promise((resolve) => setImmediate(resolve));
    },
    abort(reason) {
      controller.abort(reason ?? new Error('aborted'));
    },
    awaitSignal(request) {
      return options.signal ? options.signal(request) : new Promise<SignalAnswer>(() => undefined);
    },
    runSubWorkflow(request) {
      subWorkflowCalls.push(request);
      if (!options.subWorkflow) return Promise.reject(new Error('no sub-workflow runner'));
      return options.subWorkflow(request);
    },
  };
}

let nextId = 0;

export function message(payload: unknown, headers: Record<string, unknown> = {}): Message {
  return { id: `m-${++nextId}`, payload, headers: { attempt: 1, ...headers } };
}

/** Every emit of one `process` answer, in order; a stream is pulled to its end. */
export const asEmits = collectEmits;

/** Feeds `inputs` to a per-message plugin one by one and collects every emit in order. */
export async function processAll(
  runtime: NodeRuntime,
  inputs: readonly Message[],
  ctx: NodeContext = createTestContext(),
): Promise<Emit[]> {
  if (isStreamNode(runtime)) return collect(runtime, inputs, ctx);
  const processor: MessageProcessor = runtime;
  const out: Emit[] = [];
  for (const input of inputs) out.push(...(await asEmits(await processor.process(input, ctx))));
  await processor.close?.();
  return out;
}

/** Runs a whole-stream plugin over `inputs` and collects every emit in order. */
export async function collect(
  runtime: StreamNode,
  inputs: readonly Message[] | AsyncIterable<Message>,
  ctx: NodeContext = createTestContext(),
): Promise<Emit[]> {
  const source: AsyncIterable<Message> =
    Symbol.asyncIterator in inputs ? inputs : fromArray(inputs);
  const out: Emit[] = [];
  for await (const emit of runtime.run(source, ctx)) out.push(emit);
  return out;
}

async function* fromArray(items: readonly Message[]): AsyncIterable<Message> {
  for (const item of items) yield await Promise.resolve(item);
}
