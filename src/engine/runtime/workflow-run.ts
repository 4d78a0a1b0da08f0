// One run of a prepared workflow: a task per node joined by bounded channels. The runner
// wraps every plugin the same way: retries with backoff, element and idle timeouts, onError,
// trigger rules, results, accounting, and cancellation (SPEC "States and transitions").
import { DEFAULT_SAFEGUARDS, StepFailure, isStreamNode } from '../../plugin-api/index.js';
import type {
  Emit,
  Message,
  MessageHeaders,
  MessageProcessor,
  NodeContext,
  NodeLog,
  NodeRuntime,
  ProcessResult,
  Safeguards,
  StreamNode,
  SubWorkflowRequest,
} from '../../plugin-api/index.js';
import { Channel, DroppingChannel, END } from '../streams/channel.js';
import type { NodeInput } from '../streams/channel.js';
import { childMessageId, sourceMessageId } from './message-ids.js';
import type { PlannedNode, WorkflowPlan } from './plan.js';
import type { RunClock, TimerHandle } from './run-clock.js';

/** CONTRACT section 1: node statuses. */
export type NodeStatus =
  | 'PENDING'
  | 'RUNNING'
  | 'WAITING'
  | 'PAUSED'
  | 'COMPLETED'
  | 'FAILURE'
  | 'TIMED_OUT'
  | 'UPSTREAM_FAILED'
  | 'SKIPPED'
  | 'STOPPED'
  | 'CANCELLED';

/** How a run ended; queueing and abort after a crash belong to the executions layer. */
export type RunEndStatus = 'COMPLETED' | 'FAILED' | 'STOPPED' | 'TIMED_OUT';

export type LogLevel = 'TRACE' | 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';

export interface NodeState {
  readonly nodeId: string;
  readonly type: string;
  status: NodeStatus;
  startedAt: number | null;
  endedAt: number | null;
  messagesIn: number;
  messagesOut: number;
  /** Messages attempted again after a retryable failure. */
  retries: number;
  /** Messages dropped by `onError: SKIP`. */
  skipped: number;
  /** Messages dropped by the node's edge buffer. */
  dropped: number;
  error: string | null;
}

export interface RunLogEntry {
  readonly nodeId: string;
  readonly level: LogLevel;
  readonly message: string;
  readonly fields: Readonly<Record<string, unknown>>;
}

/** What a run tells the outside world. Calls are synchronous and must not throw. */
export interface RunListener {
  nodeChanged(state: Readonly<NodeState>): void;
  /** A message a terminal node received: a result (CONTRACT section 1). */
  result(nodeId: string, message: Message): void;
  log(entry: RunLogEntry): void;
  edgeDropped(nodeId: string): void;
}

/** The part of a pino logger the engine uses, so the engine does not depend on pino. */
export interface EngineLogger {
  isLevelEnabled(level: string): boolean;
  trace(fields: object, message: string): void;
}

export interface RunOptions {
  readonly executionId: string;
  readonly sessionId: string;
  readonly workflowId: string;
  /** Root of derived message ids: the same for a run and its restarts and resumes. */
  readonly lineage: string;
  readonly startPayload: unknown;
  readonly plan: WorkflowPlan;
  readonly clock: RunClock;
  readonly listener: RunListener;
  readonly logger: EngineLogger;
  /** Run deadline (SPEC `svc.session.execution-timeout-seconds`); none when absent. */
  readonly deadlineMs?: number | undefined;
  /** Capacity of every edge without a buffer. */
  readonly channelCapacity?: number | undefined;
  readonly runSubWorkflow: (request: SubWorkflowRequest) => Promise<readonly unknown[]>;
  readonly safeguards?: Safeguards | undefined;
  /**
   * Resolves `${env.NAME}`, `${sys.name}` and `decrypted:<name>` in a node's configuration
   * when the run starts; a failure fails every message of the node like a plugin error.
   */
  readonly resolveConfig?: ConfigResolver | undefined;
}

export type ConfigResolver = (
  config: Readonly<Record<string, unknown>>,
) =>
  | { readonly ok: true; readonly config: Readonly<Record<string, unknown>> }
  | { readonly ok: false; readonly error: string };

export interface RunOutcome {
  readonly status: RunEndStatus;
  readonly error: string | null;
}

const DEFAULT_CAPACITY = 64;
const MAX_BACKOFF_MS = 30_000;
const FIRST_ATTEMPT: MessageHeaders = Object.freeze({ attempt: 1 });
const TERMINAL_STATUSES: ReadonlySet<NodeStatus> = new Set([
  'COMPLETED',
  'FAILURE',
  'TIMED_OUT',
  'UPSTREAM_FAILED',
  'SKIPPED',
  'STOPPED',
  'CANCELLED',
]);
const FAILED_STATUSES: ReadonlySet<NodeStatus> = new Set([
  'FAILURE',
  'TIMED_OUT',
  'UPSTREAM_FAILED',
  'CANCELLED',
  'STOPPED',
]);

export function isTerminalNodeStatus(status: NodeStatus): boolean {
  return TERMINAL_STATUSES.has(status);
}

/** A node's log: one object per node, its lines go to the run's listener. */
class ListenerLog implements NodeLog {
  constructor(
    readonly listener: RunListener,
    readonly nodeId: string,
  ) {}

  #write(level: LogLevel, message: string, fields: Readonly<Record<string, unknown>> = {}): void {
    this.listener.log({ nodeId: this.nodeId, level, message, fields });
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
interface RunScope {
  readonly executionId: string;
  readonly sessionId: string;
  readonly workflowId: string;
  readonly startPayload: unknown;
  readonly clock: RunClock;
  readonly listener: RunListener;
  readonly runSubWorkflow: (request: SubWorkflowRequest) => Promise<readonly unknown[]>;
}

/**
 * A node's context. Parked runs are many, so it holds little: the run's shared scope, and an
 * AbortController made only when a plugin first asks for the signal.
 */
class RunNodeContext implements NodeContext {
  readonly #scope: RunScope;
  readonly nodeId: string;
  #controller: AbortController | undefined;
  #abortReason: unknown;
  #aborted = false;
  #log: NodeLog | undefined;
  #sleepers: Set<Sleeper> | undefined;

  constructor(scope: RunScope, nodeId: string) {
    this.#scope = scope;
    this.nodeId = nodeId;
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

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#abortReason);
    }
    return this.#controller.signal;
  }

  get log(): NodeLog {
    return (this.#log ??= new ListenerLog(this.#scope.listener, this.nodeId));
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

  sleep(ms: number, options?: { readonly signal?: AbortSignal }): Promise<void> {
    const own = options?.signal;
    if (own === undefined && this.#controller === undefined) return this.#sleepWithoutSignal(ms);
    return this.#scope.clock.sleep(
      ms,
      own === undefined ? this.signal : AbortSignal.any([this.signal, own]),
    );
  }

  runSubWorkflow(request: SubWorkflowRequest): Promise<readonly unknown[]> {
    return this.#scope.runSubWorkflow(request);
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
        timer: this.#scope.clock.after(ms, () => {
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

/** Ends a node from inside its own task: the status it ends with and why. */
class NodeEnd extends Error {
  constructor(
    readonly status: NodeStatus,
    message: string,
  ) {
    super(message);
  }
}

class ElementTimeout extends Error {}

function isThenable<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class WorkflowRun {
  readonly nodes: readonly NodeState[];
  readonly done: Promise<RunOutcome>;
  readonly #options: RunOptions;
  readonly #plan: WorkflowPlan;
  readonly #inputs: readonly (NodeInput<Message> | undefined)[];
  readonly #contexts: readonly RunNodeContext[];
  /** Whether `#finish` ran for a node: it runs exactly once, whoever ends the node. */
  readonly #finished: boolean[];
  #finishedCount = 0;
  /** Set when something outside a node's task ends it (cancel, upstream failure, deadline). */
  readonly #pendingEnds: (NodeEnd | undefined)[];
  /** Per node: parents that ended, and how many of them completed (trigger rules). */
  readonly #parentsEnded: number[];
  readonly #parentsSucceeded: number[];
  readonly #trace: boolean;
  #ending: RunOutcome | undefined;
  #resolveDone: (outcome: RunOutcome) => void = () => undefined;
  #started = false;
  #deadline: TimerHandle | undefined;

  constructor(options: RunOptions) {
    this.#options = options;
    this.#plan = options.plan;
    const capacity = options.channelCapacity ?? DEFAULT_CAPACITY;
    this.nodes = this.#plan.nodes.map((node) => ({
      nodeId: node.nodeId,
      type: node.type,
      status: 'PENDING',
      startedAt: null,
      endedAt: null,
      messagesIn: 0,
      messagesOut: 0,
      retries: 0,
      skipped: 0,
      dropped: 0,
      error: null,
    }));
    this.#inputs = this.#plan.nodes.map((node) => {
      if (node.inputEdges === 0) return undefined;
      const buffer = node.settings.edgeBuffer;
      if (buffer === undefined) return new Channel<Message>(capacity, node.inputEdges);
      const state = this.#state(node.index);
      return new DroppingChannel<Message>(
        buffer.size,
        buffer.overflow,
        () => {
          state.dropped++;
          options.listener.edgeDropped(node.nodeId);
        },
        node.inputEdges,
      );
    });
    const scope: RunScope = {
      executionId: options.executionId,
      sessionId: options.sessionId,
      workflowId: options.workflowId,
      startPayload: options.startPayload,
      clock: options.clock,
      listener: options.listener,
      runSubWorkflow: options.runSubWorkflow,
    };
    this.#contexts = this.#plan.nodes.map((node) => new RunNodeContext(scope, node.nodeId));
    this.#finished = this.#plan.nodes.map(() => false);
    this.#pendingEnds = this.#plan.nodes.map(() => undefined);
    this.#parentsEnded = this.#plan.nodes.map(() => 0);
    this.#parentsSucceeded = this.#plan.nodes.map(() => 0);
    this.#trace = options.logger.isLevelEnabled('trace');
    this.done = new Promise((resolve) => {
      this.#resolveDone = resolve;
    });
  }

  start(): void {
    if (this.#started) return;
    this.#started = true;
    const { deadlineMs } = this.#options;
    if (deadlineMs !== undefined) {
      this.#deadline = this.#options.clock.after(deadlineMs, () => {
        this.#end(
          { status: 'TIMED_OUT', error: `Run deadline of ${deadlineMs} ms passed` },
          'CANCELLED',
        );
      });
    }
    for (const node of this.#plan.nodes) void this.#runNode(node);
  }

  /** Stops the run: every node still going ends STOPPED. */
  stop(reason = 'Stopped'): void {
    this.#end({ status: 'STOPPED', error: reason }, 'STOPPED');
  }

  get ended(): boolean {
    return this.#ending !== undefined;
  }

  #state(index: number): NodeState {
    const state = this.nodes[index];
    if (state === undefined) throw new Error(`No node ${index}`);
    return state;
  }

  /** Ends the run once; nodes still going end with `nodeStatus` and release what they hold. */
  #end(outcome: RunOutcome, nodeStatus: NodeStatus): void {
    if (this.#ending !== undefined) return;
    this.#ending = outcome;
    // A node a moment away from finishing on its own gets that moment: a trigger that has
    // emitted its last message completes rather than being cancelled.
    setImmediate(() => {
      const end = new NodeEnd(nodeStatus, outcome.error ?? nodeStatus);
      const remaining = this.#plan.nodes.filter((node) => this.#finished[node.index] !== true);
      // Mark every node first, so none is reported UPSTREAM_FAILED because a parent was
      // cancelled a moment earlier.
      for (const node of remaining) this.#markEnded(node.index, end);
      for (const node of remaining) this.#finish(node, end);
    });
  }

  #endFromOutside(index: number, end: NodeEnd): void {
    if (!this.#markEnded(index, end)) return;
    // The node ends now, not when its task notices: a plugin that ignores its signal cannot
    // keep the run alive, and whatever it emits late is dropped.
    const node = this.#plan.nodes[index];
    if (node !== undefined) this.#finish(node, end);
  }

  /** Tells a node's task and plugin to stop; false when the node has ended already. */
  #markEnded(index: number, end: NodeEnd): boolean {
    const state = this.#state(index);
    if (isTerminalNodeStatus(state.status) || this.#pendingEnds[index] !== undefined) return false;
    this.#pendingEnds[index] = end;
    this.#contexts[index]?.abort(end);
    this.#inputs[index]?.cancel();
    return true;
  }

  #setStatus(state: NodeState, status: NodeStatus, error: string | null = null): void {
    if (isTerminalNodeStatus(state.status)) return;
    const now = this.#options.clock.now();
    if (status === 'RUNNING' && state.startedAt === null) state.startedAt = now;
    if (isTerminalNodeStatus(status)) state.endedAt = now;
    state.status = status;
    if (error !== null) state.error = error;
    this.#options.listener.nodeChanged(state);
  }

  async #runNode(node: PlannedNode): Promise<void> {
    const state = this.#state(node.index);
    const context = this.#contexts[node.index];
    if (context === undefined) return;
    let outcome: NodeEnd;
    let deadline: TimerHandle | undefined;
    try {
      const runtime = this.#createRuntime(node);
      if (node.settings.deadlineMs !== undefined) {
        const ms = node.settings.deadlineMs;
        deadline = this.#options.clock.after(ms, () => {
          this.#endFromOutside(
            node.index,
            new NodeEnd('TIMED_OUT', `Node deadline of ${ms} ms passed`),
          );
        });
      }
      if (node.kind === 'trigger') this.#setStatus(state, 'RUNNING');
      if (isStreamNode(runtime)) {
        await this.#runStream(node, runtime, context);
      } else {
        // The message loop is inline, not a call: one async frame per node instead of two
        // matters when thousands of runs are parked.
        const input = this.#inputs[node.index];
        try {
          for (;;) {
            if (input === undefined) break;
            let next = input.receive();
            if (next instanceof Promise) next = await next;
            if (next === END || this.#pendingEnds[node.index] !== undefined) break;
            this.#accept(node, state, next);
            const pending = this.#handle(node, runtime, context, next);
            if (pending !== undefined) await pending;
          }
        } finally {
          await runtime.close?.();
        }
      }
      outcome = this.#pendingEnds[node.index] ?? this.#completion(node);
    } catch (error) {
      outcome =
        this.#pendingEnds[node.index] ??
        (error instanceof NodeEnd ? error : new NodeEnd('FAILURE', messageOf(error)));
    } finally {
      deadline?.cancel();
    }
    this.#finish(node, outcome);
  }

  /** The plugin's runtime for the node's resolved configuration. */
  #createRuntime(node: PlannedNode): NodeRuntime {
    const setup = {
      nodeId: node.nodeId,
      safeguards: this.#options.safeguards ?? DEFAULT_SAFEGUARDS,
    };
    const resolved = this.#options.resolveConfig?.(node.config) ?? {
      ok: true,
      config: node.config,
    };
    if (resolved.ok) return node.descriptor.createRuntime(resolved.config, setup);
    // SPEC Variables and secrets: a blocked or unknown name fails each message like a plugin
    // error (never retried), so onError decides what happens next.
    const failure = resolved.error;
    if (node.kind === 'trigger') {
      return {
        run: () => {
          throw StepFailure.nonRetryable(failure);
        },
      };
    }
    return {
      process: () => {
        throw StepFailure.nonRetryable(failure);
      },
    };
  }

  /** How a node whose input ended and whose work is done ends, under its trigger rule. */
  #completion(node: PlannedNode): NodeEnd {
    if (
      node.settings.trigger === 'ONE_SUCCESS' &&
      node.parents.length > 0 &&
      this.#parentsSucceeded[node.index] === 0
    ) {
      return new NodeEnd('UPSTREAM_FAILED', 'No parent completed');
    }
    return new NodeEnd('COMPLETED', '');
  }

  #finish(node: PlannedNode, outcome: NodeEnd): void {
    if (this.#finished[node.index] === true) return;
    this.#finished[node.index] = true;
    const state = this.#state(node.index);
    if (state.startedAt === null && outcome.status !== 'UPSTREAM_FAILED') {
      state.startedAt = this.#options.clock.now();
    }
    this.#setStatus(state, outcome.status, outcome.status === 'COMPLETED' ? null : outcome.message);
    const succeeded = outcome.status === 'COMPLETED';
    // Completion flows downstream: children see END once every edge into them has closed.
    for (const edgeTarget of this.#edgeTargets(node)) this.#inputs[edgeTarget]?.closeWriter();
    for (const child of node.children) this.#parentEnded(child, node, succeeded);
    if (node.sink && FAILED_STATUSES.has(outcome.status) && this.#ending === undefined) {
      this.#end(
        {
          status: 'FAILED',
          error: `Node '${node.nodeId}' ended ${outcome.status}: ${outcome.message}`,
        },
        'CANCELLED',
      );
    }
    if (++this.#finishedCount === this.#plan.nodes.length) {
      this.#deadline?.cancel();
      this.#options.clock.dispose();
      this.#resolveDone(this.#ending ?? { status: 'COMPLETED', error: null });
    }
  }

  /** One entry per outgoing edge, so each edge closes its writer slot exactly once. */
  #edgeTargets(node: PlannedNode): number[] {
    const targets = [...node.anyPort];
    for (const [, routed] of node.routes) {
      targets.push(...routed.slice(0, routed.length - node.anyPort.length));
    }
    return targets;
  }

  #parentEnded(childIndex: number, parent: PlannedNode, succeeded: boolean): void {
    this.#parentsEnded[childIndex] = (this.#parentsEnded[childIndex] ?? 0) + 1;
    if (succeeded)
      this.#parentsSucceeded[childIndex] = (this.#parentsSucceeded[childIndex] ?? 0) + 1;
    const child = this.#plan.nodes[childIndex];
    if (succeeded || child === undefined || child.settings.trigger !== 'ALL_SUCCESS') return;
    this.#endFromOutside(
      childIndex,
      new NodeEnd('UPSTREAM_FAILED', `Parent '${parent.nodeId}' did not complete`),
    );
  }

  // --- per-message plugins -------------------------------------------------------------

  /** Counts and records a message the node takes in. */
  #accept(node: PlannedNode, state: NodeState, message: Message): void {
    if (state.status === 'PENDING') this.#setStatus(state, 'RUNNING');
    state.messagesIn++;
    if (this.#trace) {
      this.#options.logger.trace(
        {
          executionId: this.#options.executionId,
          nodeId: node.nodeId,
          messageId: message.id,
          payload: message.payload,
        },
        'message in',
      );
    }
    if (node.kind === 'terminal') this.#options.listener.result(node.nodeId, message);
  }

  /** Processes one message; answers undefined when everything happened synchronously. */
  #handle(
    node: PlannedNode,
    runtime: MessageProcessor,
    ctx: NodeContext,
    message: Message,
  ): Promise<void> | undefined {
    let result: ProcessResult | Promise<ProcessResult>;
    try {
      result = runtime.process(message, ctx);
    } catch (error) {
      return this.#afterFailure(node, runtime, ctx, message, 1, error);
    }
    if (isThenable(result)) return this.#settle(node, runtime, ctx, message, 1, result);
    return this.#emitAll(node, message, result);
  }

  async #settle(
    node: PlannedNode,
    runtime: MessageProcessor,
    ctx: NodeContext,
    message: Message,
    attempt: number,
    result: Promise<ProcessResult>,
  ): Promise<void> {
    let emits: ProcessResult;
    try {
      emits = await this.#guard(node, result, true);
    } catch (error) {
      await this.#afterFailure(node, runtime, ctx, message, attempt, error);
      return;
    }
    await this.#emitAll(node, message, emits);
  }

  /**
   * Waits for a plugin's work under the node's clocks: the element timeout fails the attempt
   * and the idle timeout ends the node TIMED_OUT. Without either, the work is awaited as is.
   */
  #guard<T>(node: PlannedNode, work: Promise<T>, perMessage: boolean): Promise<T> {
    const elementMs = perMessage ? node.settings.elementTimeoutMs : undefined;
    const idleMs = node.idleTimeoutMs;
    if (elementMs === undefined && idleMs === undefined) return work;
    const { clock } = this.#options;
    return new Promise<T>((resolve, reject) => {
      const timers: TimerHandle[] = [];
      if (elementMs !== undefined) {
        timers.push(
          clock.after(elementMs, () => {
            reject(new ElementTimeout(`Message took longer than ${elementMs} ms`));
          }),
        );
      }
      if (idleMs !== undefined) {
        timers.push(
          clock.after(idleMs, () => {
            reject(new NodeEnd('TIMED_OUT', `Node was idle for ${idleMs / 1000} s`));
          }),
        );
      }
      work.then(
        (value) => {
          for (const timer of timers) timer.cancel();
          resolve(value);
        },
        (error: unknown) => {
          for (const timer of timers) timer.cancel();
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }

  /** Retries with backoff while a retry can help, then applies onError. */
  async #afterFailure(
    node: PlannedNode,
    runtime: MessageProcessor,
    ctx: NodeContext,
    message: Message,
    attempt: number,
    error: unknown,
  ): Promise<void> {
    if (error instanceof NodeEnd || this.#pendingEnds[node.index] !== undefined) throw error;
    const retryable = !(error instanceof StepFailure) || error.retryable;
    const { maxAttempts, backoffMs } = node.settings.retry;
    const state = this.#state(node.index);
    if (retryable && attempt < maxAttempts) {
      state.retries++;
      const delay = Math.min(MAX_BACKOFF_MS, backoffMs * 2 ** (attempt - 1));
      if (delay > 0) await this.#options.clock.sleep(delay, ctx.signal);
      const next: Message = {
        id: message.id,
        payload: message.payload,
        headers: { ...message.headers, attempt: attempt + 1 },
      };
      let result: ProcessResult | Promise<ProcessResult>;
      try {
        result = runtime.process(next, ctx);
      } catch (retryError) {
        await this.#afterFailure(node, runtime, ctx, message, attempt + 1, retryError);
        return;
      }
      await this.#settle(node, runtime, ctx, message, attempt + 1, Promise.resolve(result));
      return;
    }
    const reason = messageOf(error);
    switch (node.settings.onError) {
      case 'SKIP':
        state.skipped++;
        ctx.log.warn('Message skipped after failure', { messageId: message.id, error: reason });
        return;
      case 'ERROR_PORT':
        await this.#emitAll(node, message, { port: 'error', payload: { error: reason, message } });
        return;
      case 'FAIL':
        throw new NodeEnd('FAILURE', reason);
    }
  }

  // --- whole-stream plugins ------------------------------------------------------------

  async #runStream(node: PlannedNode, runtime: StreamNode, ctx: NodeContext): Promise<void> {
    const output = runtime.run(this.#inputStream(node), ctx);
    const iterator =
      Symbol.asyncIterator in output ? output[Symbol.asyncIterator]() : output[Symbol.iterator]();
    let index = 0;
    try {
      for (;;) {
        let next = iterator.next();
        if (next instanceof Promise) next = await this.#guard(node, next, false);
        if (next.done === true || this.#pendingEnds[node.index] !== undefined) return;
        const id = sourceMessageId(this.#options.lineage, node.key, index++);
        const pending = this.#emit(node, id, FIRST_ATTEMPT, next.value);
        if (pending !== undefined) await pending;
      }
    } catch (error) {
      if (error instanceof NodeEnd || this.#pendingEnds[node.index] !== undefined) throw error;
      const reason = messageOf(error);
      if (node.settings.onError === 'FAIL') throw new NodeEnd('FAILURE', reason);
      if (node.settings.onError === 'ERROR_PORT') {
        const id = sourceMessageId(this.#options.lineage, node.key, index);
        await this.#emit(node, id, FIRST_ATTEMPT, { port: 'error', payload: { error: reason } });
      }
    } finally {
      await iterator.return?.();
    }
  }

  async *#inputStream(node: PlannedNode): AsyncGenerator<Message> {
    const input = this.#inputs[node.index];
    if (input === undefined) return;
    const state = this.#state(node.index);
    for (;;) {
      let next = input.receive();
      if (next instanceof Promise) next = await next;
      if (next === END || this.#pendingEnds[node.index] !== undefined) return;
      this.#accept(node, state, next);
      yield next;
    }
  }

  // --- emitting ------------------------------------------------------------------------

  #emitAll(node: PlannedNode, input: Message, result: ProcessResult): Promise<void> | undefined {
    if (result === undefined) return undefined;
    if (!Array.isArray(result)) {
      return this.#emit(node, childMessageId(input.id, node.key, 0), input.headers, result as Emit);
    }
    const emits = result as readonly Emit[];
    for (let index = 0; index < emits.length; index++) {
      const emit = emits[index];
      if (emit === undefined) continue;
      const pending = this.#emit(
        node,
        childMessageId(input.id, node.key, index),
        input.headers,
        emit,
      );
      if (pending !== undefined) {
        return pending.then(() => this.#emitRest(node, input, emits, index + 1));
      }
    }
    return undefined;
  }

  async #emitRest(
    node: PlannedNode,
    input: Message,
    emits: readonly Emit[],
    from: number,
  ): Promise<void> {
    for (let index = from; index < emits.length; index++) {
      const emit = emits[index];
      if (emit !== undefined)
        await this.#emit(node, childMessageId(input.id, node.key, index), input.headers, emit);
    }
  }

  /** Sends one message to every child on its port, at the pace of the slowest child. */
  #emit(
    node: PlannedNode,
    id: string,
    inherited: MessageHeaders,
    emit: Emit,
  ): Promise<void> | undefined {
    if (this.#pendingEnds[node.index] !== undefined) return undefined;
    const state = this.#state(node.index);
    state.messagesOut++;
    const headers =
      emit.headers === undefined
        ? inherited.attempt === 1
          ? inherited
          : { ...inherited, attempt: 1 }
        : { ...inherited, ...emit.headers, attempt: 1 };
    const message: Message = { id, payload: emit.payload, headers };
    const targets = node.routes.get(emit.port ?? 'out') ?? node.anyPort;
    if (targets.length === 1) return this.#inputs[targets[0] ?? -1]?.send(message);
    let waiting: Promise<void>[] | undefined;
    for (const target of targets) {
      const pending = this.#inputs[target]?.send(message);
      if (pending !== undefined) (waiting ??= []).push(pending);
    }
    return waiting === undefined ? undefined : Promise.all(waiting).then(() => undefined);
  }
}
