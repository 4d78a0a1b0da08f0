// Every use case on executions (SPEC "Execution calls", CONTRACT section 4): starts, run and
// node controls, signals, restarts and recovery, and the views and streams of executions. The
// REST API and the tool endpoint call these alike, so each rule is written once: control
// commands are reviewed by the supervisors and audited with their actor here, and an
// execution is reached through the session a caller names here.
import { AppError } from '../core/index.js';
import type {
  AuditEntry,
  AuditLog,
  AuditQuery,
  EventBus,
  Subscription,
  EventFeeds,
  ProgressHistory,
  SupervisorView,
  Supervisors,
} from '../events/index.js';
import { describeEdits, isTerminalExecutionStatus } from '../executions/index.js';
import type {
  AdmissionLimits,
  Approval,
  CheckpointView,
  ReplayCheckResult,
  NodeMessage,
  ExecutionEntry,
  ExecutionEvent,
  ExecutionManager,
  ExecutionRecord,
  ExecutionRegistry,
  ExecutionStatus,
  LogEntry,
  RestartMode,
  ResultEvent,
  SignalCommand,
  StartAnswer,
  StartOptions,
  StartRequest,
} from '../executions/index.js';
import { audited, auditedAsync } from './control-desk.js';
import type { ReplayCheckBody } from './repair-schemas.js';
import { assertLimitRanges } from './limit-ranges.js';
import type { ControlDesk } from './control-desk.js';
import { waitForRun } from './run-waiter.js';
import type { RunWaitOptions, RunWaitOutcome } from './run-waiter.js';
import { followEvents, followLogs, followProgress } from './execution-streams.js';
import type {
  EventQuery,
  EventSink,
  ExecutionStreamOptions,
  StreamSources,
} from './execution-streams.js';
import { logLines, progressSnapshot, searchPage } from './execution-views.js';
import { firstResult } from './first-result.js';
import type { FirstResult } from './first-result.js';
import type {
  ExecutionPage,
  ExecutionSearch,
  LogQuery,
  ProgressSnapshot,
} from './execution-views.js';
import { schedulerQueue } from './scheduler-views.js';
import type { ControlBusStatus, LimitChanges, SchedulerQueue } from './scheduler-views.js';

export interface ExecutionServiceDeps {
  readonly executions: ExecutionManager;
  readonly registry: ExecutionRegistry;
  readonly audit: AuditLog;
  readonly supervisors: Supervisors;
  readonly bus: EventBus;
  /** Live events of the global stream, shared by the clients of the same filter. */
  readonly feeds: EventFeeds;
  readonly progress: ProgressHistory;
}

export type RunAction = 'PAUSE' | 'RESUME' | 'STEP';
export type NodeAction = 'PAUSE' | 'RESUME' | 'STEP' | 'STOP' | 'SKIP' | 'UNSKIP';

/** What a run command answers: the run's status after it. */
/** `GET /api/executions/{id}/nodes/{nodeId}/messages`: which messages, and which page. */
export interface NodeMessageQuery {
  readonly direction: 'in' | 'out';
  readonly limit: number;
  /** The `nextCursor` of the page before: an offset. */
  readonly cursor?: string | undefined;
}

export interface NodeMessagePage {
  readonly items: NodeMessage[];
  readonly nextCursor: string | null;
}

export interface RunState {
  readonly executionId: string;
  readonly status: ExecutionStatus;
}

/** What a node command answers: the node's status after it, null before the run starts. */
export interface NodeState {
  readonly executionId: string;
  readonly nodeId: string;
  readonly status: ExecutionEntry['nodes'][number]['status'] | null;
}

export interface NodeCommand {
  readonly executionId: string;
  readonly nodeId: string;
  readonly action: NodeAction;
  /**
   * Whether approval fields came with the command: they belong to the signal call, so the
   * command is refused, and audited as refused (SPEC Errors, 403).
   */
  readonly withApprovalFields?: boolean;
}

export interface SignalAnswer {
  readonly executionId: string;
  readonly nodeId: string;
  readonly messageId: string;
  readonly approved: boolean;
}

export interface HistoryQuery {
  readonly workflowId?: string | undefined;
  readonly status?: ExecutionStatus | undefined;
  readonly limit: number;
}

const EXECUTION_STREAMS = { logs: followLogs, progress: followProgress } as const;
export type ExecutionStream = keyof typeof EXECUTION_STREAMS;

/** The audit names each restart kind after its call (SPEC "Restart rules"). */
const RESTART_COMMANDS = {
  whole: 'RESTART',
  from: 'RESTART_FROM_NODE',
  retry: 'RETRY',
} as const satisfies Record<RestartMode['kind'], string>;

/** What the audit records of a restart's edited inputs and version (docs/run-repair.md). */
function restartDetail(mode: RestartMode): string | null {
  if (mode.kind === 'retry') return null;
  const parts: string[] = [];
  if (mode.kind === 'from' && mode.inputs !== undefined && mode.inputs.length > 0) {
    parts.push(`inputs: ${describeEdits(mode.inputs)}`);
  }
  if (mode.version !== undefined) parts.push(`version ${String(mode.version)}`);
  return parts.length === 0 ? null : parts.join('; ');
}

export class ExecutionService {
  readonly #executions: ExecutionManager;
  readonly #registry: ExecutionRegistry;
  readonly #desk: ControlDesk;
  readonly #streams: StreamSources;

  constructor(deps: ExecutionServiceDeps) {
    this.#executions = deps.executions;
    this.#registry = deps.registry;
    this.#desk = {
      audit: deps.audit,
      supervisors: deps.supervisors,
      sessionOf: (executionId) => this.sessionOf(executionId) ?? null,
    };
    this.#streams = {
      bus: deps.bus,
      feeds: deps.feeds,
      progress: deps.progress,
      registry: deps.registry,
      flow: {
        flowOf: (executionId) => deps.executions.flowOf(executionId),
        now: () => Date.now(),
      },
    };
  }

  // --- Reaching an execution --------------------------------------------------------------

  /** The session an execution belongs to; undefined when it is unknown. */
  sessionOf(executionId: string): string | undefined {
    return this.#registry.get(executionId)?.sessionId;
  }

  /**
   * Refuses an execution of another session than the one the caller named, like an unknown
   * one (SPEC Errors, 404): a caller limited to a session learns nothing of the others.
   */
  assertInSession(sessionId: string, executionId: string): void {
    this.#inSession(sessionId, executionId);
  }

  #inSession(sessionId: string, executionId: string): ExecutionEntry {
    const entry = this.#executions.require(executionId);
    if (entry.sessionId !== sessionId) {
      throw new AppError('EXECUTION_NOT_FOUND', { params: { executionId } });
    }
    return entry;
  }

  /** The execution, of `sessionId` when one is named. */
  #reach(executionId: string, sessionId: string | undefined): ExecutionEntry {
    return sessionId === undefined
      ? this.#executions.require(executionId)
      : this.#inSession(sessionId, executionId);
  }

  // --- Starting ---------------------------------------------------------------------------

  /** Starts (or queues) a run; starts are not audited (SPEC Events 8). */
  start(request: StartRequest, options?: StartOptions): Promise<StartAnswer> {
    return this.#executions.start(request, options);
  }

  // --- Views ------------------------------------------------------------------------------

  read(executionId: string): ExecutionRecord {
    return this.#registry.toRecord(this.#executions.require(executionId));
  }

  /** The record with its progress; of `sessionId` when one is named. */
  status(executionId: string, sessionId?: string): ProgressSnapshot {
    return progressSnapshot(this.#registry, this.#reach(executionId, sessionId));
  }

  /** A session's executions, newest first. */
  history(sessionId: string, { limit, ...filters }: HistoryQuery): ExecutionRecord[] {
    this.#executions.assertLeader();
    return this.#registry
      .search({ ...filters, sessionId })
      .slice(0, limit)
      .map((entry) => this.#registry.toRecord(entry));
  }

  search(search: ExecutionSearch): ExecutionPage {
    this.#executions.assertLeader();
    return searchPage(this.#registry, search);
  }

  /** A run of the workflow that has not ended, the newest; undefined when none. */
  underWay(sessionId: string, workflowId: string): StartAnswer | undefined {
    const entry = this.#registry
      .search({ sessionId, workflowId })
      .find((candidate) => !isTerminalExecutionStatus(candidate.status));
    return entry && { executionId: entry.executionId, status: entry.status };
  }

  /** The run's first terminal message, its end without one, or nothing within `timeoutMs`. */
  firstResult(executionId: string, timeoutMs: number): Promise<FirstResult> {
    const entry = this.#executions.require(executionId);
    return firstResult(this.#streams.bus, this.#registry, entry, timeoutMs);
  }

  results(executionId: string): readonly ResultEvent[] {
    return this.#registry.resultsOf(this.#executions.require(executionId));
  }

  logs(executionId: string, query: LogQuery): LogEntry[] {
    return logLines(this.#registry, this.#executions.require(executionId), query);
  }

  approvals(executionId: string): Approval[] {
    return this.#executions.approvalsOf(executionId);
  }

  sessionApprovals(sessionId: string): Approval[] {
    this.#executions.assertLeader();
    return this.#executions.approvalsOfSession(sessionId);
  }

  breakpoints(executionId: string): string[] {
    return this.#executions.breakpoints(executionId);
  }

  checkpoints(executionId: string): Promise<CheckpointView> {
    return this.#executions.checkpointsOf(executionId);
  }

  /** One page of what a node received or sent, oldest first; the cursor is where it ends. */
  async nodeMessages(
    executionId: string,
    nodeId: string,
    query: NodeMessageQuery,
  ): Promise<NodeMessagePage> {
    const messages = await this.#executions.nodeMessages(executionId, nodeId, query.direction);
    const from = query.cursor === undefined ? 0 : Number(query.cursor);
    const to = from + query.limit;
    return {
      items: messages.slice(from, to),
      nextCursor: to < messages.length ? String(to) : null,
    };
  }

  /**
   * Replay check (docs/run-repair.md): the run's inputs through another version or a draft,
   * compared per node. It changes nothing, so it is not a control command and is not audited.
   */
  replayCheck(executionId: string, body: ReplayCheckBody): Promise<ReplayCheckResult> {
    // The body's schema lets exactly one of the two through.
    const { version = 0, definition } = body;
    return this.#executions.replayCheck(
      executionId,
      definition === undefined ? { version } : { definition },
    );
  }

  get limits(): AdmissionLimits {
    return this.#executions.limits;
  }

  /** The starts waiting for a slot, in queue order, each with what holds it back. */
  queue(): SchedulerQueue {
    return schedulerQueue(this.#executions.waiting(), this.#executions.running, this.limits);
  }

  controlStatus(): ControlBusStatus {
    return {
      running: this.#executions.running,
      queued: this.#executions.queued,
      limits: this.#executions.limits,
      supervisors: this.#desk.supervisors.list(),
      leader: this.#executions.isLeader,
    };
  }

  auditTrail(query: AuditQuery): AuditEntry[] {
    this.#executions.assertLeader();
    return this.#desk.audit.list(query);
  }

  supervisors(): SupervisorView[] {
    return this.#desk.supervisors.list();
  }

  // --- Streams ----------------------------------------------------------------------------

  /** The global event stream into `sink`. */
  followEvents(query: EventQuery, after: number | null, sink: EventSink): void {
    followEvents(this.#streams, query, after, sink);
  }

  /**
   * One execution's stream after `after`: its log entries, or its state events with their
   * progress. `open` makes the client's stream once the execution is known, so that an
   * unknown one (or one of another session) is answered as an error, not as a stream.
   */
  followExecution(
    stream: ExecutionStream,
    sessionId: string,
    executionId: string,
    after: number | null,
    open: () => EventSink,
    options: ExecutionStreamOptions = {},
  ): void {
    const entry = this.#inSession(sessionId, executionId);
    EXECUTION_STREAMS[stream](this.#streams, entry, after, open(), options);
  }

  /** Every event of one execution, as it is published, until the subscription is closed. */
  watch(executionId: string, listener: (event: ExecutionEvent) => void): Subscription {
    const { executionId: id } = this.#executions.require(executionId);
    return this.#streams.bus.subscribe(
      (event) => event.executionId === id,
      (numbered) => {
        listener(numbered.event);
      },
    );
  }

  /** Follows a run until it ends, waits for an approval, or `timeoutMs` passes. */
  waitFor(executionId: string, options: RunWaitOptions): Promise<RunWaitOutcome> {
    return waitForRun(this, executionId, options);
  }

  // --- Control commands, each reviewed and audited as sent by `actor` ---------------------
  // `actor` is the caller SPEC "Audit actor naming" records; null when none is recorded.

  control(executionId: string, action: RunAction, actor: string | null): RunState {
    const entry = audited(this.#desk, actor, { command: action, executionId }, () =>
      this.#executions.control(executionId, action),
    );
    return { executionId: entry.executionId, status: entry.status };
  }

  /** Stops a run, or takes a waiting start out of the queue. */
  stop(executionId: string, actor: string | null): RunState {
    const entry = audited(this.#desk, actor, { command: 'STOP', executionId }, () =>
      this.#executions.stop(executionId, 'Stopped by request'),
    );
    return { executionId: entry.executionId, status: entry.status };
  }

  controlNode(command: NodeCommand, actor: string | null): NodeState {
    const { executionId, nodeId, action } = command;
    const entry = audited(this.#desk, actor, { command: action, executionId, nodeId }, () => {
      if (command.withApprovalFields === true) {
        throw new AppError('APPROVAL_ON_CONTROL', { params: { executionId, nodeId } });
      }
      return this.#executions.controlNode(executionId, nodeId, action);
    });
    const node = entry.nodes.find((candidate) => candidate.nodeId === nodeId);
    return { executionId: entry.executionId, nodeId, status: node?.status ?? null };
  }

  /** Answers the approval a WAIT_FOR_SIGNAL node waits for. */
  signal(
    executionId: string,
    nodeId: string,
    command: SignalCommand,
    actor: string | null,
  ): SignalAnswer {
    const approval = audited(this.#desk, actor, { command: 'SIGNAL', executionId, nodeId }, () =>
      this.#executions.signal(executionId, nodeId, command),
    );
    return { executionId, nodeId, messageId: approval.messageId, approved: command.approved };
  }

  /** Replaces the breakpoints of a run; answers them. */
  setBreakpoints(executionId: string, nodeIds: readonly string[], actor: string | null): string[] {
    return audited(this.#desk, actor, { command: 'BREAKPOINTS', executionId }, () =>
      this.#executions.setBreakpoints(executionId, nodeIds),
    );
  }

  /** Sets or clears the breakpoint of one node, keeping the others; answers them all. */
  setBreakpoint(
    executionId: string,
    nodeId: string,
    enabled: boolean,
    actor: string | null,
  ): string[] {
    const others = this.#executions.breakpoints(executionId).filter((known) => known !== nodeId);
    return audited(this.#desk, actor, { command: 'BREAKPOINTS', executionId, nodeId }, () =>
      this.#executions.setBreakpoints(executionId, enabled ? [...others, nodeId] : others),
    );
  }

  /** SPEC rule 3: only while the execution waits for a slot. */
  setPriority(
    executionId: string,
    priority: number,
    actor: string | null,
  ): { readonly executionId: string; readonly priority: number } {
    const entry = audited(this.#desk, actor, { command: 'PRIORITY', executionId }, () =>
      this.#executions.setPriority(executionId, priority),
    );
    return { executionId: entry.executionId, priority: entry.priority };
  }

  /**
   * Changes admission limits without a restart. The change is applied again after a restart,
   * so it is durable before it is answered.
   */
  async setLimits(changes: LimitChanges, actor: string | null): Promise<AdmissionLimits> {
    const given = Object.fromEntries(
      Object.entries(changes).filter(([, value]) => value !== undefined),
    ) as Partial<AdmissionLimits>;
    assertLimitRanges(given);
    const limits = audited(this.#desk, actor, { command: 'SCHEDULER_LIMITS' }, () =>
      this.#executions.setLimits(given),
    );
    await this.#executions.durableNow();
    return limits;
  }

  /**
   * Restart, restart from a node or retry a node: a new execution (SPEC "Restart rules");
   * `reach`: the sessions of the caller's key, which the new run's sub-workflows keep to.
   */
  restart(
    executionId: string,
    mode: RestartMode,
    actor: string | null,
    reach: readonly string[] | null = null,
  ): Promise<StartAnswer> {
    return auditedAsync(
      this.#desk,
      actor,
      {
        command: RESTART_COMMANDS[mode.kind],
        executionId,
        nodeId: mode.kind === 'whole' ? null : mode.nodeId,
        detail: restartDetail(mode),
      },
      () => this.#executions.restart(executionId, mode, reach),
    );
  }

  /** Resumes an aborted execution from its checkpoints (SPEC "Recover conditions"). */
  recover(
    executionId: string,
    actor: string | null,
    reach: readonly string[] | null = null,
  ): Promise<StartAnswer> {
    return auditedAsync(this.#desk, actor, { command: 'RECOVER', executionId }, () =>
      this.#executions.recover(executionId, reach),
    );
  }
}
