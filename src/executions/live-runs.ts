// The runs going now: each execution holding a slot has one WorkflowRun and its recorder. A
// run starts here and its end is recorded here; sub-workflow runs are started by their parent
// and stopped with it.
import type { Logger } from 'pino';
import { AppError, messageOf } from '../core/index.js';
import type { Clock } from '../core/index.js';
import { RunClock, WorkflowRun } from '../engine/index.js';
import type {
  CheckpointStore,
  DeadLetterNotice,
  ConfigResolver,
  NodePlacement,
  PendingSignal,
  RunOutcome,
  RunServices,
  SignalWait,
  TimerScheduler,
} from '../engine/index.js';
import type { Meters, RunSpan, Tracer } from '../observability/index.js';
import { StepFailure } from '../plugin-api/index.js';
import type { SessionMemory, SubWorkflowRequest } from '../plugin-api/index.js';
import type { Approvals } from './approvals.js';
import { END_STATUS_EVENTS } from './execution-events.js';
import type { ExecutionJournal } from './execution-journal.js';
import type { ExecutionNotifier } from './execution-notifier.js';
import type { ExecutionEntry, ExecutionRegistry } from './execution-registry.js';
import type { Launch, StartRequest } from './launch.js';
import { RunRecorder } from './run-recorder.js';
import type { RunRecorderHost } from './run-recorder.js';

/** SPEC "Limits": sub-workflow nesting depth. */
export const MAX_NESTING_DEPTH = 5;

export interface LiveRunsOptions {
  readonly registry: ExecutionRegistry;
  readonly notifier: ExecutionNotifier;
  readonly meters: Meters;
  readonly clock: Clock;
  readonly timers: TimerScheduler;
  /** The stream engine's logger: node log lines and, at TRACE, message payloads. */
  readonly logger: Logger;
  readonly journal: ExecutionJournal | undefined;
  readonly tracer: Tracer | undefined;
  /** Where runs record what their nodes emit (SPEC Checkpoint); nothing is recorded without. */
  readonly checkpoints: CheckpointStore | undefined;
  readonly approvals: Approvals;
  /** SPEC `svc.session.execution-timeout-seconds`, in milliseconds. */
  readonly runDeadlineMs: number;
  readonly sessionMemory: SessionMemory | undefined;
  readonly resolveConfig: ConfigResolver | undefined;
  readonly placement: NodePlacement | undefined;
  /** `svc.limits.max-payload`; the engine's default when absent. */
  readonly maxPayloadBytes?: number | undefined;
  /** Where messages given up by `onError: DEAD_LETTER` go; dropped when absent. */
  readonly deadLettered?: ((entry: ExecutionEntry, letter: DeadLetterNotice) => void) | undefined;
  /** Whether the execution can still be restarted, so its run records for a restart. */
  readonly restartable: (executionId: string) => boolean;
  /** A run ended: its slot is free. */
  readonly released: (executionId: string) => void;
  /** Creates and starts a sub-workflow run inside its parent's slot. */
  readonly launchChild: (request: StartRequest, parent: ExecutionEntry) => Promise<ExecutionEntry>;
}

interface Live {
  readonly run: WorkflowRun;
  readonly recorder: RunRecorder;
  /** Sub-workflow runs it started; made by the first, as most runs start none. */
  children: Set<string> | undefined;
}

/** Runs admitted in one turn that wait for the next to begin, at most: about a burst of starts. */
const MAX_WAITING_TO_BEGIN = 64;

export class LiveRuns {
  readonly #options: LiveRunsOptions;
  /** Shared by every run. */
  readonly #services: RunServices;
  /** What every run's recorder may ask for: one object for all runs. */
  readonly #host: RunRecorderHost;
  readonly #live = new Map<string, Live>();
  /**
   * The spans of the runs going now, when tracing is on (SPEC Tracing): apart from `Live` so
   * that an untraced run holds not even an empty field for one.
   */
  readonly #spans = new Map<string, RunSpan>();
  /**
   * Runs admitted in this turn of the event loop, whose nodes begin in the next. The answer to
   * a start is written first, with those of every other request read in the same turn: a
   * client does not wait for the run's first steps to learn it was accepted, and a burst of
   * starts is answered at once (woken once, a client reads every answer; answers written one
   * between two runs wake it for each). A run stopped meanwhile never begins. At most
   * `MAX_WAITING_TO_BEGIN` wait: a caller admitting thousands in one turn (a loop over
   * `start`) has the oldest begin at once, rather than thousands beginning together.
   */
  #starting: WorkflowRun[] = [];

  constructor(options: LiveRunsOptions) {
    this.#options = options;
    this.#services = {
      logger: options.logger,
      sessionMemory: options.sessionMemory,
      resolveConfig: options.resolveConfig,
      placement: options.placement,
      maxPayloadBytes: options.maxPayloadBytes,
      ...(options.tracer === undefined
        ? {}
        : { tracing: (executionId: string) => this.#spans.get(executionId) }),
    };
    const { registry, notifier, meters, clock, logger, journal, approvals } = options;
    this.#host = {
      registry,
      notifier,
      meters,
      clock,
      logger,
      journal,
      deadLettered: options.deadLettered,
      runEnded: (entry, outcome) => {
        this.#ended(entry, outcome);
      },
      runChild: (parent, request) => this.#runChild(parent, request),
      awaitSignal: (entry: ExecutionEntry, wait: SignalWait): PendingSignal =>
        approvals.register(entry, wait),
    };
  }

  get size(): number {
    return this.#live.size;
  }

  /** The executions whose runs go now, sub-workflow runs included. */
  executionIds(): string[] {
    return [...this.#live.keys()];
  }

  /** The run of an execution, while it goes. */
  runOf(executionId: string): WorkflowRun | undefined {
    return this.#live.get(executionId)?.run;
  }

  /** The live run of an execution; an unknown node is 404 even on an ended run. */
  require(entry: ExecutionEntry, nodeId?: string): WorkflowRun {
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

  /** Starts the run of an execution that holds a slot (or its parent's). */
  start(entry: ExecutionEntry, launch: Launch): WorkflowRun {
    const options = this.#options;
    const { executionId, sessionId, workflowId } = entry;
    const { plan, request } = launch;
    // Recorded while restartable, or always when the store keeps checkpoints for recover.
    const store = options.checkpoints;
    const writer =
      store !== undefined && (store.durable || options.restartable(executionId))
        ? store.writer(executionId)
        : undefined;
    const recorder = new RunRecorder(this.#host, entry, plan, writer, launch.approvals);
    const span = options.tracer?.startRun({
      executionId,
      sessionId,
      workflowId,
      workflowVersion: entry.workflowVersion,
      parent:
        entry.parentExecutionId === null ? undefined : this.#spans.get(entry.parentExecutionId),
    });
    if (span !== undefined) {
      this.#spans.set(executionId, span);
      entry.traceId = span.traceId;
    }
    const run = new WorkflowRun({
      executionId,
      sessionId,
      workflowId,
      lineage: launch.lineage ?? executionId,
      startPayload: request.payload,
      plan,
      clock: new RunClock(options.clock, options.timers),
      services: this.#services,
      deadlineMs: launch.alwaysOn === true ? undefined : options.runDeadlineMs,
      events: recorder,
      host: recorder,
      replay: launch.replay,
    });
    if (writer !== undefined) run.recordTo(writer);
    this.#live.set(executionId, { run, recorder, children: undefined });
    entry.nodes = run.nodes;
    entry.transition('RUNNING');
    entry.startedAt = options.clock.now();
    options.notifier.emit(entry, { kind: 'execution.started', status: 'RUNNING' });
    options.journal?.started(executionId, entry.startedAt);
    const waiting = this.#starting.push(run);
    if (waiting === 1) setImmediate(this.#beginRuns);
    else if (waiting > MAX_WAITING_TO_BEGIN) this.#begin(this.#starting.shift());
    void run.done.then(recorder.ended);
    return run;
  }

  readonly #beginRuns = (): void => {
    const runs = this.#starting;
    this.#starting = [];
    for (const run of runs) this.#begin(run);
  };

  #begin(run: WorkflowRun | undefined): void {
    if (run !== undefined && !run.ended) run.start();
  }

  /** The execution can no longer be restarted: its run stops recording for a restart. */
  stopRecording(executionId: string): void {
    const live = this.#live.get(executionId);
    if (live === undefined) return;
    live.run.stopRecording();
    live.recorder.writer = undefined;
  }

  /** Stops every run without waiting for its end. */
  stopEach(reason: string): void {
    for (const live of this.#live.values()) live.run.stop(reason);
  }

  /** Settles once every run going now has ended. */
  finished(): Promise<void> {
    const finishing: Promise<void>[] = [];
    for (const executionId of this.#live.keys()) {
      const entry = this.#options.registry.get(executionId);
      if (entry !== undefined) finishing.push(entry.finished);
    }
    return Promise.all(finishing).then(() => undefined);
  }

  /** Stops every run still going and waits for them to end. */
  async stopAll(reason: string): Promise<void> {
    const ending = this.finished();
    this.stopEach(reason);
    await ending;
  }

  /** A run of `entry` ended: record it and stop its children. */
  #ended(entry: ExecutionEntry, outcome: RunOutcome): void {
    const { clock, meters, notifier, journal } = this.#options;
    const live = this.#live.get(entry.executionId);
    this.#live.delete(entry.executionId);
    for (const child of live?.children ?? []) this.#live.get(child)?.run.stop('Parent run ended');
    entry.transition(outcome.status);
    entry.error = outcome.error;
    const endedAt = clock.now();
    entry.endedAt = endedAt;
    notifier.emit(entry, {
      kind: END_STATUS_EVENTS[outcome.status],
      status: outcome.status,
      error: outcome.error,
    });
    const startedAt = entry.startedAt ?? endedAt;
    meters.time('svc.execution.duration', { status: outcome.status }, endedAt - startedAt);
    if (journal?.durable === true) {
      // Before its end, so that a run the log has ended has its outputs too.
      journal.outputs({
        executionId: entry.executionId,
        ...this.#options.registry.outputsOf(entry),
      });
    }
    journal?.ended(entry.executionId, outcome.status, outcome.error, endedAt);
    const span = this.#spans.get(entry.executionId);
    if (span !== undefined) {
      this.#spans.delete(entry.executionId);
      span.end(outcome.status, outcome.error);
    }
    entry.markFinished();
    this.#options.released(entry.executionId);
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
    // A run started by a key limited to sessions runs no child outside them (SPEC Roles).
    if (parent.reach !== null && !parent.reach.includes(request.sessionId)) {
      throw StepFailure.nonRetryable(
        `Sub-workflow session '${request.sessionId}' is outside the sessions of the key that started the run`,
      );
    }
    let child: ExecutionEntry;
    try {
      child = await this.#options.launchChild(request, parent);
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
    return this.#options.registry.resultsOf(child).map((result) => result.payload);
  }
}
