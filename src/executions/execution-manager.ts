// Starting and following executions: prepares the workflow (a cached plan per version),
// runs it on the engine, and keeps its record, results and logs in the registry.
import type { Logger } from 'pino';
import { AppError } from '../core/index.js';
import type { Meters } from '../observability/index.js';
import type { Clock, IdGenerator } from '../core/index.js';
import {
  RunClock,
  WorkflowRun,
  isNodeEnded,
  prepareWorkflow,
  realTimers,
} from '../engine/index.js';
import type {
  ConfigResolver,
  LogLevel,
  PendingSignal,
  SignalWait,
  NodeState,
  PluginCatalog,
  RunListener,
  RunLogEntry,
  RunOutcome,
  SessionStore,
  TimerScheduler,
  WorkflowPlan,
} from '../engine/index.js';
import { StepFailure } from '../plugin-api/index.js';
import type { Message, Safeguards, SubWorkflowRequest } from '../plugin-api/index.js';
import { Admission, REFUSAL_MESSAGES } from './admission.js';
import type { AdmissionLimits, Candidate, RefusalReason } from './admission.js';
import { IdempotencyKeys } from './idempotency-keys.js';
import { Approvals } from './approvals.js';
import type { Approval, SignalCommand } from './approvals.js';
import { isTerminalExecutionStatus } from './execution-registry.js';
import { NODE_STATUS_EVENTS, RUN_STATUS_EVENTS } from './execution-events.js';
import type { ExecutionEventKind, ExecutionEventSink } from './execution-events.js';
import type { ExecutionEntry, ExecutionRegistry, ExecutionStatus } from './execution-registry.js';

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
  readonly safeguards?: Safeguards;
  readonly resolveConfig?: ConfigResolver;
  /** Admission limits at start-up (SPEC `svc.execution.*`); off when absent. */
  readonly limits?: AdmissionLimits;
  /** SPEC `svc.start.idempotency-*`. */
  readonly idempotency?: { readonly maxKeys: number; readonly ttlMs: number };
  /** Where run and node events go (event streams, supervisors). */
  readonly events?: ExecutionEventSink;
}

export interface StartOptions {
  /** SPEC: the same key within its window answers the first start and starts nothing. */
  readonly idempotencyKey?: string | undefined;
}

/** A start waiting for a slot. */
interface Waiting {
  readonly entry: ExecutionEntry;
  readonly plan: WorkflowPlan;
  readonly request: StartRequest;
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
  readonly children: Set<string>;
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
  readonly #plans = new Map<string, CachedPlan>();
  readonly #live = new Map<string, Live>();
  readonly #waiting = new Map<string, Waiting>();
  readonly #admission: Admission;
  readonly #approvals: Approvals;
  readonly #idempotency: IdempotencyKeys<StartAnswer>;
  #lastSweep = 0;

  constructor(deps: ExecutionManagerDeps) {
    this.#deps = deps;
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

  /** Changes admission limits without a restart; queued starts that now fit begin. */
  setLimits(changes: Partial<AdmissionLimits>): AdmissionLimits {
    const admitted = this.#admission.setLimits({ ...this.#admission.limits, ...changes });
    for (const candidate of admitted) this.#admitQueued(candidate);
    this.#updateGauges();
    return this.#admission.limits;
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
   * SPEC graceful shutdown, steps 1 and 2: stop admitting, refuse the starts still waiting,
   * give running executions `graceMs` to finish, then stop what is left.
   */
  async shutdown(graceMs: number): Promise<void> {
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
    await this.stopAll('The server is shutting down');
  }

  /** Reads one execution, 404 when unknown. */
  require(executionId: string): ExecutionEntry {
    const entry = this.#deps.registry.get(executionId);
    if (!entry) throw new AppError('EXECUTION_NOT_FOUND', { params: { executionId } });
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
    const entry = this.#createEntry(executionId, request, version, null);
    if (decision.kind === 'run') this.#run(entry, plan, request);
    else this.#enqueue(entry, plan, request);
    this.#updateGauges();
    return { executionId, status: entry.status };
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

  #createEntry(
    executionId: string,
    request: StartRequest,
    version: number,
    parent: ExecutionEntry | null,
  ): ExecutionEntry {
    return this.#deps.registry.create({
      executionId,
      sessionId: request.sessionId,
      workflowId: request.workflowId,
      workflowVersion: version,
      priority: request.priority ?? 0,
      createdAt: this.#deps.clock.now(),
      parentExecutionId: parent?.executionId ?? null,
      depth: parent === null ? 0 : parent.depth + 1,
    });
  }

  #enqueue(entry: ExecutionEntry, plan: WorkflowPlan, request: StartRequest): void {
    entry.status = 'QUEUED';
    this.emit(entry, 'execution.queued', { status: 'QUEUED', priority: entry.priority });
    const now = this.#deps.clock.now();
    const waiting: Waiting = {
      entry,
      plan,
      request,
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
    this.#run(waiting.entry, waiting.plan, waiting.request);
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
    const entry = this.#createEntry(this.#deps.ids(), request, version, parent);
    this.#run(entry, plan, request);
    return entry;
  }

  #run(entry: ExecutionEntry, plan: WorkflowPlan, request: StartRequest): void {
    const { clock } = this.#deps;
    const { executionId, sessionId, workflowId } = entry;
    const recorder = new RunRecorder(this, entry, plan);
    const run = new WorkflowRun({
      executionId,
      sessionId,
      workflowId,
      lineage: executionId,
      startPayload: request.payload,
      plan,
      clock: new RunClock(clock, this.#deps.timers ?? realTimers),
      logger: this.#deps.logger,
      deadlineMs: this.#deps.runDeadlineMs,
      runSubWorkflow: recorder.runSubWorkflow,
      awaitSignal: recorder.awaitSignal,
      listener: recorder,
      safeguards: this.#deps.safeguards,
      resolveConfig: this.#deps.resolveConfig,
    });
    const live: Live = { run, children: new Set() };
    this.#live.set(executionId, live);
    entry.nodes = run.nodes;
    entry.status = 'RUNNING';
    entry.startedAt = clock.now();
    this.emit(entry, 'execution.started', { status: 'RUNNING' });
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
      throw StepFailure.nonRetryable(error instanceof Error ? error.message : String(error), error);
    }
    this.#live.get(parent.executionId)?.children.add(child.executionId);
    await child.finished;
    if (child.status !== 'COMPLETED') {
      throw StepFailure.retryable(
        `Sub-workflow '${request.workflowId}' (execution ${child.executionId}) ended ${child.status}${child.error === null ? '' : `: ${child.error}`}`,
      );
    }
    return child.results.map((result) => result.payload);
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
  readonly runSubWorkflow: (request: SubWorkflowRequest) => Promise<readonly unknown[]>;
  readonly awaitSignal: (wait: SignalWait) => PendingSignal;
  readonly ended: (outcome: RunOutcome) => void;

  constructor(
    readonly manager: ExecutionManager,
    readonly entry: ExecutionEntry,
    readonly plan: WorkflowPlan,
  ) {
    this.runSubWorkflow = (request) => manager.runChild(entry, request);
    this.awaitSignal = (wait) => manager.registerSignal(entry, wait);
    this.ended = (outcome) => {
      manager.recordEnd(entry, outcome);
    };
  }

  nodeChanged(state: Readonly<NodeState>): void {
    const kind = NODE_STATUS_EVENTS[state.status];
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
    registry.addResult(this.entry, nodeId, message, clock.now());
    const result = this.entry.results.at(-1);
    if (result !== undefined) this.manager.emit(this.entry, 'result', { ...result });
  }

  log(line: RunLogEntry): void {
    const { registry, clock, logger } = this.manager.deps;
    registry.addLog(this.entry, line, clock.now());
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
}
