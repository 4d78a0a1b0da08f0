// An execution as the registry holds it (CONTRACT section 3): the record's fields, its status
// moved only along the transition table, and the result events and log lines it keeps.
import type { LogLevel, NodeState, NodeStatus } from '../engine/index.js';
import type { EndedExecutions } from './ended-executions.js';
import { assertTransition, isTerminalExecutionStatus } from './execution-states.js';
import type { ExecutionStatus } from './execution-states.js';
import type { HELD_BYTES } from './held-bytes.js';

export interface NodeRecord {
  readonly status: NodeStatus;
  readonly startedAt: string | null;
  readonly endedAt: string | null;
  readonly messagesIn: number;
  readonly messagesOut: number;
  readonly retries: number;
  readonly error: string | null;
}

/** The `data` of `GET /api/executions/{id}`. */
export interface ExecutionRecord {
  readonly executionId: string;
  readonly sessionId: string;
  readonly workflowId: string;
  readonly workflowVersion: number;
  readonly status: ExecutionStatus;
  readonly priority: number;
  readonly createdAt: string;
  readonly startedAt: string | null;
  readonly endedAt: string | null;
  readonly error: string | null;
  readonly restartOf: string | null;
  readonly resumedFrom: string | null;
  readonly parentExecutionId: string | null;
  readonly nodes: Readonly<Record<string, NodeRecord>>;
  /** The run's OpenTelemetry trace id (32 hex characters); only when tracing is on. */
  readonly traceId?: string;
}

/**
 * Whether some results (log lines) of a run are no longer kept: SPEC's bounds dropped them, or
 * the run was cut off by a server restart before they could be stored.
 */
export interface NotKept {
  readonly results: boolean;
  readonly logs: boolean;
}

/** What a run kept of its results and log lines, for the execution log and after a restart. */
export interface RunOutputs {
  readonly results: readonly ResultEvent[];
  readonly logs: readonly LogEntry[];
  readonly resultsNotKept: boolean;
  readonly logsNotKept: boolean;
}

export interface ResultEvent {
  readonly seq: number;
  readonly timestamp: string;
  readonly nodeId: string;
  readonly messageId: string;
  readonly payload: unknown;
  /** What it counts against `svc.results.max-bytes`; a symbol, so answers never show it. */
  readonly [HELD_BYTES]?: number;
}

export interface LogEntry {
  readonly seq: number;
  readonly timestamp: string;
  readonly executionId: string;
  readonly nodeId: string;
  readonly level: LogLevel;
  readonly message: string;
  readonly fields: Readonly<Record<string, unknown>>;
  /** The run's trace id, when tracing is on (SPEC Tracing). */
  readonly traceId?: string;
  /** The span of the node attempt that wrote the line, when there is one. */
  readonly spanId?: string;
  /** What it counts against `svc.logs.store.max-bytes`. */
  readonly [HELD_BYTES]?: number;
}

/** The histories of the registry that have a byte budget (`svc.memory.dropped` tag `store`). */
export type BudgetedHistory = 'results' | 'logs';

export interface ExecutionFields {
  readonly executionId: string;
  readonly sessionId: string;
  readonly workflowId: string;
  readonly workflowVersion: number;
  readonly priority: number;
  readonly createdAt: number;
  readonly parentExecutionId: string | null;
  readonly depth: number;
  /** The execution this one restarts (restart, restart from a node, retry). */
  readonly restartOf?: string | null;
  /** The aborted execution this one resumes (recover). */
  readonly resumedFrom?: string | null;
  /** The status it starts in: QUEUED until it gets a slot; boot recovery gives the logged one. */
  readonly status?: ExecutionStatus;
  /** Sessions its sub-workflows may run in: the starting key's; null: every session. */
  readonly reach?: readonly string[] | null;
  /** A run of an earlier server process, restored from the durable execution log. */
  readonly restored?: boolean;
}

/**
 * One execution's live state. A class, so that every entry shares one shape: registries
 * hold thousands of them.
 */
export class ExecutionEntry implements ExecutionFields {
  readonly executionId: string;
  readonly sessionId: string;
  readonly workflowId: string;
  readonly workflowVersion: number;
  priority: number;
  readonly createdAt: number;
  readonly parentExecutionId: string | null;
  readonly depth: number;
  readonly restartOf: string | null;
  readonly resumedFrom: string | null;
  /** Creation order in its registry: lower is older. */
  readonly order: number;
  /** Shared with the key that started it, never copied: one reference per execution. */
  readonly reach: readonly string[] | null;
  readonly restored: boolean;
  #status: ExecutionStatus;
  /** Told when the execution ends, so that it may be dropped once the registry is full. */
  readonly #ended: EndedExecutions<ExecutionEntry> | undefined;
  startedAt: number | null = null;
  endedAt: number | null = null;
  error: string | null = null;
  /** Live node states of the run; empty until it starts. */
  nodes: readonly NodeState[] = [];
  /** The trace of its run when tracing is on: set when the run starts. */
  traceId: string | undefined = undefined;
  results: ResultEvent[] = [];
  logs: LogEntry[] = [];
  /** Bytes of `results` and `logs`, as their byte budgets count them. */
  resultBytes = 0;
  logBytes = 0;
  resultSeq = 0;
  logSeq = 0;
  /** Results or log lines were dropped (bounds, retention) or lost with a server restart. */
  resultsNotKept = false;
  logsNotKept = false;
  /** When result events were last written or read (SPEC `svc.results.ttl`). */
  resultsUsedAt = 0;
  /** Settles when the execution reaches a terminal status. */
  readonly finished: Promise<void>;
  #markFinished: () => void = () => undefined;

  constructor(fields: ExecutionFields, order = 0, ended?: EndedExecutions<ExecutionEntry>) {
    this.order = order;
    this.#ended = ended;
    this.executionId = fields.executionId;
    this.sessionId = fields.sessionId;
    this.workflowId = fields.workflowId;
    this.workflowVersion = fields.workflowVersion;
    this.priority = fields.priority;
    this.createdAt = fields.createdAt;
    this.parentExecutionId = fields.parentExecutionId;
    this.depth = fields.depth;
    this.restartOf = fields.restartOf ?? null;
    this.resumedFrom = fields.resumedFrom ?? null;
    this.reach = fields.reach ?? null;
    this.restored = fields.restored ?? false;
    this.#status = fields.status ?? 'QUEUED';
    if (isTerminalExecutionStatus(this.#status)) ended?.add(this);
    this.finished = new Promise<void>((resolve) => {
      this.#markFinished = resolve;
    });
  }

  get status(): ExecutionStatus {
    return this.#status;
  }

  /**
   * The one way an execution's status changes: only along EXECUTION_TRANSITIONS, any other
   * change throws ILLEGAL_TRANSITION.
   */
  transition(to: ExecutionStatus): void {
    assertTransition(this.executionId, this.#status, to);
    this.#status = to;
    if (isTerminalExecutionStatus(to)) this.#ended?.add(this);
  }

  markFinished(): void {
    this.#markFinished();
  }
}
