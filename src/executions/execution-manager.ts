// Starting and following executions: prepares the workflow (a cached plan per version),
// runs it on the engine, and keeps its record, results and logs in the registry.
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { AppError, messageOf } from '../core/index.js';
import type { Meters, Tracer } from '../observability/index.js';
import type { Clock, IdGenerator } from '../core/index.js';
import {
  RunClock,
  WorkflowRun,
  isNodeEnded,
  prepareWorkflow,
  realTimers,
} from '../engine/index.js';
import type {
  CheckpointStore,
  CheckpointWriter,
  ConfigResolver,
  NodeCheckpointSummary,
  NodePlacement,
  LogLevel,
  RecordedApproval,
  RecordedMessage,
  ReplayPlan,
  PendingSignal,
  SignalWait,
  NodeState,
  NodeStatus,
  PluginCatalog,
  RunListener,
  RunLogEntry,
  RunOutcome,
  RunServices,
  SessionStore,
  TimerScheduler,
  WorkflowPlan,
} from '../engine/index.js';
import { StepFailure } from '../plugin-api/index.js';
import type {
  Message,
  PluginMeter,
  SessionMemory,
  SubWorkflowRequest,
} from '../plugin-api/index.js';
import { Admission, REFUSAL_MESSAGES } from './admission.js';
import type { AdmissionLimits, Candidate, RefusalReason } from './admission.js';
import { IdempotencyKeys } from './idempotency-keys.js';
import { Approvals } from './approvals.js';
import type { Approval, SignalCommand } from './approvals.js';
import { isTerminalExecutionStatus } from './execution-registry.js';
import { NODE_STATUS_EVENTS, RUN_STATUS_EVENTS } from './execution-events.js';
import type { ExecutionEventKind, ExecutionEventSink } from './execution-events.js';
import type { ExecutionEntry, ExecutionRegistry, ExecutionStatus } from './execution-registry.js';
import { ABORTED_MESSAGE } from './execution-journal.js';
import type { ExecutionJournal, RunHistory } from './execution-journal.js';
import type { LeaderRole } from './leadership.js';
import { replayShape } from './replay-planning.js';

/** SPEC "Limits": sub-workflow nesting depth. */
export const MAX_NESTING_DEPTH = 5;

export interface ExecutionManagerDeps {
  readonly store: SessionStore;
  readonly catalog: PluginCatalog;
  readonly registry: ExecutionRegistry;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** The stream engine's logger: node log lines and, at TRACE, message payloads. */
  readonly logger: Logger;
  readonly workers: boolean;
  /** SPEC `svc.session.execution-timeout-seconds`, in milliseconds. */
  readonly runDeadlineMs: number;
  /** How long a prepared workflow stays cached while unused (SPEC `workflow.cache.ttl.ms`). */
  readonly planTtlMs: number;
  readonly timers?: TimerScheduler;
  readonly meters: Meters;
  /** Session histories of SESSION_MEMORY nodes, shared by every run of a session. */
  readonly sessionMemory?: SessionMemory;
  readonly resolveConfig?: ConfigResolver;
  /** Where nodes with `engine.placement` run (remote workers); absent in a build without. */
  readonly placement?: NodePlacement | undefined;
  /** Admission limits at start-up (SPEC `svc.execution.*`); off when absent. */
  readonly limits?: AdmissionLimits;
  /** SPEC `svc.start.idempotency-*`. */
  readonly idempotency?: { readonly maxKeys: number; readonly ttlMs: number };
  /** Where run and node events go (event streams, supervisors). */
  readonly events?: ExecutionEventSink;
  /** Where runs record what their nodes emit (SPEC Checkpoint); nothing is recorded without. */
  readonly checkpoints?: CheckpointStore;
  /** The execution log; only a durable one records anything. */
  readonly journal?: ExecutionJournal;
  /** SPEC `svc.restart.retained-executions`: the newest executions that can be restarted. */
  readonly retainedForRestart?: number;
  /** SPEC Restart rule 6: how long a restart waits for its new run to be accepted. */
  readonly restartAcceptMs?: number;
  /** SPEC Tracing: receives `svc.run` and `svc.node` observations; none in the standard build. */
  readonly tracer?: Tracer;
  /** High availability: only the leader admits runs. Without it this server always leads. */
  readonly leadership?: LeaderRole;
}

/** Everything a run of an execution needs, for a start and for a restart, retry or recover. */
interface Launch {
  readonly request: StartRequest;
  readonly plan: WorkflowPlan;
  readonly version: number;
  /** Root of derived message ids; absent: the new execution's own id. */
  readonly lineage?: string;
  readonly restartOf?: string;
  readonly resumedFrom?: string;
  readonly replay?: ReplayPlan;
  /** Answers recorded by the run this one resumes, by node and message. */
  readonly approvals?: ReadonlyMap<string, RecordedApproval>;
}

/** What a restart needs of an execution it can restart (SPEC Restart rule 1: the archive). */
interface Archived {
  readonly launch: Launch;
  readonly lineage: string;
  /** The execution whose checkpoints this one's left-out nodes can be found in. */
  readonly source: string | null;
}

export type RestartMode =
  | { readonly kind: 'whole' }
  | { readonly kind: 'from'; readonly nodeId: string }
  | { readonly kind: 'retry'; readonly nodeId: string };

/** CONTRACT section 4: `GET /api/executions/{id}/checkpoints`. */
export interface CheckpointView {
  readonly executionId: string;
  /** The checkpoint store's kind; null when nothing is recorded. */
  readonly store: string | null;
  readonly nodes: Readonly<Record<string, Omit<NodeCheckpointSummary, 'nodeId'>>>;
}

/** Whether `promise` settles within `ms`. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => {
      resolve(false);
    }, ms);
  });
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Largest start payload the execution log records; a larger one cannot be recovered. */
const MAX_RECORDED_PAYLOAD = 1_048_576;

export interface StartOptions {
  /** SPEC: the same key within its window answers the first start and starts nothing. */
  readonly idempotencyKey?: string | undefined;
}

/** A start waiting for a slot. */
interface Waiting {
  readonly entry: ExecutionEntry;
  readonly launch: Launch;
  readonly queuedAt: number;
  timeout: ReturnType<typeof setTimeout> | undefined;
  /** Queue time left before `svc.execution.queue-timeout`; null without a timeout. */
  remainingMs: number | null;
  armedAt: number;
  /** SPEC rule 1: a pause freezes the queue clock too; the run starts paused. */
  paused: boolean;
}

const LIMITS_OFF: AdmissionLimits = {
  maxConcurrent: null,
  maxPerSession: null,
  maxPerWorkflow: null,
  onLimit: 'REJECT',
  queueCapacity: 100,
  queueTimeout: null,
};

export interface StartRequest {
  readonly sessionId: string;
  readonly workflowId: string;
  readonly payload?: unknown;
  readonly priority?: number | undefined;
}

export interface StartAnswer {
  readonly executionId: string;
  readonly status: ExecutionStatus;
}

interface CachedPlan {
  readonly plan: WorkflowPlan;
  lastUsed: number;
}

interface Live {
  readonly run: WorkflowRun;
  readonly recorder: RunRecorder;
  /** Sub-workflow runs it started; made by the first, as most runs start none. */
  children: Set<string> | undefined;
}

const LOG_METHODS = {
  TRACE: 'trace',
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warn',
  ERROR: 'error',
} as const satisfies Record<LogLevel, string>;

export class ExecutionManager {
  readonly #deps: ExecutionManagerDeps;
  /** Shared by every run this manager starts. */
  readonly #runServices: RunServices;
  readonly #plans = new Map<string, CachedPlan>();
  readonly #live = new Map<string, Live>();
  readonly #waiting = new Map<string, Waiting>();
  readonly #admission: Admission;
  readonly #approvals: Approvals;
  readonly #idempotency: IdempotencyKeys<StartAnswer>;
  /** SPEC Restart rule 1: the newest executions, oldest first. */
  readonly #archive = new Map<string, Archived>();
  /** Executions a restart (rule 5) or a recover (rule 4) is under way for. */
  readonly #restarting = new Set<string>();
  readonly #resuming = new Set<string>();
  readonly #hashes = new WeakMap<WorkflowPlan, string>();
  #lastSweep = 0;

  constructor(deps: ExecutionManagerDeps) {
    this.#deps = deps;
    this.#runServices = {
      logger: deps.logger,
      sessionMemory: deps.sessionMemory,
      resolveConfig: deps.resolveConfig,
      placement: deps.placement,
    };
    this.#admission = new Admission(deps.limits ?? LIMITS_OFF);
    this.#approvals = new Approvals(
      () => deps.clock.now(),
      (kind, approval, fields) => {
        const entry = deps.registry.get(approval.executionId);
        if (entry !== undefined) this.emit(entry, kind, { nodeId: approval.nodeId, ...fields });
      },
    );
    this.#idempotency = new IdempotencyKeys(
      deps.idempotency?.maxKeys ?? 100_000,
      deps.idempotency?.ttlMs ?? 600_000,
      () => deps.clock.now(),
    );
    this.#updateGauges();
  }

  /**
   * Starts a run of the workflow's current version, or queues it (SPEC States and
   * transitions). A repeated idempotency key answers the first start, even while that start
   * is still being admitted.
   */
  start(request: StartRequest, options: StartOptions = {}): Promise<StartAnswer> {
    if (!this.isLeader) return Promise.reject(this.#notLeader());
    const key = options.idempotencyKey;
    if (key === undefined) return this.#startNew(request);
    return this.#idempotency
      .once(key, () => this.#startNew(request))
      .then((first) => ({
        executionId: first.executionId,
        status: this.#deps.registry.get(first.executionId)?.status ?? first.status,
      }));
  }

  get limits(): AdmissionLimits {
    return this.#admission.limits;
  }

  /** Whether this server leads; always without high availability. */
  get isLeader(): boolean {
    return this.#deps.leadership?.isLeader ?? true;
  }

  /**
   * SPEC States and transitions: a start on a standby admits nothing and is answered 503;
   * counted in `svc.executions.rejected` with reason `not_leader`.
   */
  #notLeader(): AppError {
    this.#deps.meters.count('svc.executions.rejected', { reason: 'not_leader' });
    return new AppError('NOT_LEADER');
  }

  /**
   * Changes admission limits without a restart; queued starts that now fit begin. A change
   * is recorded in the leader's log, so a standby refuses it.
   */
  setLimits(changes: Partial<AdmissionLimits>, record = true): AdmissionLimits {
    if (record && !this.isLeader) throw new AppError('NOT_LEADER');
    const admitted = this.#admission.setLimits({ ...this.#admission.limits, ...changes });
    const limits = this.#admission.limits;
    if (record) this.#deps.journal?.limits({ ...limits });
    this.#deps.events?.({
      kind: 'scheduler.limits',
      timestamp: new Date(this.#deps.clock.now()).toISOString(),
      executionId: null,
      sessionId: null,
      workflowId: null,
      limits: { ...limits },
    });
    for (const candidate of admitted) this.#admitQueued(candidate);
    this.#updateGauges();
    return limits;
  }

  /** Resolves once everything the execution log was given so far is durable. */
  durableNow(): Promise<void> {
    return this.#deps.journal?.durableNow() ?? Promise.resolve();
  }

  /** SPEC rule 3: only while the execution waits for a slot. */
  setPriority(executionId: string, priority: number): ExecutionEntry {
    const entry = this.require(executionId);
    if (entry.status !== 'QUEUED' || !this.#admission.reprioritise(executionId, priority)) {
      throw new AppError('NOT_WAITING_FOR_SLOT', { params: { executionId } });
    }
    entry.priority = priority;
    return entry;
  }

  /** Stops a run, or takes a waiting start out of the queue. */
  stop(executionId: string, reason = 'Stopped'): ExecutionEntry {
    const entry = this.require(executionId);
    const waiting = this.#waiting.get(executionId);
    if (waiting !== undefined) {
      this.#endWaiting(waiting, 'STOPPED', reason);
      return entry;
    }
    const live = this.#live.get(executionId);
    if (live === undefined) {
      throw new AppError('EXECUTION_NOT_ACTIVE', { params: { executionId, status: entry.status } });
    }
    live.run.stop(reason);
    return entry;
  }

  /**
   * Restart, restart from a node, retry a node (SPEC "Restart rules"): a new execution of the
   * same workflow version and start payload that takes a slot like any start. From a node,
   * the finished nodes feeding it replay their recorded output and independent branches are
   * left out. The original is stopped if it is still going.
   */
  async restart(executionId: string, mode: RestartMode): Promise<StartAnswer> {
    // Before the archive is asked: a standby has none, and the leader may have the run.
    if (!this.isLeader) throw this.#notLeader();
    const entry = this.require(executionId);
    const archived = this.#archive.get(executionId);
    if (archived === undefined) {
      throw new AppError('NOT_RESTARTABLE', {
        params: { executionId, retained: this.#deps.retainedForRestart ?? 10 },
      });
    }
    if (this.#restarting.has(executionId)) {
      throw new AppError('RESTART_IN_PROGRESS', { params: { executionId } });
    }
    this.#restarting.add(executionId);
    try {
      const replay =
        mode.kind === 'whole' ? undefined : await this.#replayFor(entry, archived, mode);
      const acceptMs = this.#deps.restartAcceptMs ?? 30_000;
      if (!isTerminalExecutionStatus(entry.status)) {
        this.stop(executionId, 'Stopped by a restart');
        if (!(await settlesWithin(entry.finished, acceptMs))) {
          throw new AppError('RESTART_NOT_ACCEPTED', {
            params: { executionId, seconds: acceptMs / 1000 },
          });
        }
      }
      const { launch } = archived;
      return await this.#admit({
        request: launch.request,
        plan: launch.plan,
        version: launch.version,
        lineage: archived.lineage,
        restartOf: executionId,
        ...(replay === undefined ? {} : { replay }),
      });
    } finally {
      this.#restarting.delete(executionId);
    }
  }

  /** Rules 2 to 4: what a restart from a node replays, or why it cannot. */
  async #replayFor(
    entry: ExecutionEntry,
    archived: Archived,
    mode: { readonly kind: 'from' | 'retry'; readonly nodeId: string },
  ): Promise<ReplayPlan> {
    const { executionId } = entry;
    const refuse = (detail: string): never => {
      throw new AppError('RESTART_REFUSED', { params: { executionId, detail } });
    };
    const { plan } = archived.launch;
    if (!plan.byId.has(mode.nodeId)) refuse(`node '${mode.nodeId}' is not in the workflow`);
    if (mode.kind === 'retry') {
      const status = entry.nodes.find((node) => node.nodeId === mode.nodeId)?.status;
      if (status !== 'FAILURE' && status !== 'TIMED_OUT') {
        refuse(`node '${mode.nodeId}' did not fail (it is ${status ?? 'not part of the run'})`);
      }
    }
    const shape = replayShape(plan, [mode.nodeId]);
    const outputs = new Map<string, readonly RecordedMessage[]>();
    for (const feeder of shape.feeders) {
      const state = entry.nodes.find((node) => node.nodeId === feeder);
      if (state !== undefined && !isNodeEnded(state)) {
        refuse(`node '${feeder}' is still producing output`);
      }
      outputs.set(feeder, await this.#recordedOutput(executionId, feeder, refuse));
    }
    return { outputs, omitted: shape.omitted };
  }

  /**
   * A node's complete recorded output in an execution, or in the one it restarted when the
   * node was left out of it.
   */
  async #recordedOutput(
    executionId: string,
    nodeId: string,
    refuse: (detail: string) => never,
  ): Promise<readonly RecordedMessage[]> {
    const store = this.#deps.checkpoints;
    let holder: string | null = executionId;
    while (holder !== null && store !== undefined) {
      const node = (await store.summary(holder))?.find((summary) => summary.nodeId === nodeId);
      if (node !== undefined) {
        if (node.truncated) {
          refuse(
            `the output of node '${nodeId}' went over the in-memory checkpoint caps (set svc.restart.spill-dir or svc.restart.dir to keep it)`,
          );
        }
        const output = node.complete ? await store.output(holder, nodeId) : undefined;
        if (output === undefined) refuse(`node '${nodeId}' has no complete recorded output`);
        return output;
      }
      holder = this.#archive.get(holder)?.source ?? null;
    }
    return refuse(`node '${nodeId}' has no complete recorded output`);
  }

  /**
   * Recover (SPEC "Recover conditions"): resumes an ABORTED run as a new execution; finished
   * nodes are replayed from their checkpoints and unfinished ones run. A run is resumed once.
   */
  async recover(executionId: string): Promise<StartAnswer> {
    if (!this.isLeader) throw this.#notLeader();
    const entry = this.require(executionId);
    const refuse = (detail: string): never => {
      throw new AppError('RECOVER_REFUSED', { params: { executionId, detail } });
    };
    const { journal, checkpoints, store } = this.#deps;
    if (journal?.durable !== true) {
      refuse(
        'recover needs a durable execution log (svc.execution-log.dir, or the postgres store)',
      );
    }
    if (checkpoints?.durable !== true) {
      refuse(
        'recover needs a file or relational checkpoint store (svc.restart.dir, or the postgres store)',
      );
    }
    if (entry.status !== 'ABORTED') refuse(`it is ${entry.status}, not ABORTED`);
    const history = journal?.run(executionId);
    if (history === undefined) return refuse('it is no longer in the execution log');
    if (history.resumedBy !== null) refuse(`it was already resumed as '${history.resumedBy}'`);
    if (this.#resuming.has(executionId)) refuse('it is being resumed');
    this.#resuming.add(executionId);
    try {
      const { sessionId, workflowId } = entry;
      const current = (await store.getWorkflow(sessionId, workflowId))?.versions.at(-1);
      if (current === undefined) {
        throw new AppError('WORKFLOW_NOT_FOUND', { params: { sessionId, workflowId } });
      }
      const plan = this.#plan(`${sessionId}\u0000${workflowId}\u0000${current.version}`, () =>
        prepareWorkflow(current.definition, this.#deps.catalog, { workers: this.#deps.workers }),
      );
      if (this.#hashOf(plan) !== history.accepted.definitionHash) {
        refuse('the workflow changed since the run started');
      }
      if (!history.accepted.payloadRecorded) refuse('its start payload was not recorded');
      const launch = await this.#resumeLaunch(history, plan, current.version, refuse);
      const answer = await this.#admit(launch);
      journal?.resumed(executionId, answer.executionId);
      await journal?.durableNow();
      return answer;
    } finally {
      this.#resuming.delete(executionId);
    }
  }

  async #resumeLaunch(
    history: RunHistory,
    plan: WorkflowPlan,
    version: number,
    refuse: (detail: string) => never,
  ): Promise<Launch> {
    const { accepted } = history;
    const store = this.#deps.checkpoints as CheckpointStore;
    const summary = (await store.summary(accepted.executionId)) ?? [];
    const finished = new Set(summary.filter((node) => node.complete).map((node) => node.nodeId));
    const unfinished = plan.nodes.filter((node) => !finished.has(node.nodeId));
    if (unfinished.length === 0) refuse('every node already finished');
    const shape = replayShape(
      plan,
      unfinished.map((node) => node.nodeId),
    );
    const outputs = new Map<string, readonly RecordedMessage[]>();
    for (const feeder of shape.feeders) {
      const output = await store.output(accepted.executionId, feeder);
      if (output === undefined) refuse(`node '${feeder}' has no complete recorded output`);
      outputs.set(feeder, output);
    }
    const approvals = new Map<string, RecordedApproval>();
    for (const answer of await store.approvals(accepted.executionId)) {
      approvals.set(approvalKey(answer.nodeId, answer.messageId), answer);
    }
    return {
      request: {
        sessionId: accepted.sessionId,
        workflowId: accepted.workflowId,
        payload: accepted.payload,
        priority: accepted.priority,
      },
      plan,
      version,
      lineage: accepted.lineage,
      resumedFrom: accepted.executionId,
      replay: { outputs, omitted: shape.omitted },
      approvals,
    };
  }

  /** CONTRACT section 4: per node, messages recorded, bytes, complete or not. */
  async checkpointsOf(executionId: string): Promise<CheckpointView> {
    this.require(executionId);
    const store = this.#deps.checkpoints;
    const nodes: Record<string, Omit<NodeCheckpointSummary, 'nodeId'>> = {};
    for (const { nodeId, ...rest } of (await store?.summary(executionId)) ?? []) {
      nodes[nodeId] = rest;
    }
    return { executionId, store: store?.kind ?? null, nodes };
  }

  /**
   * On start with a durable execution log (SPEC "Recover conditions"): interrupted runs end
   * ABORTED, the newest runs come back into history, and the newest limit change applies
   * again. With `svc.restart.auto-resume` every interrupted run is then resumed in turn.
   */
  async boot(options: { readonly autoResume: boolean }): Promise<string[]> {
    const aborted = await this.#recoverLog();
    if (options.autoResume) await this.resumeInterrupted(aborted);
    return aborted;
  }

  /**
   * SPEC `svc.restart.auto-resume`: resumes each interrupted run in turn; one that cannot be
   * resumed is logged and skipped.
   */
  async resumeInterrupted(executionIds: readonly string[]): Promise<void> {
    for (const executionId of executionIds) {
      try {
        await this.recover(executionId);
      } catch (error) {
        this.#deps.logger.warn(
          { executionId, error: messageOf(error) },
          'Interrupted run not resumed',
        );
      }
    }
  }

  /** The boot recovery of the execution log; answers the runs it found interrupted. */
  async #recoverLog(): Promise<string[]> {
    const journal = this.#deps.journal;
    if (journal === undefined) return [];
    const recovered = await journal.boot();
    for (const run of recovered.runs) this.#restore(run);
    for (const executionId of recovered.aborted) {
      await this.#reconcile(executionId);
      const entry = this.#deps.registry.get(executionId);
      // Clients that follow the events from the start of this server learn of them too.
      if (entry !== undefined) {
        this.emit(entry, 'execution.aborted', { status: entry.status, error: entry.error });
      }
    }
    if (recovered.limits !== undefined) {
      this.setLimits(recovered.limits, false);
    }
    const store = this.#deps.checkpoints;
    if (store?.durable === true) {
      const kept = new Set(recovered.runs.map((run) => run.accepted.executionId));
      for (const executionId of await store.executions()) {
        if (!kept.has(executionId)) await store.drop(executionId);
      }
    }
    return [...recovered.aborted];
  }

  /**
   * An interrupted run's nodes as their end markers tell (SPEC Checkpoint: a node is finished
   * when its marker exists): a crash can come after a marker and before the log has the
   * node's end.
   */
  async #reconcile(executionId: string): Promise<void> {
    const store = this.#deps.checkpoints;
    const entry = this.#deps.registry.get(executionId);
    if (store?.durable !== true || entry === undefined) return;
    const finished = ((await store.summary(executionId)) ?? []).filter((node) => node.complete);
    if (finished.length === 0) return;
    const workflow = await this.#deps.store.getWorkflow(entry.sessionId, entry.workflowId);
    const definition = workflow?.versions.find(
      (version) => version.version === entry.workflowVersion,
    )?.definition;
    const nodes = [...entry.nodes];
    for (const { nodeId, messages } of finished) {
      const known = nodes.findIndex((node) => node.nodeId === nodeId);
      const state = nodes[known];
      if (state?.status === 'COMPLETED' || state?.status === 'SKIPPED') continue;
      const type = definition?.nodes.find((node) => node.nodeId === nodeId)?.type ?? 'UNKNOWN';
      const completed: NodeState = {
        nodeId,
        type: state?.type ?? type,
        status: 'COMPLETED',
        startedAt: state?.startedAt ?? null,
        endedAt: state?.endedAt ?? entry.endedAt,
        messagesIn: state?.messagesIn ?? 0,
        messagesOut: Math.max(state?.messagesOut ?? 0, messages),
        retries: state?.retries ?? 0,
        skipped: 0,
        dropped: 0,
        error: null,
      };
      if (known === -1) nodes.push(completed);
      else nodes[known] = completed;
    }
    entry.nodes = nodes;
  }

  /** Puts a run of the execution log back into history. */
  #restore(run: RunHistory): void {
    const { accepted } = run;
    const entry = this.#deps.registry.create({
      executionId: accepted.executionId,
      sessionId: accepted.sessionId,
      workflowId: accepted.workflowId,
      workflowVersion: accepted.workflowVersion,
      priority: accepted.priority,
      createdAt: accepted.at,
      parentExecutionId: accepted.parentExecutionId,
      depth: 0,
      restartOf: accepted.restartOf,
      resumedFrom: accepted.resumedFrom,
    });
    const ended = run.ended;
    entry.status = (ended?.status ?? 'ABORTED') as ExecutionStatus;
    entry.error = ended?.error ?? ABORTED_MESSAGE;
    entry.startedAt = run.started?.at ?? null;
    entry.endedAt = ended?.at ?? null;
    entry.nodes = [...run.nodes.values()].map((event): NodeState => {
      const done = event.type === 'node.ended';
      return {
        nodeId: event.nodeId,
        type: event.nodeType,
        status: done ? (event.status as NodeState['status']) : 'CANCELLED',
        startedAt: done ? event.startedAt : event.at,
        endedAt: done ? event.at : (ended?.at ?? null),
        messagesIn: done ? event.messagesIn : 0,
        messagesOut: done ? event.messagesOut : 0,
        retries: done ? event.retries : 0,
        skipped: 0,
        dropped: 0,
        error: done ? event.error : ABORTED_MESSAGE,
      };
    });
    entry.markFinished();
  }

  /** @internal A WAIT_FOR_SIGNAL node of `entry` waits. */
  registerSignal(entry: ExecutionEntry, wait: SignalWait): PendingSignal {
    return this.#approvals.register(entry, wait);
  }

  /** Answers a WAIT_FOR_SIGNAL wait (CONTRACT section 4: the signal call). */
  signal(executionId: string, nodeId: string, command: SignalCommand): Approval {
    const entry = this.require(executionId);
    if (!entry.nodes.some((node) => node.nodeId === nodeId) && entry.status !== 'QUEUED') {
      throw new AppError('NODE_NOT_FOUND', { params: { nodeId, executionId } });
    }
    return this.#approvals.signal(executionId, nodeId, command);
  }

  approvalsOf(executionId: string): Approval[] {
    this.require(executionId);
    return this.#approvals.forExecution(executionId);
  }

  approvalsOfSession(sessionId: string): Approval[] {
    return this.#approvals.forSession(sessionId);
  }

  /** Run controls (CONTRACT section 4); the run must be going. */
  control(executionId: string, action: 'PAUSE' | 'RESUME' | 'STEP'): ExecutionEntry {
    const entry = this.require(executionId);
    const waiting = this.#waiting.get(executionId);
    if (waiting !== undefined && action !== 'STEP') {
      this.#pauseWaiting(waiting, action === 'PAUSE');
      return entry;
    }
    const run = this.#requireRun(entry);
    if (action === 'PAUSE') run.pause();
    else if (action === 'RESUME') run.resume();
    else run.step();
    return entry;
  }

  /** Node controls (CONTRACT section 4). */
  controlNode(
    executionId: string,
    nodeId: string,
    action: 'PAUSE' | 'RESUME' | 'STEP' | 'STOP' | 'SKIP' | 'UNSKIP',
  ): ExecutionEntry {
    const entry = this.require(executionId);
    const run = this.#requireRun(entry, nodeId);
    switch (action) {
      case 'PAUSE':
        run.pauseNode(nodeId);
        break;
      case 'RESUME':
        run.resumeNode(nodeId);
        break;
      case 'STEP':
        run.stepNode(nodeId);
        break;
      case 'STOP':
        run.stopNode(nodeId);
        break;
      case 'SKIP':
        run.skipNode(nodeId);
        break;
      case 'UNSKIP':
        run.unskipNode(nodeId);
        break;
    }
    return entry;
  }

  /** Breakpoints of a run; an ended or waiting run has none. */
  breakpoints(executionId: string): string[] {
    this.require(executionId);
    return this.#live.get(executionId)?.run.breakpoints ?? [];
  }

  setBreakpoints(executionId: string, nodeIds: readonly string[]): string[] {
    const run = this.#requireRun(this.require(executionId));
    run.setBreakpoints(nodeIds);
    return run.breakpoints;
  }

  /** The live run of an execution; an unknown node is 404 even on an ended run. */
  #requireRun(entry: ExecutionEntry, nodeId?: string): WorkflowRun {
    const live = this.#live.get(entry.executionId);
    if (
      nodeId !== undefined &&
      !entry.nodes.some((node) => node.nodeId === nodeId) &&
      entry.status !== 'QUEUED'
    ) {
      throw new AppError('NODE_NOT_FOUND', { params: { nodeId, executionId: entry.executionId } });
    }
    if (live === undefined) {
      throw new AppError('EXECUTION_NOT_ACTIVE', {
        params: { executionId: entry.executionId, status: entry.status },
      });
    }
    return live.run;
  }

  /**
   * SPEC graceful shutdown: (1) stop admitting and refuse the starts still waiting, (2) give
   * running executions `graceMs` to finish, (3) release the leader lease at once when high
   * availability is on, (4) flush the execution log, waiting at most `flushMs`. What still
   * runs then is stopped without an end in the log, so the next start marks it ABORTED.
   */
  async shutdown(graceMs: number, flushMs = 5_000): Promise<void> {
    for (const candidate of this.#admission.shutdown()) {
      const waiting = this.#waiting.get(candidate.executionId);
      if (waiting === undefined) continue;
      this.#deps.meters.count('svc.executions.rejected', { reason: 'shutdown' });
      this.#endWaiting(waiting, 'STOPPED', REFUSAL_MESSAGES.shutdown);
    }
    const finishing: Promise<void>[] = [];
    for (const id of this.#live.keys()) {
      const entry = this.#deps.registry.get(id);
      if (entry !== undefined) finishing.push(entry.finished);
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs);
      timer.unref();
    });
    await Promise.race([Promise.all(finishing), grace]);
    clearTimeout(timer);
    const leadership = this.#deps.leadership;
    if (leadership !== undefined) {
      // Once the lease is released the standby may take over and recover (or auto-resume) the
      // runs still going: they stop first, and their ends stay out of the log, so that the new
      // leader marks them ABORTED rather than both servers running them.
      this.#deps.journal?.seal();
      for (const live of this.#live.values()) live.run.stop('The server is shutting down');
      await leadership.release();
    }
    await this.#deps.journal?.close(flushMs);
    await this.stopAll('The server is shutting down');
  }

  /**
   * Fencing (high availability): this server lost the leader lease and must stop acting as
   * the leader at once. Nothing more reaches the shared execution log, not even the ends of
   * its runs, which are stopped; the server that leads now marks them ABORTED and can recover
   * them. Starts still waiting end too. Resolves once every run has ended.
   */
  async fence(reason: string): Promise<void> {
    const abandoning = this.#deps.journal?.abandon();
    const message = `This server stopped leading: ${reason}`;
    for (const candidate of this.#admission.shutdown()) {
      const waiting = this.#waiting.get(candidate.executionId);
      if (waiting !== undefined) this.#endWaiting(waiting, 'STOPPED', message);
    }
    await Promise.all([abandoning, this.stopAll(message)]);
  }

  /**
   * Reads one execution, 404 when unknown; 503 on a standby, which holds no executions: the
   * leader may well have it.
   */
  require(executionId: string): ExecutionEntry {
    const entry = this.#deps.registry.get(executionId);
    if (!entry) {
      if (!this.isLeader) throw new AppError('NOT_LEADER');
      throw new AppError('EXECUTION_NOT_FOUND', { params: { executionId } });
    }
    return entry;
  }

  get running(): number {
    return this.#live.size;
  }

  /** Starts waiting for a slot. */
  get queued(): number {
    return this.#waiting.size;
  }

  /** Prepared workflows in the cache. */
  get cachedPlans(): number {
    return this.#plans.size;
  }

  /** Stops every run still going and waits for them to end. */
  async stopAll(reason: string): Promise<void> {
    const finishing: Promise<void>[] = [];
    for (const [executionId, live] of this.#live) {
      live.run.stop(reason);
      const entry = this.#deps.registry.get(executionId);
      if (entry) finishing.push(entry.finished);
    }
    await Promise.all(finishing);
  }

  async #startNew(request: StartRequest): Promise<StartAnswer> {
    const { plan, version } = await this.#prepare(request);
    return this.#admit({ request, plan, version });
  }

  /** Admits a new execution, queues it or refuses it, like every start (SPEC rule: a slot). */
  async #admit(launch: Launch): Promise<StartAnswer> {
    // Again here: leadership may have been lost while the start was being prepared.
    if (!this.isLeader) throw this.#notLeader();
    const { request } = launch;
    const executionId = this.#deps.ids();
    const candidate: Candidate = {
      executionId,
      sessionId: request.sessionId,
      workflowId: request.workflowId,
      priority: request.priority ?? 0,
      arrival: this.#admission.nextArrival(),
    };
    const decision = this.#admission.request(candidate);
    if (decision.kind === 'refuse') this.#refuse(decision.reason);
    const entry = this.#createEntry(executionId, launch, null);
    const lineage = launch.lineage ?? executionId;
    this.#journalAccepted(entry, launch, lineage);
    this.#archiveRun(executionId, {
      launch,
      lineage,
      source: launch.restartOf ?? launch.resumedFrom ?? null,
    });
    if (decision.kind === 'run') this.#run(entry, launch);
    else this.#enqueue(entry, launch);
    this.#updateGauges();
    const journal = this.#deps.journal;
    // Nothing accepted is lost: the start is durable before it is answered.
    if (journal?.durable === true) await journal.durableNow();
    return { executionId, status: entry.status };
  }

  #journalAccepted(entry: ExecutionEntry, launch: Launch, lineage: string): void {
    const journal = this.#deps.journal;
    if (journal?.durable !== true) return;
    const payload = launch.request.payload;
    const recordable = payload === undefined || recordedSize(payload) <= MAX_RECORDED_PAYLOAD;
    journal.accepted({
      executionId: entry.executionId,
      sessionId: entry.sessionId,
      workflowId: entry.workflowId,
      workflowVersion: entry.workflowVersion,
      definitionHash: this.#hashOf(launch.plan),
      priority: entry.priority,
      lineage,
      payloadRecorded: recordable,
      ...(recordable && payload !== undefined ? { payload } : {}),
      restartOf: entry.restartOf,
      resumedFrom: entry.resumedFrom,
      parentExecutionId: entry.parentExecutionId,
    });
  }

  /** A digest of the definition a plan was made from: recover refuses a changed workflow. */
  #hashOf(plan: WorkflowPlan): string {
    let hash = this.#hashes.get(plan);
    if (hash === undefined) {
      hash = definitionHash(plan.definition);
      this.#hashes.set(plan, hash);
    }
    return hash;
  }

  /**
   * Keeps the newest executions restartable. One that leaves the archive stops recording,
   * and its checkpoints go unless the store keeps them for recover.
   */
  #archiveRun(executionId: string, archived: Archived): void {
    const limit = this.#deps.retainedForRestart ?? 10;
    this.#archive.set(executionId, archived);
    const store = this.#deps.checkpoints;
    for (const oldest of this.#archive.keys()) {
      if (this.#archive.size <= limit) break;
      this.#archive.delete(oldest);
      if (store === undefined || store.durable) continue;
      const live = this.#live.get(oldest);
      if (live !== undefined) {
        live.run.stopRecording();
        live.recorder.writer = undefined;
      }
      // The memory stores forget at once; there is nothing left to fail.
      void store.drop(oldest).catch(() => undefined);
    }
  }

  #refuse(reason: RefusalReason): never {
    this.#deps.meters.count('svc.executions.rejected', { reason });
    throw new AppError('ADMISSION_REFUSED', { params: { reason: REFUSAL_MESSAGES[reason] } });
  }

  async #prepare(request: StartRequest): Promise<{ plan: WorkflowPlan; version: number }> {
    const { sessionId, workflowId } = request;
    const { store } = this.#deps;
    if (!(await store.getSession(sessionId))) {
      throw new AppError('SESSION_NOT_FOUND', { params: { sessionId } });
    }
    const workflow = await store.getWorkflow(sessionId, workflowId);
    const current = workflow?.versions.at(-1);
    if (!workflow || !current) {
      throw new AppError('WORKFLOW_NOT_FOUND', { params: { sessionId, workflowId } });
    }
    const plan = this.#plan(`${sessionId}\u0000${workflowId}\u0000${current.version}`, () =>
      prepareWorkflow(current.definition, this.#deps.catalog, { workers: this.#deps.workers }),
    );
    return { plan, version: current.version };
  }

  #createEntry(executionId: string, launch: Launch, parent: ExecutionEntry | null): ExecutionEntry {
    const { request } = launch;
    return this.#deps.registry.create({
      executionId,
      sessionId: request.sessionId,
      workflowId: request.workflowId,
      workflowVersion: launch.version,
      priority: request.priority ?? 0,
      createdAt: this.#deps.clock.now(),
      parentExecutionId: parent?.executionId ?? null,
      depth: parent === null ? 0 : parent.depth + 1,
      restartOf: launch.restartOf ?? null,
      resumedFrom: launch.resumedFrom ?? null,
    });
  }

  #enqueue(entry: ExecutionEntry, launch: Launch): void {
    entry.status = 'QUEUED';
    this.emit(entry, 'execution.queued', { status: 'QUEUED', priority: entry.priority });
    const now = this.#deps.clock.now();
    const waiting: Waiting = {
      entry,
      launch,
      queuedAt: now,
      timeout: undefined,
      remainingMs: this.#admission.limits.queueTimeout,
      armedAt: now,
      paused: false,
    };
    this.#waiting.set(entry.executionId, waiting);
    this.#armQueueTimeout(waiting);
  }

  #armQueueTimeout(waiting: Waiting): void {
    const remaining = waiting.remainingMs;
    if (remaining === null) return;
    waiting.armedAt = this.#deps.clock.now();
    const limit = this.#admission.limits.queueTimeout ?? remaining;
    waiting.timeout = setTimeout(() => {
      if (this.#waiting.get(waiting.entry.executionId) !== waiting) return;
      this.#deps.meters.count('svc.executions.rejected', { reason: 'queue_timeout' });
      this.#endWaiting(waiting, 'TIMED_OUT', `Waited longer than ${limit} ms for a slot`);
    }, remaining);
    waiting.timeout.unref();
  }

  #pauseWaiting(waiting: Waiting, pause: boolean): void {
    if (waiting.paused === pause) return;
    waiting.paused = pause;
    if (pause) {
      if (waiting.timeout !== undefined) clearTimeout(waiting.timeout);
      waiting.timeout = undefined;
      if (waiting.remainingMs !== null) {
        const spent = this.#deps.clock.now() - waiting.armedAt;
        waiting.remainingMs = Math.max(0, waiting.remainingMs - spent);
      }
    } else {
      this.#armQueueTimeout(waiting);
    }
    this.emit(waiting.entry, pause ? 'execution.paused' : 'execution.resumed', {
      status: 'QUEUED',
    });
  }

  #endWaiting(waiting: Waiting, status: ExecutionStatus, error: string): void {
    const { entry } = waiting;
    this.#waiting.delete(entry.executionId);
    this.#admission.dequeue(entry.executionId);
    if (waiting.timeout !== undefined) clearTimeout(waiting.timeout);
    entry.status = status;
    entry.error = error;
    entry.endedAt = this.#deps.clock.now();
    this.emit(entry, RUN_STATUS_EVENTS[status] ?? 'execution.stopped', { status, error });
    this.#deps.journal?.ended(entry.executionId, status, error);
    entry.markFinished();
    this.#updateGauges();
  }

  /** A waiting start got its slot. */
  #admitQueued(candidate: Candidate): void {
    const waiting = this.#waiting.get(candidate.executionId);
    if (waiting === undefined) {
      // It ended while being admitted: give the slot back.
      for (const next of this.#admission.release(candidate.executionId)) this.#admitQueued(next);
      return;
    }
    this.#waiting.delete(candidate.executionId);
    if (waiting.timeout !== undefined) clearTimeout(waiting.timeout);
    this.#deps.meters.time(
      'svc.execution.queue.wait',
      {},
      this.#deps.clock.now() - waiting.queuedAt,
    );
    this.#run(waiting.entry, waiting.launch);
    // Paused while it waited: it keeps its slot and starts paused.
    if (waiting.paused) this.#live.get(waiting.entry.executionId)?.run.pause();
  }

  #updateGauges(): void {
    this.#deps.meters.set('svc.executions.running', this.#admission.running);
    this.#deps.meters.set('svc.executions.queued', this.#admission.queued);
  }

  /** A sub-workflow runs inside its parent's slot: waiting for one could deadlock. */
  async #launchChild(request: StartRequest, parent: ExecutionEntry): Promise<ExecutionEntry> {
    const { plan, version } = await this.#prepare(request);
    const launch: Launch = { request, plan, version };
    const entry = this.#createEntry(this.#deps.ids(), launch, parent);
    this.#journalAccepted(entry, launch, entry.executionId);
    this.#run(entry, launch);
    return entry;
  }

  #run(entry: ExecutionEntry, launch: Launch): void {
    const { clock } = this.#deps;
    const { executionId, sessionId, workflowId } = entry;
    const { plan, request } = launch;
    // Recorded while restartable, or always when the store keeps checkpoints for recover.
    const store = this.#deps.checkpoints;
    const writer =
      store !== undefined && (store.durable || this.#archive.has(executionId))
        ? store.writer(executionId)
        : undefined;
    const recorder = new RunRecorder(this, entry, plan, writer, launch.approvals);
    const run = new WorkflowRun({
      executionId,
      sessionId,
      workflowId,
      lineage: launch.lineage ?? executionId,
      startPayload: request.payload,
      plan,
      clock: new RunClock(clock, this.#deps.timers ?? realTimers),
      services: this.#runServices,
      deadlineMs: this.#deps.runDeadlineMs,
      listener: recorder,
      replay: launch.replay,
    });
    if (writer !== undefined) run.recordTo(writer);
    const live: Live = { run, recorder, children: undefined };
    this.#live.set(executionId, live);
    entry.nodes = run.nodes;
    entry.status = 'RUNNING';
    entry.startedAt = clock.now();
    this.emit(entry, 'execution.started', { status: 'RUNNING' });
    this.#deps.journal?.started(executionId);
    run.start();
    void run.done.then(recorder.ended);
  }

  /** @internal A run of `entry` ended: record it and stop its children. */
  recordEnd(entry: ExecutionEntry, outcome: RunOutcome): void {
    const { clock, meters } = this.#deps;
    const live = this.#live.get(entry.executionId);
    this.#live.delete(entry.executionId);
    for (const child of live?.children ?? []) this.#live.get(child)?.run.stop('Parent run ended');
    entry.status = outcome.status;
    entry.error = outcome.error;
    entry.endedAt = clock.now();
    this.emit(entry, RUN_STATUS_EVENTS[outcome.status] ?? 'execution.completed', {
      status: outcome.status,
      error: outcome.error,
    });
    meters.time(
      'svc.execution.duration',
      { status: outcome.status },
      entry.endedAt - (entry.startedAt ?? entry.endedAt),
    );
    this.#deps.journal?.ended(entry.executionId, outcome.status, outcome.error);
    this.#deps.tracer?.record({
      name: 'svc.run',
      id: entry.executionId,
      parentId: entry.parentExecutionId,
      startedAt: entry.startedAt ?? entry.endedAt,
      endedAt: entry.endedAt,
      tags: { workflowId: entry.workflowId, status: outcome.status },
    });
    entry.markFinished();
    for (const admitted of this.#admission.release(entry.executionId)) this.#admitQueued(admitted);
    this.#updateGauges();
  }

  /** @internal Sends one event about `entry` to the event sink. */
  emit(
    entry: ExecutionEntry,
    kind: ExecutionEventKind,
    fields: Record<string, unknown> = {},
  ): void {
    const sink = this.#deps.events;
    if (sink === undefined) return;
    sink({
      kind,
      timestamp: new Date(this.#deps.clock.now()).toISOString(),
      executionId: entry.executionId,
      sessionId: entry.sessionId,
      workflowId: entry.workflowId,
      ...fields,
    });
  }

  /** @internal */
  get deps(): ExecutionManagerDeps {
    return this.#deps;
  }

  /** @internal SUB_WORKFLOW: a child run whose terminals' payloads are the answer. */
  runChild(parent: ExecutionEntry, request: SubWorkflowRequest): Promise<readonly unknown[]> {
    return this.#runChild(parent, request);
  }

  /** SUB_WORKFLOW: a child run whose terminals' payloads are the answer. */
  async #runChild(
    parent: ExecutionEntry,
    request: SubWorkflowRequest,
  ): Promise<readonly unknown[]> {
    if (parent.depth + 1 > MAX_NESTING_DEPTH) {
      throw StepFailure.nonRetryable(
        `Sub-workflow nesting deeper than ${MAX_NESTING_DEPTH} levels is refused`,
      );
    }
    let child: ExecutionEntry;
    try {
      child = await this.#launchChild(request, parent);
    } catch (error) {
      throw StepFailure.nonRetryable(messageOf(error), error);
    }
    const live = this.#live.get(parent.executionId);
    if (live !== undefined) (live.children ??= new Set()).add(child.executionId);
    await child.finished;
    if (child.status !== 'COMPLETED') {
      throw StepFailure.retryable(
        `Sub-workflow '${request.workflowId}' (execution ${child.executionId}) ended ${child.status}${child.error === null ? '' : `: ${child.error}`}`,
      );
    }
    return this.#deps.registry.resultsOf(child).map((result) => result.payload);
  }

  #plan(key: string, prepare: () => WorkflowPlan): WorkflowPlan {
    const now = this.#deps.clock.now();
    if (now - this.#lastSweep > Math.min(60_000, this.#deps.planTtlMs)) {
      this.#lastSweep = now;
      for (const [cachedKey, cached] of this.#plans) {
        if (now - cached.lastUsed > this.#deps.planTtlMs) this.#plans.delete(cachedKey);
      }
    }
    const cached = this.#plans.get(key);
    if (cached) {
      cached.lastUsed = now;
      return cached.plan;
    }
    const plan = prepare();
    this.#plans.set(key, { plan, lastUsed: now });
    return plan;
  }
}

/**
 * Records one run into its execution entry and the meters. A class, not an object of
 * closures, because every parked run holds one.
 */
class RunRecorder implements RunListener {
  readonly ended: (outcome: RunOutcome) => void;
  /** Nodes whose start the execution log has; made only with a durable log. */
  #loggedStarts: Set<string> | undefined;

  constructor(
    readonly manager: ExecutionManager,
    readonly entry: ExecutionEntry,
    readonly plan: WorkflowPlan,
    public writer: CheckpointWriter | undefined,
    readonly approvals: ReadonlyMap<string, RecordedApproval> | undefined,
  ) {
    this.ended = (outcome) => {
      manager.recordEnd(entry, outcome);
      void this.writer?.close().catch((error: unknown) => {
        this.checkpointFailed('', error);
      });
    };
  }

  runSubWorkflow(request: SubWorkflowRequest): Promise<readonly unknown[]> {
    return this.manager.runChild(this.entry, request);
  }

  /**
   * SPEC Events 9: an answer the resumed run recorded for the same message is used again;
   * a new answer is recorded with the checkpoints before the node goes on.
   */
  awaitSignal(wait: SignalWait): PendingSignal {
    const recorded = this.approvals?.get(approvalKey(wait.nodeId, wait.messageId));
    if (recorded !== undefined) {
      const answer = {
        approved: recorded.approved,
        ...(recorded.payload === undefined ? {} : { payload: recorded.payload }),
        comment: recorded.comment ?? null,
      };
      void this.#recordApproval(recorded);
      this.manager.emit(this.entry, 'approval.answered', {
        nodeId: wait.nodeId,
        messageId: wait.messageId,
        approved: recorded.approved,
        comment: answer.comment,
        reused: true,
      });
      return { answer: Promise.resolve(answer), cancel: () => undefined };
    }
    const pending = this.manager.registerSignal(this.entry, wait);
    if (this.writer === undefined) return pending;
    return {
      answer: pending.answer.then(async (answer) => {
        await this.#recordApproval({
          nodeId: wait.nodeId,
          messageId: wait.messageId,
          approved: answer.approved,
          ...(answer.payload === undefined ? {} : { payload: answer.payload }),
          comment: answer.comment ?? null,
        });
        return answer;
      }),
      cancel: (reason) => {
        pending.cancel(reason);
      },
    };
  }

  async #recordApproval(answer: RecordedApproval): Promise<void> {
    try {
      await this.writer?.approval(answer);
    } catch (error) {
      this.checkpointFailed(answer.nodeId, error);
    }
  }

  checkpointFailed(_nodeId: string, _error: unknown): void {
    this.manager.deps.meters.count('svc.checkpoint.errors');
  }

  pluginEvent(_nodeId: string, event: string, outcome: string): void {
    this.manager.deps.meters.count('svc.plugin.events', { plugin: event, outcome });
  }

  get pluginMeter(): PluginMeter {
    return this.manager.deps.meters.forPlugins;
  }

  nodeChanged(state: Readonly<NodeState>, previous?: NodeStatus): void {
    this.#journalNode(state);
    // A node that had taken a message and was paused or waiting goes on: it resumes.
    const resumed =
      state.status === 'RUNNING' &&
      (previous === 'PAUSED' || previous === 'WAITING') &&
      state.startedAt !== null;
    const kind = resumed ? 'node.resumed' : NODE_STATUS_EVENTS[state.status];
    if (kind !== undefined) {
      this.manager.emit(this.entry, kind, {
        nodeId: state.nodeId,
        status: state.status,
        error: state.error,
        messagesIn: state.messagesIn,
        messagesOut: state.messagesOut,
        retries: state.retries,
      });
    }
    if (!isNodeEnded(state)) return;
    const { meters } = this.manager.deps;
    const module = state.type;
    meters.count('svc.node.executions', { module, status: state.status });
    if (state.retries > 0) meters.count('svc.node.retries', { module }, state.retries);
    if (state.startedAt !== null && state.endedAt !== null) {
      meters.time('svc.node.duration', { module }, state.endedAt - state.startedAt);
    }
    this.manager.deps.tracer?.record({
      name: 'svc.node',
      id: `${this.entry.executionId}/${state.nodeId}`,
      parentId: this.entry.executionId,
      startedAt: state.startedAt ?? state.endedAt ?? 0,
      endedAt: state.endedAt ?? 0,
      tags: { module, status: state.status },
    });
  }

  runChanged(status: 'RUNNING' | 'PAUSED'): void {
    if (isTerminalExecutionStatus(this.entry.status)) return;
    this.entry.status = status;
    this.manager.emit(this.entry, status === 'PAUSED' ? 'execution.paused' : 'execution.resumed', {
      status,
    });
  }

  result(nodeId: string, message: Message): void {
    const { registry, clock } = this.manager.deps;
    const result = registry.addResult(this.entry, nodeId, message, clock.now());
    const sink = this.manager.deps.events;
    if (sink === undefined) return;
    // Built once, without the generic event's copies: results come one a message.
    const { entry } = this;
    sink({
      kind: 'result',
      timestamp: result.timestamp,
      executionId: entry.executionId,
      sessionId: entry.sessionId,
      workflowId: entry.workflowId,
      nodeId: result.nodeId,
      seq: result.seq,
      messageId: result.messageId,
      payload: result.payload,
    });
  }

  log(line: RunLogEntry): void {
    const { registry, clock, logger } = this.manager.deps;
    const dropped = registry.addLog(this.entry, line, clock.now());
    // SPEC "Log line losses": lines beyond what an execution keeps are dropped and counted.
    if (dropped > 0)
      this.manager.deps.meters.count('svc.tracker.dropped', { type: 'log' }, dropped);
    const entry = this.entry.logs.at(-1);
    if (entry !== undefined) this.manager.emit(this.entry, 'log', { ...entry });
    logger[LOG_METHODS[line.level]](
      { executionId: this.entry.executionId, nodeId: line.nodeId, ...line.fields },
      line.message,
    );
  }

  edgeDropped(nodeId: string): void {
    this.manager.deps.meters.count('svc.edge.dropped', {
      type: this.plan.byId.get(nodeId)?.type ?? 'unknown',
    });
  }

  /** The execution log has every node's start and end (SPEC "Deployment facts"). */
  #journalNode(state: Readonly<NodeState>): void {
    const journal = this.manager.deps.journal;
    if (journal?.durable !== true) return;
    const { executionId } = this.entry;
    const started = (this.#loggedStarts ??= new Set());
    if (state.startedAt !== null && !started.has(state.nodeId)) {
      started.add(state.nodeId);
      journal.nodeStarted(executionId, state.nodeId, state.type);
    }
    if (!isNodeEnded(state)) return;
    journal.nodeEnded({
      executionId,
      nodeId: state.nodeId,
      nodeType: state.type,
      status: state.status,
      error: state.error,
      startedAt: state.startedAt,
      messagesIn: state.messagesIn,
      messagesOut: state.messagesOut,
      retries: state.retries,
    });
  }
}

/** Size of a payload as the execution log writes it; one it cannot write counts as too large. */
function recordedSize(payload: unknown): number {
  try {
    return (JSON.stringify(payload) as string | undefined)?.length ?? 0;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

function approvalKey(nodeId: string, messageId: string): string {
  return `${nodeId}\u0000${messageId}`;
}

/** A stable digest of a workflow definition. */
export function definitionHash(definition: unknown): string {
  return createHash('sha256').update(JSON.stringify(definition)).digest('hex');
}
