// Starting and following executions: the public face of the executions layer. It admits
// starts (the admission queue), runs them (live runs), restarts and recovers them (restarts),
// recovers the execution log at boot and ends everything at shutdown; each concern lives in
// the module named after it, and this class wires them and checks leadership.
import { AppError, messageOf } from '../core/index.js';
import { realTimers } from '../engine/index.js';
import type { RunFlow } from '../engine/index.js';
import { MemoryIdempotencyStore } from '../stores/index.js';
import { LIMITS_OFF, REFUSAL_MESSAGES } from './admission.js';
import type { AdmissionLimits, RefusalReason } from './admission.js';
import { AdmissionQueue } from './admission-queue.js';
import type { WaitingStart } from './admission-queue.js';
import { Approvals } from './approvals.js';
import type { Approval, SignalCommand } from './approvals.js';
import { recoverExecutionLog } from './boot-recovery.js';
import type { ExecutionManagerDeps } from './execution-manager-deps.js';
import { ExecutionNotifier } from './execution-notifier.js';
import type { ExecutionEntry } from './execution-registry.js';
import { IdempotencyKeys } from './idempotency-keys.js';
import { acceptedRecord } from './launch.js';
import type { Launch, StartAnswer, StartOptions, StartRequest } from './launch.js';
import { LiveRuns } from './live-runs.js';
import { PlanCache } from './plan-cache.js';
import { checkpointViewOf } from './checkpoint-view.js';
import type { CheckpointView } from './checkpoint-view.js';
import { createReplayChecks } from './replay-check.js';
import type { ReplayCheckResult, ReplayChecks, ReplayTarget } from './replay-check.js';
import { Restarts } from './restarts.js';
import { NODE_CONTROLS, controlRun } from './run-controls.js';
import type { NodeAction, RunAction } from './run-controls.js';
import type { NodeMessage, RestartMode } from './restarts.js';
import { fence, shutdown } from './shutdown.js';
import type { ShutdownLogger, ShutdownParts } from './shutdown.js';

export type { ExecutionManagerDeps } from './execution-manager-deps.js';

export class ExecutionManager {
  readonly #deps: ExecutionManagerDeps;
  readonly #notifier: ExecutionNotifier;
  readonly #plans: PlanCache;
  readonly #queue: AdmissionQueue;
  readonly #runs: LiveRuns;
  readonly #restarts: Restarts;
  readonly #checks: ReplayChecks;
  readonly #approvals: Approvals;
  readonly #idempotency: IdempotencyKeys;
  readonly #ending: ShutdownParts;

  constructor(deps: ExecutionManagerDeps) {
    this.#deps = deps;
    const { clock, registry, meters, journal, checkpoints } = deps;
    const timers = deps.timers ?? realTimers;
    const notifier = new ExecutionNotifier(deps.events, clock);
    this.#notifier = notifier;
    this.#plans = new PlanCache({
      store: deps.store,
      catalog: deps.catalog,
      clock,
      workers: deps.workers,
      ttlMs: deps.planTtlMs,
    });
    this.#approvals = new Approvals(
      () => clock.now(),
      (approval, event) => {
        const entry = registry.get(approval.executionId);
        if (entry !== undefined) notifier.emit(entry, event);
      },
    );
    this.#queue = new AdmissionQueue({
      limits: deps.limits ?? LIMITS_OFF,
      queueCapacityPerWorkflow: deps.queueCapacityPerWorkflow,
      clock,
      timers,
      meters,
      notifier,
      journal,
      admitted: (entry, launch, paused) => {
        const run = this.#runs.start(entry, launch);
        if (paused) run.pause();
      },
    });
    this.#runs = new LiveRuns({
      registry,
      notifier,
      meters,
      clock,
      timers,
      logger: deps.logger,
      journal,
      tracer: deps.tracer,
      checkpoints,
      approvals: this.#approvals,
      runDeadlineMs: deps.runDeadlineMs,
      sessionMemory: deps.sessionMemory,
      resolveConfig: deps.resolveConfig,
      placement: deps.placement,
      maxPayloadBytes: deps.maxPayloadBytes,
      deadLettered: deps.deadLettered,
      restartable: (executionId) => this.#restarts.has(executionId),
      released: (executionId) => {
        this.#queue.release(executionId);
      },
      launchChild: (request, parent) => this.#launchChild(request, parent),
    });
    this.#restarts = new Restarts({
      plans: this.#plans,
      checkpoints,
      journal,
      retained: deps.retainedForRestart ?? 10,
      acceptMs: deps.restartAcceptMs ?? 30_000,
      admit: (launch) => this.#admit(launch),
      stop: (executionId, reason) => {
        this.stop(executionId, reason);
      },
      forgotten: (executionId) => {
        this.#runs.stopRecording(executionId);
      },
    });
    this.#checks = createReplayChecks(deps, this.#plans, this.#restarts);
    this.#idempotency = new IdempotencyKeys(
      deps.idempotencyStore ??
        new MemoryIdempotencyStore(deps.idempotency?.maxKeys ?? 100_000, () => clock.now()),
      deps.idempotency?.ttlMs ?? 600_000,
    );
    this.#ending = {
      queue: this.#queue,
      runs: this.#runs,
      meters,
      journal,
      leadership: deps.leadership,
    };
  }

  /**
   * Starts a run of the workflow's current version, or queues it (SPEC States and
   * transitions). A repeated idempotency key answers the first start, even while that start
   * is still being admitted.
   */
  start(request: StartRequest, options: StartOptions = {}): Promise<StartAnswer> {
    if (!this.isLeader) return Promise.reject(this.#notLeader());
    const key = options.idempotencyKey;
    const reach = options.reach ?? null;
    const alwaysOn = options.alwaysOn === true;
    if (key === undefined) return this.#startNew(request, reach, alwaysOn);
    return this.#idempotency
      .once(key, this.#deps.ids, (executionId) =>
        this.#startNew(request, reach, alwaysOn, executionId),
      )
      .then((executionId) => ({
        executionId,
        // Unknown here: its start was bound by a server that stopped before it recorded the
        // start, or it left the history since; either way it is not running.
        status: this.#deps.registry.get(executionId)?.status ?? 'ABORTED',
      }));
  }

  get limits(): AdmissionLimits {
    return this.#queue.limits;
  }

  /** The starts waiting for a slot, in queue order. */
  waiting(): WaitingStart[] {
    return this.#queue.waiting();
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
    const limits: AdmissionLimits = { ...this.#queue.limits, ...changes };
    if (record) this.#deps.journal?.limits({ ...limits });
    this.#notifier.limits(limits);
    this.#queue.setLimits(limits);
    return limits;
  }

  /** Resolves once everything the execution log was given so far is durable. */
  durableNow(): Promise<void> {
    return this.#deps.journal?.durableNow() ?? Promise.resolve();
  }

  /** SPEC rule 3: only while the execution waits for a slot. */
  setPriority(executionId: string, priority: number): ExecutionEntry {
    const entry = this.require(executionId);
    if (entry.status !== 'QUEUED' || !this.#queue.reprioritise(executionId, priority)) {
      throw new AppError('NOT_WAITING_FOR_SLOT', { params: { executionId } });
    }
    entry.priority = priority;
    return entry;
  }

  /** Stops a run, or takes a waiting start out of the queue. */
  stop(executionId: string, reason = 'Stopped'): ExecutionEntry {
    const entry = this.require(executionId);
    if (this.#queue.end(executionId, 'STOPPED', reason)) return entry;
    const run = this.#runs.runOf(executionId);
    if (run === undefined) {
      throw new AppError('EXECUTION_NOT_ACTIVE', { params: { executionId, status: entry.status } });
    }
    run.stop(reason);
    return entry;
  }

  /**
   * Restart, restart from a node, retry a node (SPEC "Restart rules"): a new execution of the
   * same workflow version and start payload that takes a slot like any start.
   */
  async restart(
    executionId: string,
    mode: RestartMode,
    reach: readonly string[] | null = null,
  ): Promise<StartAnswer> {
    // Before the archive is asked: a standby has none, and the leader may have the run.
    if (!this.isLeader) throw this.#notLeader();
    return this.#restarts.restart(this.require(executionId), mode, reach);
  }

  /** Recover (SPEC "Recover conditions"): resumes an ABORTED run as a new execution. */
  async recover(executionId: string, reach: readonly string[] | null = null): Promise<StartAnswer> {
    if (!this.isLeader) throw this.#notLeader();
    return this.#restarts.recover(this.require(executionId), reach);
  }

  /** What a node of a run received or sent, from the checkpoints (docs/history-and-recovery.md). */
  nodeMessages(
    executionId: string,
    nodeId: string,
    direction: 'in' | 'out',
  ): Promise<NodeMessage[]> {
    return this.#restarts.nodeMessages(this.require(executionId), nodeId, direction);
  }

  /** CONTRACT section 4: per node, messages recorded, bytes, complete or not. */
  checkpointsOf(executionId: string): Promise<CheckpointView> {
    this.require(executionId);
    return checkpointViewOf(this.#deps.checkpoints, executionId);
  }

  /** Replay check (docs/run-repair.md): a recorded run through another version; saves nothing. */
  replayCheck(executionId: string, target: ReplayTarget): Promise<ReplayCheckResult> {
    return this.#checks.check(this.require(executionId), target);
  }

  /**
   * On start with a durable execution log (SPEC "Recover conditions"): interrupted runs end
   * ABORTED, the newest runs come back into history, and the newest limit change applies
   * again. With `svc.restart.auto-resume` every interrupted run is then resumed in turn.
   */
  async boot(options: { readonly autoResume: boolean }): Promise<string[]> {
    const { journal, registry, store, checkpoints } = this.#deps;
    if (journal === undefined) return [];
    const aborted = await recoverExecutionLog({
      journal,
      registry,
      notifier: this.#notifier,
      store,
      checkpoints,
      now: () => this.#deps.clock.now(),
      restoreLimits: (limits) => {
        this.setLimits(limits, false);
      },
    });
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

  /** Run controls (CONTRACT section 4); the run must be going, or waiting for a slot. */
  control(executionId: string, action: RunAction): ExecutionEntry {
    const entry = this.require(executionId);
    controlRun(this.#queue, this.#runs, entry, action);
    return entry;
  }

  /** Node controls (CONTRACT section 4). */
  controlNode(executionId: string, nodeId: string, action: NodeAction): ExecutionEntry {
    const entry = this.require(executionId);
    NODE_CONTROLS[action](this.#runs.require(entry, nodeId), nodeId);
    return entry;
  }

  /** Breakpoints of a run; an ended or waiting run has none. */
  breakpoints(executionId: string): string[] {
    this.require(executionId);
    return this.#runs.runOf(executionId)?.breakpoints ?? [];
  }

  setBreakpoints(executionId: string, nodeIds: readonly string[]): string[] {
    const run = this.#runs.require(this.require(executionId));
    run.setBreakpoints(nodeIds);
    return run.breakpoints;
  }

  /** SPEC graceful shutdown; see `shutdown` in shutdown.ts for its four steps. */
  shutdown(graceMs: number, logger?: ShutdownLogger, flushMs = 5_000): Promise<void> {
    return shutdown(this.#ending, graceMs, flushMs, logger);
  }

  /** Fencing (high availability): this server lost the leader lease; see shutdown.ts. */
  fence(reason: string): Promise<void> {
    return fence(this.#ending, reason);
  }

  /**
   * Refuses a read of what only the leader holds (run history, search, the audit, pending
   * approvals) with 503 on a standby: an empty answer would tell the caller there is nothing.
   */
  assertLeader(): void {
    if (!this.isLeader) throw new AppError('NOT_LEADER');
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
    return this.#runs.size;
  }

  /** How messages flow through the execution's run now; undefined while it does not run. */
  flowOf(executionId: string): RunFlow | undefined {
    return this.#runs.runOf(executionId)?.flow();
  }

  /** Starts waiting for a slot. */
  get queued(): number {
    return this.#queue.size;
  }

  /** Prepared workflows in the cache. */
  get cachedPlans(): number {
    return this.#plans.size;
  }

  /** Stops every run still going and waits for them to end. */
  stopAll(reason: string): Promise<void> {
    return this.#runs.stopAll(reason);
  }

  async #startNew(
    request: StartRequest,
    reach: readonly string[] | null,
    alwaysOn: boolean,
    executionId?: string,
  ): Promise<StartAnswer> {
    const { plan, version } = await this.#plans.current(request.sessionId, request.workflowId);
    return this.#admit({ request, plan, version, reach, alwaysOn }, executionId);
  }

  /** Admits a new execution, queues it or refuses it, like every start (SPEC rule: a slot). */
  async #admit(launch: Launch, executionId = this.#deps.ids()): Promise<StartAnswer> {
    // Again here: leadership may have been lost while the start was being prepared.
    if (!this.isLeader) throw this.#notLeader();
    const { request } = launch;
    const decision = this.#queue.request({
      executionId,
      sessionId: request.sessionId,
      workflowId: request.workflowId,
      priority: request.priority ?? 0,
      arrival: this.#queue.nextArrival(),
    });
    if (decision.kind === 'refuse') this.#refuse(decision.reason);
    const entry = this.#createEntry(executionId, launch, null);
    const lineage = launch.lineage ?? executionId;
    this.#journalAccepted(entry, launch, lineage);
    this.#restarts.archive(executionId, {
      launch,
      lineage,
      source: launch.restartOf ?? launch.resumedFrom ?? null,
    });
    if (decision.kind === 'run') this.#runs.start(entry, launch);
    else this.#queue.enqueue(entry, launch);
    const journal = this.#deps.journal;
    // Nothing accepted is lost: the start is durable before it is answered.
    if (journal?.durable === true) await journal.durableNow();
    return { executionId, status: entry.status };
  }

  /** A sub-workflow runs inside its parent's slot: waiting for one could deadlock. */
  async #launchChild(request: StartRequest, parent: ExecutionEntry): Promise<ExecutionEntry> {
    const { plan, version } = await this.#plans.current(request.sessionId, request.workflowId);
    const launch: Launch = { request, plan, version };
    const entry = this.#createEntry(this.#deps.ids(), launch, parent);
    this.#journalAccepted(entry, launch, entry.executionId);
    this.#runs.start(entry, launch);
    return entry;
  }

  #journalAccepted(entry: ExecutionEntry, launch: Launch, lineage: string): void {
    const journal = this.#deps.journal;
    if (journal?.durable !== true) return;
    journal.accepted(acceptedRecord(entry, launch, lineage, this.#plans.hashOf(launch.plan)));
  }

  #refuse(reason: RefusalReason): never {
    this.#deps.meters.count('svc.executions.rejected', { reason });
    throw new AppError('ADMISSION_REFUSED', { params: { reason: REFUSAL_MESSAGES[reason] } });
  }

  /** A new execution, QUEUED until its run starts. */
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
      // A sub-workflow is bound by the sessions of the key that started its root.
      reach: parent === null ? (launch.reach ?? null) : parent.reach,
    });
  }
}
