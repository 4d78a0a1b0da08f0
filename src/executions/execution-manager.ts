// Starting and following executions: prepares the workflow (a cached plan per version),
// runs it on the engine, and keeps its record, results and logs in the registry.
import type { Logger } from 'pino';
import { AppError } from '../core/index.js';
import type { Meters } from '../observability/index.js';
import type { Clock, IdGenerator } from '../core/index.js';
import {
  RunClock,
  WorkflowRun,
  isTerminalNodeStatus,
  prepareWorkflow,
  realTimers,
} from '../engine/index.js';
import type {
  ConfigResolver,
  LogLevel,
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
}

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
  #lastSweep = 0;

  constructor(deps: ExecutionManagerDeps) {
    this.#deps = deps;
  }

  /** Starts a run of the workflow's current version. */
  async start(request: StartRequest): Promise<StartAnswer> {
    const entry = await this.#launch(request, null);
    return { executionId: entry.executionId, status: entry.status };
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

  async #launch(request: StartRequest, parent: ExecutionEntry | null): Promise<ExecutionEntry> {
    const { sessionId, workflowId } = request;
    const { store, registry, clock, ids } = this.#deps;
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
    const executionId = ids();
    const entry = registry.create({
      executionId,
      sessionId,
      workflowId,
      workflowVersion: current.version,
      priority: request.priority ?? 0,
      createdAt: clock.now(),
      parentExecutionId: parent?.executionId ?? null,
      depth: parent === null ? 0 : parent.depth + 1,
    });
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
      listener: recorder,
      safeguards: this.#deps.safeguards,
      resolveConfig: this.#deps.resolveConfig,
    });
    const live: Live = { run, children: new Set() };
    this.#live.set(executionId, live);
    entry.nodes = run.nodes;
    entry.status = 'RUNNING';
    entry.startedAt = clock.now();
    run.start();
    void run.done.then(recorder.ended);
    return entry;
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
    meters.time(
      'svc.execution.duration',
      { status: outcome.status },
      entry.endedAt - (entry.startedAt ?? entry.endedAt),
    );
    entry.markFinished();
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
      child = await this.#launch(request, parent);
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
  readonly ended: (outcome: RunOutcome) => void;

  constructor(
    readonly manager: ExecutionManager,
    readonly entry: ExecutionEntry,
    readonly plan: WorkflowPlan,
  ) {
    this.runSubWorkflow = (request) => manager.runChild(entry, request);
    this.ended = (outcome) => {
      manager.recordEnd(entry, outcome);
    };
  }

  nodeChanged(state: Readonly<NodeState>): void {
    if (!isTerminalNodeStatus(state.status)) return;
    const { meters } = this.manager.deps;
    const module = state.type;
    meters.count('svc.node.executions', { module, status: state.status });
    if (state.retries > 0) meters.count('svc.node.retries', { module }, state.retries);
    if (state.startedAt !== null && state.endedAt !== null) {
      meters.time('svc.node.duration', { module }, state.endedAt - state.startedAt);
    }
  }

  result(nodeId: string, message: Message): void {
    const { registry, clock } = this.manager.deps;
    registry.addResult(this.entry, nodeId, message, clock.now());
  }

  log(line: RunLogEntry): void {
    const { registry, clock, logger } = this.manager.deps;
    registry.addLog(this.entry, line, clock.now());
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
