// The context a plugin sees (`NodeContext`): one per node of a run, and one per attempt when
// the node has an element timeout. Parked runs are many, so both hold little.
import { NO_CALL_SPAN, StepFailure } from '../../plugin-api/index.js';
import type {
  CallSpan,
  NodeContext,
  NodeLog,
  OutgoingCall,
  PluginMeter,
  SignalAnswer,
  SignalRequest,
  SubWorkflowRequest,
} from '../../plugin-api/index.js';
import { NodeEnd } from './node-state.js';
import type { RunClock, TimerHandle } from './run-clock.js';
import type { LogLevel, RunEventSink, RunHost } from './run-ports.js';
import type { SpanLogWriter } from './run-tracing.js';

/** A run whose event sink takes no meter calls drops them. */
const NO_METER: PluginMeter = Object.freeze({ count: () => undefined, observe: () => undefined });

/** A node's log: one object per node, its lines go to the run's event sink. */
class EventLog implements NodeLog, SpanLogWriter {
  /** Lines written: a node that wrote none has its output logged when it completes. */
  lines = 0;

  constructor(
    readonly events: RunEventSink,
    readonly nodeId: string,
  ) {}

  #write(level: LogLevel, message: string, fields: Readonly<Record<string, unknown>> = {}): void {
    this.lines++;
    this.events.log({ nodeId: this.nodeId, level, message, fields });
  }

  /** A line of a traced attempt: it names the attempt's span (SPEC Tracing). */
  write(
    level: LogLevel,
    message: string,
    fields: Readonly<Record<string, unknown>> | undefined,
    spanId: string,
  ): void {
    this.lines++;
    this.events.log({ nodeId: this.nodeId, level, message, fields: fields ?? {}, spanId });
  }

  trace(message: string, fields?: Readonly<Record<string, unknown>>): void {
    this.#write('TRACE', message, fields);
  }

  debug(message: string, fields?: Readonly<Record<string, unknown>>): void {
    this.#write('DEBUG', message, fields);
  }

  info(message: string, fields?: Readonly<Record<string, unknown>>): void {
    this.#write('INFO', message, fields);
  }

  warn(message: string, fields?: Readonly<Record<string, unknown>>): void {
    this.#write('WARN', message, fields);
  }

  error(message: string, fields?: Readonly<Record<string, unknown>>): void {
    this.#write('ERROR', message, fields);
  }
}

/** What every node context of one run shares. */
export interface RunScope {
  readonly executionId: string;
  readonly sessionId: string;
  readonly workflowId: string;
  readonly startPayload: unknown;
  readonly clock: RunClock;
  readonly events: RunEventSink;
  readonly host: RunHost;
  /** A node starts (+1) or stops (-1) waiting for a signal: its status shows WAITING. */
  readonly signalWaits: (nodeId: string, delta: number) => void;
  /** NodeContext.credit of a node. */
  readonly creditOf: (nodeId: string) => number;
}

/**
 * A node's context. Parked runs are many, so it holds little: the run's shared scope, and an
 * AbortController made only when a plugin first asks for the signal.
 */
export class RunNodeContext implements NodeContext {
  readonly #scope: RunScope;
  readonly nodeId: string;
  #controller: AbortController | undefined;
  #abortReason: unknown;
  #aborted = false;
  #log: EventLog | undefined;
  #sleepers: Set<Sleeper> | undefined;
  /** The payload the node emitted last, kept only while the engine logs at DEBUG. */
  lastOutput: unknown;
  #clock: RunClock | undefined;

  constructor(scope: RunScope, nodeId: string) {
    this.#scope = scope;
    this.nodeId = nodeId;
  }

  /**
   * @internal The node's own clock, below the run's: every timer of the node, so that pausing
   * the node freezes them. Made on first use; most nodes of a parked run never need one.
   */
  get clock(): RunClock {
    return (this.#clock ??= this.#scope.clock.child());
  }

  /** @internal The node's clock if it has been made. */
  get existingClock(): RunClock | undefined {
    return this.#clock;
  }

  get executionId(): string {
    return this.#scope.executionId;
  }

  get sessionId(): string {
    return this.#scope.sessionId;
  }

  get workflowId(): string {
    return this.#scope.workflowId;
  }

  get startPayload(): unknown {
    return this.#scope.startPayload;
  }

  get credit(): number {
    return this.#scope.creditOf(this.nodeId);
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#abortReason);
    }
    return this.#controller.signal;
  }

  get log(): NodeLog {
    return this.#eventLog();
  }

  /** @internal Where a traced attempt of the node writes its lines. */
  get spanLog(): SpanLogWriter {
    return this.#eventLog();
  }

  #eventLog(): EventLog {
    return (this.#log ??= new EventLog(this.#scope.events, this.nodeId));
  }

  /** Whether the node wrote live log lines. */
  get logged(): boolean {
    return (this.#log?.lines ?? 0) > 0;
  }

  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#abortReason = reason;
    this.#controller?.abort(reason);
    for (const sleeper of this.#sleepers ?? []) {
      sleeper.timer.cancel();
      sleeper.reject(reason);
    }
    this.#sleepers = undefined;
  }

  now(): number {
    return this.#scope.clock.now();
  }

  report(event: string, outcome: string): void {
    this.#scope.events.pluginEvent?.(this.nodeId, event, outcome);
  }

  get meter(): PluginMeter {
    return this.#scope.events.pluginMeter ?? NO_METER;
  }

  /** Outside a traced attempt there is no span to be a child of. */
  traceCall(): CallSpan {
    return NO_CALL_SPAN;
  }

  sleep(ms: number, options?: { readonly signal?: AbortSignal }): Promise<void> {
    const own = options?.signal;
    if (own === undefined && this.#controller === undefined) return this.#sleepWithoutSignal(ms);
    return this.clock.sleep(
      ms,
      own === undefined ? this.signal : AbortSignal.any([this.signal, own]),
    );
  }

  runSubWorkflow(request: SubWorkflowRequest): Promise<readonly unknown[]> {
    return this.#scope.host.runSubWorkflow(request);
  }

  awaitSignal(request: SignalRequest): Promise<SignalAnswer> {
    const signal = this.signal;
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    const scope = this.#scope;
    const nodeId = this.nodeId;
    const pending = scope.host.awaitSignal?.({ ...request, nodeId });
    if (pending === undefined) {
      return Promise.reject(StepFailure.nonRetryable('Signals cannot be received in this run'));
    }
    return new Promise<SignalAnswer>((resolve, reject) => {
      scope.signalWaits(nodeId, 1);
      let open = true;
      const finish = (): boolean => {
        if (!open) return false;
        open = false;
        timer.cancel();
        signal.removeEventListener('abort', onAbort);
        scope.signalWaits(nodeId, -1);
        return true;
      };
      const onAbort = (): void => {
        if (!finish()) return;
        pending.cancel('cancelled');
        reject(signal.reason instanceof Error ? signal.reason : new Error('Node ended'));
      };
      // The wait runs on the node's clock: a pause freezes it (SPEC rule 1).
      const timer = this.clock.after(request.timeoutMs, () => {
        if (!finish()) return;
        pending.cancel('timed_out');
        reject(new NodeEnd('TIMED_OUT', `No signal within ${request.timeoutMs / 1000} s`));
      });
      signal.addEventListener('abort', onAbort, { once: true });
      pending.answer.then(
        (answer) => {
          if (finish()) resolve(answer);
        },
        (error: unknown) => {
          if (finish()) reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }

  /**
   * No plugin asked for the signal yet: an AbortSignal (a full EventTarget) would cost more
   * than the wait itself, so `abort` rejects the wait directly.
   */
  #sleepWithoutSignal(ms: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (this.#aborted) {
        reject(this.#abortReason instanceof Error ? this.#abortReason : new Error('Node ended'));
        return;
      }
      const sleeper: Sleeper = {
        reject: (reason) => {
          reject(reason instanceof Error ? reason : new Error('Node ended'));
        },
        timer: this.clock.after(ms, () => {
          this.#sleepers?.delete(sleeper);
          resolve();
        }),
      };
      (this.#sleepers ??= new Set()).add(sleeper);
    });
  }
}

interface Sleeper {
  readonly timer: TimerHandle;
  readonly reject: (reason: unknown) => void;
}

/**
 * A context that is the node's in all but what a subclass changes: every member is handed to
 * the context it wraps.
 */
export class DelegatingContext implements NodeContext {
  constructor(protected readonly parent: NodeContext) {}

  get executionId(): string {
    return this.parent.executionId;
  }

  get sessionId(): string {
    return this.parent.sessionId;
  }

  get workflowId(): string {
    return this.parent.workflowId;
  }

  get nodeId(): string {
    return this.parent.nodeId;
  }

  get log(): NodeLog {
    return this.parent.log;
  }

  get startPayload(): unknown {
    return this.parent.startPayload;
  }

  get credit(): number | undefined {
    return this.parent.credit;
  }

  get signal(): AbortSignal {
    return this.parent.signal;
  }

  get meter(): PluginMeter {
    return this.parent.meter;
  }

  now(): number {
    return this.parent.now();
  }

  report(event: string, outcome: string): void {
    this.parent.report(event, outcome);
  }

  traceCall(call: OutgoingCall): CallSpan {
    return this.parent.traceCall(call);
  }

  sleep(ms: number, options?: { readonly signal?: AbortSignal }): Promise<void> {
    return this.parent.sleep(ms, options);
  }

  runSubWorkflow(request: SubWorkflowRequest): Promise<readonly unknown[]> {
    return this.parent.runSubWorkflow(request);
  }

  awaitSignal(request: SignalRequest): Promise<SignalAnswer> {
    return this.parent.awaitSignal(request);
  }
}

/**
 * The context of one attempt when a node has an element timeout: the node's context with a
 * signal of its own, aborted by the timeout or with the node.
 */
export class AttemptContext extends DelegatingContext {
  readonly #controller = new AbortController();
  readonly #parentSignal: AbortSignal;
  readonly #onParentAbort = (): void => {
    this.#controller.abort(this.#parentSignal.reason);
  };

  constructor(parent: NodeContext) {
    super(parent);
    this.#parentSignal = parent.signal;
    if (this.#parentSignal.aborted) this.#onParentAbort();
    else this.#parentSignal.addEventListener('abort', this.#onParentAbort, { once: true });
  }

  override get signal(): AbortSignal {
    return this.#controller.signal;
  }

  override sleep(ms: number, options?: { readonly signal?: AbortSignal }): Promise<void> {
    const own = options?.signal;
    return this.parent.sleep(ms, {
      signal: own === undefined ? this.signal : AbortSignal.any([this.signal, own]),
    });
  }

  abort(reason: unknown): void {
    this.#controller.abort(reason);
  }

  /** The attempt is over: it no longer follows the node's signal. */
  dispose(): void {
    this.#parentSignal.removeEventListener('abort', this.#onParentAbort);
  }
}
