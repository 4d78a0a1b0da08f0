// What one run needs from outside, and what it tells the outside: the sink its events go to,
// the host that runs sub-workflows and answers signal waits, the services every run of a
// server shares, and the options that make a run.
import type {
  Message,
  MessageProcessor,
  NodeRuntime,
  PluginMeter,
  SessionMemory,
  SignalAnswer,
  SignalRequest,
  SubWorkflowRequest,
} from '../../plugin-api/index.js';
import type { RecordedMessage } from '../checkpoints.js';
import type { NodeState, NodeStatus } from './node-state.js';
import type { PlannedNode, WorkflowPlan } from './plan.js';
import type { RunClock } from './run-clock.js';
import type { RunTracing } from './run-tracing.js';

/** The levels of the log lines a run writes. */
export const RUN_LOG_LEVELS = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR'] as const;

export type LogLevel = (typeof RUN_LOG_LEVELS)[number];

export interface RunLogEntry {
  readonly nodeId: string;
  readonly level: LogLevel;
  readonly message: string;
  readonly fields: Readonly<Record<string, unknown>>;
  /** The span of the attempt that wrote it, when the run is traced (SPEC Tracing). */
  readonly spanId?: string;
}

/**
 * Where a run reports what happens in it. Calls are synchronous and must not throw: the run
 * goes on whatever the sink does with them.
 */
export interface RunEventSink {
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
  /**
   * A node with `onError: DEAD_LETTER` gave up on a message after its retries
   * (docs/dead-letters.md); the node goes on with its next message.
   */
  deadLettered?(letter: DeadLetterNotice): void;
  /** A plugin reported something to count (`NodeContext.report`). */
  pluginEvent?(nodeId: string, event: string, outcome: string): void;
  /** Where plugins' meter calls go (`NodeContext.meter`); dropped when absent. */
  readonly pluginMeter?: PluginMeter;
}

/** One failed attempt of a message, in the order they were made. */
export interface FailedAttempt {
  readonly attempt: number;
  readonly error: string;
}

/** A message a node gave up on, with why and every attempt made on it. */
export interface DeadLetterNotice {
  readonly nodeId: string;
  readonly nodeType: string;
  /** The message as the node received it, attempt header and all. */
  readonly message: Message;
  readonly error: string;
  readonly attempts: readonly FailedAttempt[];
}

/** What a run asks of whoever hosts it: work that lives outside the run itself. */
export interface RunHost {
  /** Runs a sub-workflow for a node of the run (`SUB_WORKFLOW`). */
  runSubWorkflow(request: SubWorkflowRequest): Promise<readonly unknown[]>;
  /** Registers a signal wait with whoever answers signals; absent, waits are refused. */
  awaitSignal?(wait: SignalWait): PendingSignal;
}

export interface SignalWait extends SignalRequest {
  readonly nodeId: string;
}

/** A registered signal wait: its answer, and a way to withdraw it (timeout, cancel). */
export interface PendingSignal {
  readonly answer: Promise<SignalAnswer>;
  cancel(reason: 'timed_out' | 'cancelled'): void;
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
  /**
   * `svc.limits.max-payload`: an emitted payload larger than this, about its JSON length,
   * fails its message; DEFAULT_MAX_PAYLOAD_BYTES when absent.
   */
  readonly maxPayloadBytes?: number | undefined;
  /**
   * The spans of a run (SPEC Tracing), by execution id; absent when tracing is off. Asked once
   * per node, so that an untraced run holds nothing for tracing.
   */
  readonly tracing?: ((executionId: string) => RunTracing | undefined) | undefined;
}

export type ConfigResolver = (
  config: Readonly<Record<string, unknown>>,
) =>
  | { readonly ok: true; readonly config: Readonly<Record<string, unknown>> }
  | { readonly ok: false; readonly error: string };

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

export interface RunOptions {
  readonly executionId: string;
  readonly sessionId: string;
  readonly workflowId: string;
  /** Root of derived message ids: the same for a run and its restarts and resumes. */
  readonly lineage: string;
  readonly startPayload: unknown;
  readonly plan: WorkflowPlan;
  readonly clock: RunClock;
  readonly events: RunEventSink;
  readonly host: RunHost;
  readonly services: RunServices;
  /** Run deadline (SPEC `svc.session.execution-timeout-seconds`); none when absent. */
  readonly deadlineMs?: number | undefined;
  /** Capacity of every edge without a buffer. */
  readonly channelCapacity?: number | undefined;
  readonly replay?: ReplayPlan | undefined;
  /**
   * A runtime to use instead of the plugin's for a node, or undefined to make the plugin's: a
   * replay check answers nodes with outside effects from recordings, so that it calls nothing.
   */
  readonly substitute?: ((node: PlannedNode) => NodeRuntime | undefined) | undefined;
}
