// A worker's side of placed nodes: one plugin runtime per (execution, node) from the node's
// first message until the control plane closes it, with the worker's own environment,
// safeguards and log (SPEC Workflow-author safeguards, "Log line losses"; docs/workers.md).
import type { ConfigResolver, PluginCatalog } from '../engine/index.js';
import { PLACEMENT_KIND_MESSAGE, wholeStreamMessage } from '../engine/index.js';
import { NO_CALL_SPAN, StepFailure, collectEmits, isStreamNode } from '../plugin-api/index.js';
import type {
  CallSpan,
  MessageProcessor,
  NodeContext,
  MeterTags,
  NodeLog,
  PluginMeter,
  ProcessResult,
  SignalAnswer,
  SubWorkflowRequest,
} from '../plugin-api/index.js';
import { configOf, decodePayload, fromWireMessage, toWireEmit } from './wire.js';
import type { OpenFrame, ProcessFrame, WorkerFrame } from './wire.js';
import type { WorkersLogger } from './workers-logger.js';
import { messageOf } from '../core/index.js';
import { pluginMeterName } from '../observability/index.js';

export interface WorkerHostOptions {
  readonly catalog: PluginCatalog;
  /** `svc.workers.plugin-types`: the only types this worker runs. */
  readonly pluginTypes: ReadonlySet<string>;
  /** Resolves placeholders and secrets with the worker's own environment. */
  readonly resolveConfig: ConfigResolver;
  /** The worker's log: plugin log lines end here, not in the execution's log stream. */
  readonly logger: WorkersLogger;
}

type Send = (frame: WorkerFrame) => void;

/** A placed node open on this worker: its runtime, or why it cannot run here. */
interface OpenNode {
  readonly open: OpenFrame;
  readonly startPayload: unknown;
  readonly runtime: MessageProcessor | undefined;
  readonly failure: string | undefined;
  /** Aborted when the control plane closes the node or the connection ends. */
  readonly controller: AbortController;
  readonly log: NodeLog;
  readonly calls: Set<string>;
}

interface RunningCall {
  readonly node: OpenNode;
  readonly controller: AbortController;
  /** The connection the call came on: its credit goes back there. */
  readonly send: Send;
}

/** The run and node a log line of a placed node belongs to. */
function tagsOf(open: OpenFrame): { executionId: string; nodeId: string; type: string } {
  return { executionId: open.executionId, nodeId: open.nodeId, type: open.nodeType };
}

/** Plugins log on the worker, tagged with the run and node they belong to. */
function nodeLog(logger: WorkersLogger, open: OpenFrame): NodeLog {
  const tags = tagsOf(open);
  const write =
    (method: keyof WorkersLogger) =>
    (message: string, fields: Readonly<Record<string, unknown>> = {}): void => {
      logger[method]({ ...fields, ...tags }, message);
    };
  return {
    trace: write('trace'),
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
  };
}

/** The run's start payload; one that cannot be read is left out, as the node fails anyway. */
function decodeStartPayload(open: OpenFrame): unknown {
  try {
    return decodePayload(open.startPayload);
  } catch {
    return undefined;
  }
}

export class WorkerHost {
  readonly #options: WorkerHostOptions;
  readonly #nodes = new Map<string, OpenNode>();
  readonly #calls = new Map<string, RunningCall>();
  #peakCalls = 0;

  constructor(options: WorkerHostOptions) {
    this.#options = options;
  }

  /** Placed nodes open on this worker. */
  get openNodes(): number {
    return this.#nodes.size;
  }

  /** Messages being processed now. */
  get runningCalls(): number {
    return this.#calls.size;
  }

  /** The most messages this worker has processed at once. */
  get peakCalls(): number {
    return this.#peakCalls;
  }

  /**
   * A debug line with what is open and running now: how a worker's operator (and a test of a
   * worker process) sees nodes and calls come and go without a debugger.
   */
  #debug(message: string, fields: Readonly<Record<string, unknown>>): void {
    this.#options.logger.debug(
      { ...fields, openNodes: this.#nodes.size, runningCalls: this.#calls.size },
      message,
    );
  }

  /**
   * Makes the node's runtime. What keeps it from running here (a type this worker does not
   * run, a refused placeholder, a whole-stream type) fails each of its messages, never retried.
   */
  open(open: OpenFrame): void {
    const log = nodeLog(this.#options.logger, open);
    const made = this.#create(open);
    this.#nodes.set(open.node, {
      open,
      startPayload: decodeStartPayload(open),
      log,
      controller: new AbortController(),
      calls: new Set(),
      ...('runtime' in made
        ? { runtime: made.runtime, failure: undefined }
        : { runtime: undefined, failure: made.failure }),
    });
    this.#debug('Placed node opened', tagsOf(open));
  }

  #create(open: OpenFrame): { runtime: MessageProcessor } | { failure: string } {
    const { catalog, pluginTypes, resolveConfig } = this.#options;
    const type = open.nodeType;
    if (!pluginTypes.has(type)) {
      return {
        failure: `This worker does not run plugin type '${type}' (svc.workers.plugin-types)`,
      };
    }
    const descriptor = catalog.find(type);
    if (descriptor === undefined) {
      return {
        failure:
          catalog.excludedReason(type) ?? `Plugin type '${type}' is not known to this worker`,
      };
    }
    if (descriptor.kind !== 'processor') {
      return { failure: `${PLACEMENT_KIND_MESSAGE}; '${type}' is a ${descriptor.kind}` };
    }
    let config: Record<string, unknown>;
    try {
      config = configOf(open);
    } catch (error) {
      return { failure: messageOf(error) };
    }
    const resolved = resolveConfig(config);
    if (!resolved.ok) return { failure: resolved.error };
    const problems = descriptor.validateConfig(resolved.config);
    if (problems.length > 0) {
      const detail = problems.map((problem) => `${problem.field}: ${problem.message}`).join('; ');
      return { failure: `Configuration of '${type}' is invalid on this worker: ${detail}` };
    }
    try {
      const runtime = descriptor.createRuntime(resolved.config, {
        nodeId: open.nodeId,
        // Session memory lives with the control plane's sessions; a worker has none.
        sessionMemory: undefined,
      });
      if (isStreamNode(runtime)) {
        // A directory plugin that does not declare `wholeStream` is found out here.
        return { failure: wholeStreamMessage(type) };
      }
      return { runtime };
    } catch (error) {
      return { failure: messageOf(error) };
    }
  }

  /**
   * Processes one message and answers with `send`; a cancelled call answers nothing. Every
   * Process frame gives its credit back once it leaves this worker, however it leaves.
   */
  process(request: ProcessFrame, send: Send): void {
    const callId = request.call;
    const answer = (frame: WorkerFrame): void => {
      send(frame);
      send({ credit: { count: 1 } });
    };
    const node = this.#nodes.get(request.node);
    if (node?.runtime === undefined) {
      answer({
        failed: {
          call: callId,
          error: node === undefined ? 'The node is not open on this worker' : (node.failure ?? ''),
          retryable: node === undefined,
        },
      });
      return;
    }
    const controller = new AbortController();
    this.#calls.set(callId, { node, controller, send });
    node.calls.add(callId);
    this.#peakCalls = Math.max(this.#peakCalls, this.#calls.size);
    this.#debug('Call started', { call: callId, ...tagsOf(node.open) });
    const ctx = new WorkerNodeContext(
      node,
      AbortSignal.any([node.controller.signal, controller.signal]),
      callId,
      send,
    );
    const finish = (frame: () => WorkerFrame): void => {
      node.calls.delete(callId);
      // Cancelled meanwhile: the control plane gave up on the call, and has its credit back.
      if (!this.#calls.delete(callId)) return;
      this.#debug('Call ended', { call: callId, ...tagsOf(node.open) });
      let built: WorkerFrame;
      try {
        built = frame();
      } catch (error) {
        // Output that cannot be written as JSON (a cycle, a BigInt) fails the message.
        built = {
          failed: {
            call: callId,
            error: `The output cannot be sent to the control plane: ${messageOf(error)}`,
            retryable: false,
          },
        };
      }
      answer(built);
    };
    const fail = (error: unknown): void => {
      finish(() => ({
        failed: {
          call: callId,
          error: messageOf(error),
          retryable: !(error instanceof StepFailure) || error.retryable,
        },
      }));
    };
    let result: ProcessResult | Promise<ProcessResult>;
    try {
      result = node.runtime.process(fromWireMessage(request.message), ctx);
    } catch (error) {
      fail(error);
      return;
    }
    // A stream is pulled to its end here: one answer frame carries a placed node's output.
    Promise.resolve(result)
      .then(collectEmits)
      .then((list) => {
        finish(() => ({ result: { call: callId, emits: list.map(toWireEmit) } }));
      }, fail);
  }

  /** The control plane gave up on a call (a stop, a timeout): its signal aborts. */
  cancel(callId: string): void {
    const call = this.#calls.get(callId);
    if (call === undefined) return;
    this.#calls.delete(callId);
    call.node.calls.delete(callId);
    call.controller.abort(new Error('Cancelled by the control plane'));
    call.send({ credit: { count: 1 } });
    this.#debug('Call cancelled', { call: callId, ...tagsOf(call.node.open) });
  }

  /** The node ended: its calls are aborted and its runtime closed. */
  async close(ref: string, reason = 'The node ended'): Promise<void> {
    const node = this.#nodes.get(ref);
    if (node === undefined) return;
    this.#nodes.delete(ref);
    for (const callId of node.calls) {
      const call = this.#calls.get(callId);
      this.#calls.delete(callId);
      call?.send({ credit: { count: 1 } });
    }
    node.calls.clear();
    node.controller.abort(new Error(reason));
    this.#debug('Placed node closed', { ...tagsOf(node.open), reason });
    try {
      await node.runtime?.close?.();
    } catch (error) {
      node.log.warn('Closing the node failed', { err: messageOf(error) });
    }
  }

  /** The connection ended: every node is closed; the control plane reopens them elsewhere. */
  async closeAll(reason: string): Promise<void> {
    await Promise.all([...this.#nodes.keys()].map((ref) => this.close(ref, reason)));
  }
}

const NO_TAGS: MeterTags = Object.freeze({});

/**
 * What a plugin sees on a worker: its call's signal, the worker's log and clock. It is its own
 * meter, so a call's context is the only object a message costs.
 */
class WorkerNodeContext implements NodeContext, PluginMeter {
  readonly #node: OpenNode;
  readonly #callId: string;
  readonly #send: Send;
  readonly signal: AbortSignal;

  constructor(node: OpenNode, signal: AbortSignal, callId: string, send: Send) {
    this.#node = node;
    this.signal = signal;
    this.#callId = callId;
    this.#send = send;
  }

  get executionId(): string {
    return this.#node.open.executionId;
  }

  get sessionId(): string {
    return this.#node.open.sessionId;
  }

  get workflowId(): string {
    return this.#node.open.workflowId;
  }

  get nodeId(): string {
    return this.#node.open.nodeId;
  }

  get log(): NodeLog {
    return this.#node.log;
  }

  get startPayload(): unknown {
    return this.#node.startPayload;
  }

  /** The worker's own clock: a pause of the run holds messages back, not work under way. */
  now(): number {
    return Date.now();
  }

  sleep(ms: number, options?: { readonly signal?: AbortSignal }): Promise<void> {
    const signal =
      options?.signal === undefined ? this.signal : AbortSignal.any([this.signal, options.signal]);
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(signal.reason instanceof Error ? signal.reason : new Error('Sleep cancelled'));
      };
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  runSubWorkflow(_request: SubWorkflowRequest): Promise<readonly unknown[]> {
    return Promise.reject(
      StepFailure.nonRetryable('Sub-workflows cannot be started from a remote worker'),
    );
  }

  awaitSignal(): Promise<SignalAnswer> {
    return Promise.reject(
      StepFailure.nonRetryable('Signals cannot be received on a remote worker'),
    );
  }

  /** Counted by the control plane, in its `svc.plugin.events`. */
  report(event: string, outcome: string): void {
    this.#send({ report: { call: this.#callId, event, outcome } });
  }

  /** Counted by the control plane; checked here too, so the plugin learns of a mistake. */
  get meter(): PluginMeter {
    return this;
  }

  /** The trace context does not travel to workers yet: calls made here are not traced. */
  traceCall(): CallSpan {
    return NO_CALL_SPAN;
  }

  count(name: string, tags: MeterTags = NO_TAGS, amount = 1): void {
    pluginMeterName(name, 'counter', tags);
    this.#send({ meter: { call: this.#callId, kind: 'COUNT', name, value: amount, tags } });
  }

  observe(name: string, value: number, tags: MeterTags = NO_TAGS): void {
    pluginMeterName(name, 'timer', tags);
    this.#send({ meter: { call: this.#callId, kind: 'OBSERVE', name, value, tags } });
  }
}
