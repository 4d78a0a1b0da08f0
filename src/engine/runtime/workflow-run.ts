// One run of a prepared workflow: a task per node joined by bounded channels. The runner
// wraps every plugin the same way: control gates, retries with backoff, element and idle
// timeouts, onError, trigger rules, results, accounting, and cancellation (SPEC "States and
// transitions", CONTRACT section 4 run and node controls).
import { AppError, messageOf } from '../../core/index.js';
import { StepFailure, isStreamNode } from '../../plugin-api/index.js';
import type {
  Emit,
  Message,
  MessageHeaders,
  MessageProcessor,
  NodeContext,
  NodeLog,
  NodeRuntime,
  PluginMeter,
  ProcessResult,
  SessionMemory,
  SignalAnswer,
  SignalRequest,
  StreamNode,
  SubWorkflowRequest,
} from '../../plugin-api/index.js';
import type {
  CheckpointWriter,
  EncodedPayload,
  NodeRecorder,
  RecordedMessage,
  RecordingMessage,
} from '../checkpoints.js';
import { Channel, DroppingChannel, END } from '../streams/channel.js';
import type { NodeInput } from '../streams/channel.js';
import { childMessageId, plainLineage, sourceMessageId } from './message-ids.js';
import { NodeGate } from './node-gate.js';
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
  /** `previous` is the status the node showed before, for a live change of its status. */
  nodeChanged(state: Readonly<NodeState>, previous?: NodeStatus): void;
  /** The run was paused or resumed (CONTRACT section 1 execution statuses). */
  runChanged?(status: 'RUNNING' | 'PAUSED'): void;
  /** A message a terminal node received: a result (CONTRACT section 1). */
  result(nodeId: string, message: Message): void;
  log(entry: RunLogEntry): void;
  edgeDropped(nodeId: string): void;
  /** A node's checkpoint or end marker could not be saved: the node stays unmarked. */
  checkpointFailed?(nodeId: string, error: unknown): void;
  /** A plugin reported something to count (`NodeContext.report`). */
  pluginEvent?(nodeId: string, event: string, outcome: string): void;
  /** Where plugins' meter calls go (`NodeContext.meter`); dropped when absent. */
  readonly pluginMeter?: PluginMeter;
  /** Runs a sub-workflow for a node of the run (`SUB_WORKFLOW`). */
  runSubWorkflow(request: SubWorkflowRequest): Promise<readonly unknown[]>;
  /** Registers a signal wait with whoever answers signals; absent, waits are refused. */
  awaitSignal?(wait: SignalWait): PendingSignal;
}

/**
 * Restart, retry and recover (ARCHITECTURE "Checkpoints and replay"): nodes that emit their
 * recorded output again instead of running, and nodes left out of the run altogether.
 */
export interface ReplayPlan {
  readonly outputs: ReadonlyMap<string, readonly RecordedMessage[]>;
  readonly omitted: ReadonlySet<string>;
}

/** The part of a pino logger the engine uses, so the engine does not depend on pino. */
export interface EngineLogger {
  isLevelEnabled(level: string): boolean;
  trace(fields: object, message: string): void;
}

/**
 * What every run of a server shares: made once and handed to each run, so a run holds one
 * reference to it rather than a field for each (a parked run holds little).
 */
export interface RunServices {
  readonly logger: EngineLogger;
  /** Handed to plugins as `NodeSetup.sessionMemory`. */
  readonly sessionMemory?: SessionMemory | undefined;
  /**
   * Resolves `${env.NAME}`, `${sys.name}` and `decrypted:<name>` in a node's configuration
   * when the run starts; a failure fails every message of the node like a plugin error.
   */
  readonly resolveConfig?: ConfigResolver | undefined;
  /**
   * Where nodes with `engine.placement` run. The engine only asks it for a runtime: retries,
   * timeouts, onError, checkpoints and controls stay here, around that runtime.
   */
  readonly placement?: NodePlacement | undefined;
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
  readonly services: RunServices;
  /** Run deadline (SPEC `svc.session.execution-timeout-seconds`); none when absent. */
  readonly deadlineMs?: number | undefined;
  /** Capacity of every edge without a buffer. */
  readonly channelCapacity?: number | undefined;
  readonly replay?: ReplayPlan | undefined;
}

/** A node with `engine.placement`, as the placement port needs it. */
export interface PlacedNode {
  readonly executionId: string;
  readonly sessionId: string;
  readonly workflowId: string;
  readonly nodeId: string;
  readonly type: string;
  /** The pool named by `engine.placement`. */
  readonly pool: string;
  /**
   * The configuration as written: placeholders and secrets are resolved where the node runs,
   * with that place's environment and safeguards (SPEC Workflow-author safeguards).
   */
  readonly config: Readonly<Record<string, unknown>>;
  readonly startPayload: unknown;
}

/** Runs placed nodes elsewhere (remote workers); the engine knows nothing of how. */
export interface NodePlacement {
  /** The runtime of one placed node for one run; `close` is called when the node ends. */
  runtimeFor(node: PlacedNode): MessageProcessor;
}

export type ConfigResolver = (
  config: Readonly<Record<string, unknown>>,
) =>
  | { readonly ok: true; readonly config: Readonly<Record<string, unknown>> }
  | { readonly ok: false; readonly error: string };

export interface SignalWait extends SignalRequest {
  readonly nodeId: string;
}

/** A registered signal wait: its answer, and a way to withdraw it (timeout, cancel). */
export interface PendingSignal {
  readonly answer: Promise<SignalAnswer>;
  cancel(reason: 'timed_out' | 'cancelled'): void;
}

export interface RunOutcome {
  readonly status: RunEndStatus;
  readonly error: string | null;
}

const DEFAULT_CAPACITY = 64;
/** Messages a source emits between two turns it gives the event loop. */
const YIELD_EVERY = 16_384;

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
/** JSON.stringify as it really is: undefined for undefined, functions and symbols. */
const toJson = JSON.stringify as (value: unknown) => string | undefined;
/** SPEC "Log line losses": the output of a node without live logs is logged cut to this. */
const MAX_LOGGED_OUTPUT = 2048;
const MAX_BACKOFF_MS = 30_000;
const FIRST_ATTEMPT: MessageHeaders = Object.freeze({ attempt: 1 });
/** A run whose listener takes no meter calls drops them. */
const NO_METER: PluginMeter = Object.freeze({ count: () => undefined, observe: () => undefined });
/**
 * Where a message the engine sends on keeps what the checkpoint store made of its payload. A
 * symbol: plugins get the message object itself and neither see the key nor write it out.
 */
const ENCODED: unique symbol = Symbol('encoded payload');

/** A message as the engine sends it between nodes. */
interface SentMessage extends Message {
  [ENCODED]: EncodedPayload;
}
/** SKIPPED is missing on purpose: a skipped node shows it while it still passes messages. */
const TERMINAL_STATUSES: ReadonlySet<NodeStatus> = new Set([
  'COMPLETED',
  'FAILURE',
  'TIMED_OUT',
  'UPSTREAM_FAILED',
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

/**
 * Whether a status is one only an ended node has. SKIPPED is not: a node shows it while it is
 * skipped and still passing messages, and ends with it only when it ends skipped; ask
 * `isNodeEnded` whether a node has ended.
 */
export function isTerminalNodeStatus(status: NodeStatus): boolean {
  return TERMINAL_STATUSES.has(status);
}

/** Whether a node has ended; its status is then final. */
export function isNodeEnded(state: Readonly<NodeState>): boolean {
  return state.endedAt !== null;
}

/** How a node control reads in `NODE_NOT_CONTROLLABLE`: "Node 'x' cannot be paused". */
type NodeAction = 'paused' | 'resumed' | 'stepped' | 'stopped' | 'skipped' | 'unskipped';

/** A node's log: one object per node, its lines go to the run's listener. */
class ListenerLog implements NodeLog {
  /** Lines written: a node that wrote none has its output logged when it completes. */
  lines = 0;

  constructor(
    readonly listener: RunListener,
    readonly nodeId: string,
  ) {}

  #write(level: LogLevel, message: string, fields: Readonly<Record<string, unknown>> = {}): void {
    this.lines++;
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
  /** A node starts (+1) or stops (-1) waiting for a signal: its status shows WAITING. */
  readonly signalWaits: (nodeId: string, delta: number) => void;
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
  #log: ListenerLog | undefined;
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
    this.#scope.listener.pluginEvent?.(this.nodeId, event, outcome);
  }

  get meter(): PluginMeter {
    return this.#scope.listener.pluginMeter ?? NO_METER;
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
    return this.#scope.listener.runSubWorkflow(request);
  }

  awaitSignal(request: SignalRequest): Promise<SignalAnswer> {
    const signal = this.signal;
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    const scope = this.#scope;
    const nodeId = this.nodeId;
    const pending = scope.listener.awaitSignal?.({ ...request, nodeId });
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
 * The context of one attempt when a node has an element timeout: the node's context with a
 * signal of its own, aborted by the timeout or with the node.
 */
class AttemptContext implements NodeContext {
  readonly #parent: NodeContext;
  readonly #controller = new AbortController();
  readonly #parentSignal: AbortSignal;
  readonly #onParentAbort = (): void => {
    this.#controller.abort(this.#parentSignal.reason);
  };

  constructor(parent: NodeContext) {
    this.#parent = parent;
    this.#parentSignal = parent.signal;
    if (this.#parentSignal.aborted) this.#onParentAbort();
    else this.#parentSignal.addEventListener('abort', this.#onParentAbort, { once: true });
  }

  get executionId(): string {
    return this.#parent.executionId;
  }

  get sessionId(): string {
    return this.#parent.sessionId;
  }

  get workflowId(): string {
    return this.#parent.workflowId;
  }

  get nodeId(): string {
    return this.#parent.nodeId;
  }

  get log(): NodeLog {
    return this.#parent.log;
  }

  get startPayload(): unknown {
    return this.#parent.startPayload;
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  now(): number {
    return this.#parent.now();
  }

  report(event: string, outcome: string): void {
    this.#parent.report(event, outcome);
  }

  get meter(): PluginMeter {
    return this.#parent.meter;
  }

  sleep(ms: number, options?: { readonly signal?: AbortSignal }): Promise<void> {
    const own = options?.signal;
    return this.#parent.sleep(ms, {
      signal: own === undefined ? this.signal : AbortSignal.any([this.signal, own]),
    });
  }

  runSubWorkflow(request: SubWorkflowRequest): Promise<readonly unknown[]> {
    return this.#parent.runSubWorkflow(request);
  }

  awaitSignal(request: SignalRequest): Promise<SignalAnswer> {
    return this.#parent.awaitSignal(request);
  }

  abort(reason: unknown): void {
    this.#controller.abort(reason);
  }

  /** The attempt is over: it no longer follows the node's signal. */
  dispose(): void {
    this.#parentSignal.removeEventListener('abort', this.#onParentAbort);
  }
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

export class WorkflowRun {
  /** The nodes that take part in the run, in topological order. */
  readonly nodes: readonly NodeState[];
  /** Every node of the plan, by plan index; nodes left out of a replay have a state too. */
  readonly #states: readonly NodeState[];
  readonly done: Promise<RunOutcome>;
  readonly #options: RunOptions;
  readonly #plan: WorkflowPlan;
  readonly #inputs: readonly (NodeInput<Message> | undefined)[];
  readonly #contexts: readonly RunNodeContext[];
  /** Per node: signal waits under way (the node shows WAITING while there are any). */
  readonly #signalWaits: number[] = [];
  /** Whether `#finish` ran for a node: it runs exactly once, whoever ends the node. */
  readonly #finished: boolean[];
  #finishedCount = 0;
  /** Set when something outside a node's task ends it (cancel, upstream failure, deadline). */
  readonly #pendingEnds: (NodeEnd | undefined)[];
  /** Per node: parents that ended, and how many of them completed (trigger rules). */
  readonly #parentsEnded: number[];
  readonly #parentsSucceeded: number[];
  readonly #trace: boolean;
  /** The engine logs at DEBUG: a node that wrote no live logs has its output logged. */
  readonly #debug: boolean;
  /** How the run ends or ended: set when an end begins, or when the last node finished. */
  #ending: RunOutcome | undefined;
  #resolveDone: (outcome: RunOutcome) => void = () => undefined;
  #started = false;
  #deadline: TimerHandle | undefined;
  /**
   * One gate per node, made all at once by the first control: a run nobody steers never
   * allocates them, and its runners see `undefined` and go straight on.
   */
  #gates: readonly NodeGate[] | undefined;
  #paused = false;
  #checkpoints: CheckpointWriter | undefined;
  /** Per node, made when it first records: most nodes of a parked run never do. */
  #recorders: (NodeRecorder | undefined)[] | undefined;
  /** `options.lineage`, hashed when it has characters a message id must not have. */
  readonly #lineage: string;

  constructor(options: RunOptions) {
    this.#options = options;
    this.#lineage = plainLineage(options.lineage);
    this.#plan = options.plan;
    const capacity = options.channelCapacity ?? DEFAULT_CAPACITY;
    this.#states = this.#plan.nodes.map((node) => ({
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
      signalWaits: (nodeId, delta) => {
        const node = this.#plan.byId.get(nodeId);
        if (node === undefined) return;
        this.#signalWaits[node.index] = (this.#signalWaits[node.index] ?? 0) + delta;
        this.#showStatus(node.index);
      },
    };
    this.#contexts = this.#plan.nodes.map((node) => new RunNodeContext(scope, node.nodeId));
    const omitted = options.replay?.omitted;
    this.#finished = this.#plan.nodes.map((node) => omitted?.has(node.nodeId) === true);
    this.#finishedCount = omitted === undefined ? 0 : this.#finished.filter(Boolean).length;
    this.nodes =
      omitted === undefined || omitted.size === 0
        ? this.#states
        : this.#states.filter((state) => !omitted.has(state.nodeId));
    this.#pendingEnds = this.#plan.nodes.map(() => undefined);
    this.#parentsEnded = this.#plan.nodes.map(() => 0);
    this.#parentsSucceeded = this.#plan.nodes.map(() => 0);
    this.#trace = options.services.logger.isLevelEnabled('trace');
    this.#debug = options.services.logger.isLevelEnabled('debug');
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

  /** The run has ended, or is ending. */
  get ended(): boolean {
    return this.#ending !== undefined;
  }

  // --- controls (CONTRACT section 4 run and node controls) ------------------------------

  get paused(): boolean {
    return this.#paused;
  }

  /**
   * Freezes every clock of the run (SPEC States and transitions rule 1: a pause never causes
   * a timeout) and closes every gate: no node takes another message until `resume`; work
   * already inside a plugin call goes on.
   */
  pause(): void {
    this.#assertActive();
    if (this.#paused) return;
    this.#paused = true;
    this.#options.clock.pause();
    this.#options.listener.runChanged?.('PAUSED');
    for (const gate of this.#controlGates()) gate.setRunPaused(true);
  }

  /** Ends a run pause and lets every message held at a breakpoint go on. */
  resume(): void {
    this.#assertActive();
    if (this.#paused) {
      this.#paused = false;
      this.#options.clock.resume();
      this.#options.listener.runChanged?.('RUNNING');
    }
    // No gates: nothing was ever paused or held.
    for (const gate of this.#gates ?? []) gate.resumeRun();
  }

  /**
   * On a paused run, lets exactly one message through one node: the first node in topological
   * order that waits at its gate (holding a message or, for a source, about to ask for one),
   * unless the node is paused on its own. Answers that node's id, or null when none waits.
   */
  step(): string | null {
    this.#assertActive();
    if (!this.#paused) {
      throw new AppError('EXECUTION_NOT_PAUSED', {
        params: { executionId: this.#options.executionId },
      });
    }
    for (const gate of this.#controlGates()) {
      if (!gate.waiting || gate.paused || this.#hasEnded(gate.index)) continue;
      gate.step();
      return this.#plan.nodes[gate.index]?.nodeId ?? null;
    }
    return null;
  }

  /** Closes one node's gate and freezes its clock; the rest of the run goes on. */
  pauseNode(nodeId: string): void {
    this.#gateFor(this.#controllable(nodeId, 'paused')).setPaused(true);
  }

  /** Ends the node's own pause and lets a message held at its breakpoint go on. */
  resumeNode(nodeId: string): void {
    this.#gateFor(this.#controllable(nodeId, 'resumed')).resume();
  }

  /**
   * Lets one message through a held node (paused, run paused, or at a breakpoint): the one
   * waiting now, or else the next to arrive. Nothing happens to a node nothing holds.
   */
  stepNode(nodeId: string): void {
    this.#gateFor(this.#controllable(nodeId, 'stepped')).step();
  }

  /** Ends one node STOPPED at once; under the default trigger rule its children fail upstream. */
  stopNode(nodeId: string): void {
    const node = this.#controllable(nodeId, 'stopped');
    this.#endFromOutside(node.index, new NodeEnd('STOPPED', 'Stopped by a node control'));
  }

  /**
   * Passes each message on unchanged on port `out` without calling the plugin, until
   * `unskipNode`. Only processors: a trigger has nothing to pass and a terminal nowhere to.
   */
  skipNode(nodeId: string): void {
    this.#gateFor(this.#controllable(nodeId, 'skipped', true)).setSkipped(true);
  }

  unskipNode(nodeId: string): void {
    this.#gateFor(this.#controllable(nodeId, 'unskipped', true)).setSkipped(false);
  }

  /** Replaces the set of breakpoints: each of those nodes holds every message before taking it. */
  setBreakpoints(nodeIds: readonly string[]): void {
    const wanted = new Set(nodeIds.map((nodeId) => this.#node(nodeId).index));
    this.#assertActive();
    for (const gate of this.#controlGates()) gate.setBreakpoint(wanted.has(gate.index));
  }

  /** Nodes with a breakpoint, in topological order. */
  get breakpoints(): string[] {
    return (this.#gates ?? []).flatMap((gate) =>
      gate.breakpoint ? [this.#plan.nodes[gate.index]?.nodeId ?? ''] : [],
    );
  }

  #node(nodeId: string): PlannedNode {
    const node = this.#plan.byId.get(nodeId);
    if (node === undefined) {
      throw new AppError('NODE_NOT_FOUND', {
        params: { nodeId, executionId: this.#options.executionId },
      });
    }
    return node;
  }

  /** Checks what does not change first (the node, its kind), then the run and the node. */
  #controllable(nodeId: string, action: NodeAction, processorsOnly = false): PlannedNode {
    const node = this.#node(nodeId);
    if (processorsOnly && node.kind !== 'processor') {
      throw new AppError('NOT_A_PROCESSOR', { params: { nodeId, kind: node.kind } });
    }
    this.#assertActive();
    if (this.#hasEnded(node.index)) {
      throw new AppError('NODE_NOT_CONTROLLABLE', { params: { nodeId, action } });
    }
    return node;
  }

  #assertActive(): void {
    if (this.#ending === undefined) return;
    throw new AppError('EXECUTION_NOT_ACTIVE', {
      params: { executionId: this.#options.executionId, status: this.#ending.status },
    });
  }

  /** Ended, or being ended from outside and about to be. */
  #hasEnded(index: number): boolean {
    return this.#finished[index] === true || this.#pendingEnds[index] !== undefined;
  }

  #controlGates(): readonly NodeGate[] {
    if (this.#gates === undefined) {
      const changed = (gate: NodeGate): void => {
        this.#showControl(gate);
      };
      this.#gates = this.#plan.nodes.map((node) => new NodeGate(node.index, changed));
    }
    return this.#gates;
  }

  #gateFor(node: PlannedNode): NodeGate {
    const gate = this.#controlGates()[node.index];
    if (gate === undefined) throw new Error(`No gate for node ${node.index}`);
    return gate;
  }

  /**
   * Shows a gate's state in the node's status and clock. The node's own clock stands still
   * while it is paused or holds a message at its breakpoint, and runs during a step even on
   * a paused run, so that the stepped message can be dealt with.
   */
  #showControl(gate: NodeGate): void {
    const index = gate.index;
    if (this.#hasEnded(index)) return;
    const context = this.#contexts[index];
    const hold = (gate.paused || gate.atBreakpoint) && !gate.stepping;
    // A clock made now starts as its parent is; only a hold or a step needs one made.
    const clock = hold || gate.stepping ? context?.clock : context?.existingClock;
    if (clock !== undefined) {
      if (hold) clock.pause();
      else clock.resume();
      clock.setIndependent(gate.stepping);
    }
    this.#showStatus(index);
  }

  /**
   * A node's live status: WAITING while it holds a message at its breakpoint, PAUSED while
   * paused (a run pause shows only on nodes that have started) unless a step lets it work,
   * SKIPPED while skipped, and otherwise RUNNING once it has started.
   */
  #liveStatus(index: number): NodeStatus {
    const state = this.#state(index);
    const started = state.startedAt !== null;
    const gate = this.#gates?.[index];
    if ((this.#signalWaits[index] ?? 0) > 0) return 'WAITING';
    if (gate === undefined) return started ? 'RUNNING' : 'PENDING';
    if (gate.waiting && gate.atBreakpoint) return 'WAITING';
    if (!gate.stepping && (gate.paused || (gate.runPaused && started))) return 'PAUSED';
    if (gate.skipped) return 'SKIPPED';
    // A stepped node is taking its message: RUNNING from the step on, even before it starts.
    return started || gate.stepping ? 'RUNNING' : 'PENDING';
  }

  #showStatus(index: number): void {
    if (this.#hasEnded(index)) return;
    const state = this.#state(index);
    const status = this.#liveStatus(index);
    const previous = state.status;
    if (previous === status) return;
    state.status = status;
    this.#options.listener.nodeChanged(state, previous);
  }

  /** The node takes its first message (a trigger: it starts). */
  #markStarted(index: number): void {
    const state = this.#state(index);
    state.startedAt = this.#options.clock.now();
    this.#showStatus(index);
  }

  #state(index: number): NodeState {
    const state = this.#states[index];
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
    if (this.#hasEnded(index)) return false;
    this.#pendingEnds[index] = end;
    this.#contexts[index]?.abort(end);
    this.#inputs[index]?.cancel();
    // A task held at its gate goes on, finds the end and leaves.
    this.#gates?.[index]?.wake();
    return true;
  }

  async #runNode(node: PlannedNode): Promise<void> {
    // Left out of a replay: it neither runs nor replays.
    if (this.#finished[node.index] === true) return;
    const state = this.#state(node.index);
    const context = this.#contexts[node.index];
    if (context === undefined) return;
    let outcome: NodeEnd;
    let deadline: TimerHandle | undefined;
    const recorded = this.#options.replay?.outputs.get(node.nodeId);
    try {
      if (recorded !== undefined) {
        await this.#replay(node, recorded);
        outcome = this.#pendingEnds[node.index] ?? new NodeEnd('COMPLETED', '');
        const marking = this.#markEnd(node, outcome);
        if (marking !== undefined) await marking;
        this.#finish(node, outcome);
        return;
      }
      const runtime = this.#createRuntime(node);
      if (node.settings.deadlineMs !== undefined) {
        const ms = node.settings.deadlineMs;
        deadline = context.clock.after(ms, () => {
          this.#endFromOutside(
            node.index,
            new NodeEnd('TIMED_OUT', `Node deadline of ${ms} ms passed`),
          );
        });
      }
      if (node.kind === 'trigger') this.#markStarted(node.index);
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
            let pending: Promise<void> | undefined;
            const gate = this.#gates?.[node.index];
            if (gate === undefined || gate.free) {
              this.#accept(node, state, next);
              pending = this.#handle(node, runtime, context, next);
            } else {
              pending = this.#throughGate(node, gate, runtime, context, next);
            }
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
    if (this.#debug && outcome.status === 'COMPLETED') this.#logOutput(node, state, context);
    const marking = this.#markEnd(node, outcome);
    if (marking !== undefined) await marking;
    this.#finish(node, outcome);
  }

  /** SPEC "Log line losses": a node that wrote no live logs has its output logged, cut. */
  #logOutput(node: PlannedNode, state: NodeState, context: RunNodeContext): void {
    if (context.logged || state.messagesOut === 0) return;
    let output: string;
    try {
      output = toJson(context.lastOutput) ?? 'undefined';
    } catch {
      output = String(context.lastOutput);
    }
    this.#options.listener.log({
      nodeId: node.nodeId,
      level: 'DEBUG',
      message: output.length > MAX_LOGGED_OUTPUT ? output.slice(0, MAX_LOGGED_OUTPUT) : output,
      fields: {
        output: 'last',
        messagesOut: state.messagesOut,
        cut: output.length > MAX_LOGGED_OUTPUT,
      },
    });
  }

  /**
   * SPEC Checkpoint: a node that completed gets its end marker, durable before its children
   * see the completion. A marker that cannot be saved is reported and the run goes on; the
   * node stays unmarked, so a resume runs it again.
   */
  #markEnd(node: PlannedNode, outcome: NodeEnd): Promise<void> | undefined {
    if (this.#checkpoints === undefined) return undefined;
    if (outcome.status !== 'COMPLETED' && outcome.status !== 'SKIPPED') return undefined;
    if (this.#pendingEnds[node.index] !== undefined) return undefined;
    const failed = (error: unknown): void => {
      this.#options.listener.checkpointFailed?.(node.nodeId, error);
    };
    try {
      return this.#recorder(node).end()?.then(undefined, failed);
    } catch (error) {
      failed(error);
      return undefined;
    }
  }

  #recorder(node: PlannedNode): NodeRecorder {
    const recorders = (this.#recorders ??= []);
    let recorder = recorders[node.index];
    if (recorder === undefined) {
      recorder = (this.#checkpoints as CheckpointWriter).node(node.nodeId);
      recorders[node.index] = recorder;
    }
    return recorder;
  }

  /**
   * Records every emitted message and end marker with `writer` (SPEC Checkpoint); set before
   * `start`. Not an option, so that `stopRecording` can let the writer go.
   */
  recordTo(writer: CheckpointWriter): void {
    this.#checkpoints = writer;
  }

  /**
   * Stops recording: the run is no longer restartable (it left the archive), so what it
   * would record is not needed and its recorders are let go.
   */
  stopRecording(): void {
    this.#checkpoints = undefined;
    this.#recorders = undefined;
  }

  /**
   * A replayed node emits its recorded output again, with the same ids and ports, under the
   * same gate as a source: a paused or stepped run holds it like any node.
   */
  async #replay(node: PlannedNode, recorded: readonly RecordedMessage[]): Promise<void> {
    this.#markStarted(node.index);
    for (const message of recorded) {
      const gate = this.#gates?.[node.index];
      if (gate !== undefined && !gate.free) {
        gate.endStep();
        const waiting = gate.open ? undefined : gate.arrive();
        if (waiting !== undefined) await waiting;
      }
      if (this.#pendingEnds[node.index] !== undefined) return;
      const pending = this.#emit(node, message.id, message.headers, {
        port: message.port,
        payload: message.payload,
      });
      if (pending !== undefined) await pending;
    }
    this.#gates?.[node.index]?.endStep();
  }

  /** The plugin's runtime for the node's resolved configuration. */
  #createRuntime(node: PlannedNode): NodeRuntime {
    const pool = node.settings.placement;
    if (pool !== undefined) return this.#placedRuntime(node, pool);
    const setup = {
      nodeId: node.nodeId,
      sessionMemory: this.#options.services.sessionMemory,
    };
    const resolved = this.#options.services.resolveConfig?.(node.config) ?? {
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

  /**
   * A placed node's runtime comes from the placement port, with its configuration unresolved.
   * Validation lets only processors be placed, so a per-message runtime fits every one.
   */
  #placedRuntime(node: PlannedNode, pool: string): NodeRuntime {
    const placement = this.#options.services.placement;
    if (placement === undefined) {
      const failure = `Node '${node.nodeId}' is placed in pool '${pool}', but this server runs no remote workers`;
      return {
        process: () => {
          throw StepFailure.nonRetryable(failure);
        },
      };
    }
    const options = this.#options;
    return placement.runtimeFor({
      executionId: options.executionId,
      sessionId: options.sessionId,
      workflowId: options.workflowId,
      nodeId: node.nodeId,
      type: node.type,
      pool,
      config: node.config,
      startPayload: options.startPayload,
    });
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
    // The final status is decided here, when the node really ends: one skipped at its end
    // ends SKIPPED, which its children count as success.
    if (this.#gates?.[node.index]?.skipped === true) return new NodeEnd('SKIPPED', '');
    return new NodeEnd('COMPLETED', '');
  }

  #finish(node: PlannedNode, outcome: NodeEnd): void {
    if (this.#finished[node.index] === true) return;
    this.#finished[node.index] = true;
    const state = this.#state(node.index);
    const now = this.#options.clock.now();
    if (state.startedAt === null && outcome.status !== 'UPSTREAM_FAILED') state.startedAt = now;
    const succeeded = outcome.status === 'COMPLETED' || outcome.status === 'SKIPPED';
    state.endedAt = now;
    state.status = outcome.status;
    if (!succeeded) state.error = outcome.message;
    this.#options.listener.nodeChanged(state);
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
      this.#ending ??= { status: 'COMPLETED', error: null };
      this.#resolveDone(this.#ending);
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
    if (state.startedAt === null) this.#markStarted(node.index);
    state.messagesIn++;
    if (this.#trace) {
      this.#options.services.logger.trace(
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

  /**
   * The slow path of a message through a gate that is closed, skipping or in a step: waits
   * while the gate holds the node, then passes the message on unchanged (skipped) or hands it
   * to the plugin, and closes a step once the message has been dealt with.
   */
  #throughGate(
    node: PlannedNode,
    gate: NodeGate,
    runtime: MessageProcessor,
    ctx: NodeContext,
    message: Message,
  ): Promise<void> | undefined {
    const waiting = gate.open ? undefined : gate.arrive();
    if (waiting !== undefined) {
      return waiting.then(() => this.#pastGate(node, gate, runtime, ctx, message));
    }
    return this.#pastGate(node, gate, runtime, ctx, message);
  }

  #pastGate(
    node: PlannedNode,
    gate: NodeGate,
    runtime: MessageProcessor,
    ctx: NodeContext,
    message: Message,
  ): Promise<void> | undefined {
    // Ended while held: the message is dropped like everything else in its input.
    if (this.#pendingEnds[node.index] !== undefined) return undefined;
    this.#accept(node, this.#state(node.index), message);
    const pending = gate.skipped
      ? this.#passThrough(node, message)
      : this.#handle(node, runtime, ctx, message);
    if (!gate.stepping) return pending;
    if (pending === undefined) {
      gate.endStep();
      return undefined;
    }
    return pending.finally(() => {
      gate.endStep();
    });
  }

  /** A skipped node's output: the message unchanged on port `out`, with a derived id. */
  #passThrough(node: PlannedNode, message: Message): Promise<void> | undefined {
    return this.#emit(
      node,
      childMessageId(message.id, node.key, 0),
      message.headers,
      { payload: message.payload },
      message,
    );
  }

  /** Processes one message; answers undefined when everything happened synchronously. */
  #handle(
    node: PlannedNode,
    runtime: MessageProcessor,
    ctx: NodeContext,
    message: Message,
  ): Promise<void> | undefined {
    if (node.settings.elementTimeoutMs !== undefined) {
      return this.#handleAttempt(node, runtime, ctx, message);
    }
    let result: ProcessResult | Promise<ProcessResult>;
    try {
      result = runtime.process(message, ctx);
    } catch (error) {
      return this.#afterFailure(node, runtime, ctx, message, 1, error);
    }
    if (isThenable(result)) return this.#settle(node, runtime, ctx, message, 1, result);
    return this.#emitAll(node, message, result);
  }

  /** `#handle` for a node with an element timeout: the attempt has a signal of its own. */
  #handleAttempt(
    node: PlannedNode,
    runtime: MessageProcessor,
    ctx: NodeContext,
    message: Message,
  ): Promise<void> | undefined {
    let result: ProcessResult | Promise<ProcessResult>;
    const attemptCtx = new AttemptContext(ctx);
    try {
      result = runtime.process(message, attemptCtx);
    } catch (error) {
      attemptCtx.dispose();
      return this.#afterFailure(node, runtime, ctx, message, 1, error);
    }
    if (isThenable(result)) {
      return this.#settle(node, runtime, ctx, message, 1, result, attemptCtx);
    }
    attemptCtx.dispose();
    return this.#emitAll(node, message, result);
  }

  /**
   * With `engine.elementTimeoutMs` each attempt gets a signal of its own, aborted when its
   * time passes, so what the plugin started (a process, a request) stops with the attempt.
   */
  #attemptContext(node: PlannedNode, ctx: NodeContext): NodeContext {
    return node.settings.elementTimeoutMs === undefined ? ctx : new AttemptContext(ctx);
  }

  async #settle(
    node: PlannedNode,
    runtime: MessageProcessor,
    ctx: NodeContext,
    message: Message,
    attempt: number,
    result: Promise<ProcessResult>,
    attemptCtx: NodeContext = ctx,
  ): Promise<void> {
    let emits: ProcessResult;
    const scoped = attemptCtx instanceof AttemptContext ? attemptCtx : undefined;
    try {
      emits = await this.#guard(node, result, true, scoped);
    } catch (error) {
      await this.#afterFailure(node, runtime, ctx, message, attempt, error);
      return;
    } finally {
      scoped?.dispose();
    }
    await this.#emitAll(node, message, emits);
  }

  /**
   * Waits for a plugin's work under the node's clocks: the element timeout fails the attempt
   * and the idle timeout ends the node TIMED_OUT. Without either, the work is awaited as is.
   */
  #guard<T>(
    node: PlannedNode,
    work: Promise<T>,
    perMessage: boolean,
    attempt?: AttemptContext,
  ): Promise<T> {
    const elementMs = perMessage ? node.settings.elementTimeoutMs : undefined;
    const idleMs = node.idleTimeoutMs;
    if (elementMs === undefined && idleMs === undefined) return work;
    const clock = this.#clockOf(node);
    return new Promise<T>((resolve, reject) => {
      const timers: TimerHandle[] = [];
      if (elementMs !== undefined) {
        timers.push(
          clock.after(elementMs, () => {
            const timeout = new ElementTimeout(`Message took longer than ${elementMs} ms`);
            attempt?.abort(timeout);
            reject(timeout);
          }),
        );
      }
      if (idleMs !== undefined) {
        timers.push(
          clock.after(idleMs, () => {
            const end = new NodeEnd('TIMED_OUT', `Node was idle for ${idleMs / 1000} s`);
            // The plugin is told to stop too: what it started (a request, a process, a
            // signal wait) ends with the node rather than outliving it.
            this.#markEnded(node.index, end);
            reject(end);
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
      if (delay > 0) await this.#clockOf(node).sleep(delay, ctx.signal);
      const next: Message = {
        id: message.id,
        payload: message.payload,
        headers: { ...message.headers, attempt: attempt + 1 },
      };
      let result: ProcessResult | Promise<ProcessResult>;
      const attemptCtx = this.#attemptContext(node, ctx);
      try {
        result = runtime.process(next, attemptCtx);
      } catch (retryError) {
        if (attemptCtx instanceof AttemptContext) attemptCtx.dispose();
        await this.#afterFailure(node, runtime, ctx, message, attempt + 1, retryError);
        return;
      }
      await this.#settle(
        node,
        runtime,
        ctx,
        message,
        attempt + 1,
        Promise.resolve(result),
        attemptCtx,
      );
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

  /** The node's own clock: its timers freeze when the node or the run is paused. */
  #clockOf(node: PlannedNode): RunClock {
    return this.#contexts[node.index]?.clock ?? this.#options.clock;
  }

  // --- whole-stream plugins ------------------------------------------------------------

  async #runStream(node: PlannedNode, runtime: StreamNode, ctx: NodeContext): Promise<void> {
    const output = runtime.run(this.#inputStream(node), ctx);
    const iterator =
      Symbol.asyncIterator in output ? output[Symbol.asyncIterator]() : output[Symbol.iterator]();
    // A source's gate stands before each emit it is asked for; a node with input has its
    // gate on the input (`#inputStream`), so what it emits for a taken message flows on.
    const source = this.#inputs[node.index] === undefined;
    let index = 0;
    try {
      for (;;) {
        if (source) {
          const gate = this.#gates?.[node.index];
          if (gate !== undefined && !gate.free) {
            // The step, if any, covered the emit just made.
            gate.endStep();
            const waiting = gate.open ? undefined : gate.arrive();
            if (waiting !== undefined) await waiting;
            if (this.#pendingEnds[node.index] !== undefined) return;
          }
        }
        let next = iterator.next();
        if (next instanceof Promise) next = await this.#guard(node, next, false);
        if (next.done === true || this.#pendingEnds[node.index] !== undefined) return;
        const id = sourceMessageId(this.#lineage, node.key, index++);
        const pending = this.#emit(node, id, FIRST_ATTEMPT, next.value);
        if (pending !== undefined) await pending;
        // A source that never has to wait would hold the event loop for the whole run:
        // requests, streams and other runs get a turn every so many messages.
        if (source && index % YIELD_EVERY === 0) await nextTurn();
      }
    } catch (error) {
      if (error instanceof NodeEnd || this.#pendingEnds[node.index] !== undefined) throw error;
      const reason = messageOf(error);
      if (node.settings.onError === 'FAIL') throw new NodeEnd('FAILURE', reason);
      if (node.settings.onError === 'ERROR_PORT') {
        const id = sourceMessageId(this.#lineage, node.key, index);
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
      const gate = this.#gates?.[node.index];
      if (gate === undefined || gate.free) {
        this.#accept(node, state, next);
        yield next;
        continue;
      }
      const waiting = gate.open ? undefined : gate.arrive();
      if (waiting !== undefined) await waiting;
      if (this.#pendingEnds[node.index] !== undefined) return;
      this.#accept(node, state, next);
      if (gate.skipped) {
        const pending = this.#passThrough(node, next);
        if (pending !== undefined) await pending;
      } else {
        yield next;
      }
      // The plugin asks for more: it has dealt with the stepped message.
      gate.endStep();
    }
  }

  // --- emitting ------------------------------------------------------------------------

  #emitAll(node: PlannedNode, input: Message, result: ProcessResult): Promise<void> | undefined {
    if (result === undefined) return undefined;
    if (!Array.isArray(result)) {
      const emit = result as Emit;
      return this.#emit(node, childMessageId(input.id, node.key, 0), input.headers, emit, input);
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
        input,
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
        await this.#emit(
          node,
          childMessageId(input.id, node.key, index),
          input.headers,
          emit,
          input,
        );
    }
  }

  /**
   * Sends one message to every child on its port, at the pace of the slowest child. `input` is
   * the message the node was handling, whose payload it may be passing on.
   */
  #emit(
    node: PlannedNode,
    id: string,
    inherited: MessageHeaders,
    emit: Emit,
    input?: Message,
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
    const message: SentMessage = { id, payload: emit.payload, headers, [ENCODED]: undefined };
    if (this.#debug) {
      const context = this.#contexts[node.index];
      if (context !== undefined) context.lastOutput = emit.payload;
    }
    const port = emit.port ?? 'out';
    const targets = node.routes.get(port) ?? node.anyPort;
    if (this.#checkpoints !== undefined) {
      const recording: RecordingMessage = { id, port, payload: emit.payload, headers };
      // A payload passed on unchanged is not encoded again (EncodedPayload).
      if (input !== undefined && input.payload === emit.payload) {
        recording.encoded = (input as Partial<SentMessage>)[ENCODED];
      }
      const recorded = this.#recorder(node).record(recording);
      message[ENCODED] = recording.encoded;
      // The store holds too much unwritten: the node waits for it as for a full edge.
      if (recorded !== undefined) {
        const sent = this.#send(targets, message);
        return sent === undefined ? recorded : Promise.all([recorded, sent]).then(() => undefined);
      }
    }
    return this.#send(targets, message);
  }

  #send(targets: readonly number[], message: Message): Promise<void> | undefined {
    if (targets.length === 1) return this.#inputs[targets[0] ?? -1]?.send(message);
    let waiting: Promise<void>[] | undefined;
    for (const target of targets) {
      const pending = this.#inputs[target]?.send(message);
      if (pending !== undefined) (waiting ??= []).push(pending);
    }
    return waiting === undefined ? undefined : Promise.all(waiting).then(() => undefined);
  }
}
