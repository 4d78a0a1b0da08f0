// How the nodes of a run end, and with them the run (SPEC "States and transitions"): each node
// is finished exactly once, whoever ends it; completion flows downstream through the trigger
// rules; a failed sink, the run deadline or a stop ends the run and every node still going.
import { AppError } from '../../core/index.js';
import { FAILED_STATUSES, NodeEnd } from './node-state.js';
import type { NodeStatus, RunOutcome } from './node-state.js';
import type { NodeTask } from './node-task.js';
import type { PlannedNode } from './plan.js';
import type { RunClock, TimerHandle } from './run-clock.js';
import type { RunEventSink } from './run-ports.js';

/** One per run. */
export class RunLifecycle {
  readonly done: Promise<RunOutcome>;
  readonly #executionId: string;
  readonly #tasks: readonly NodeTask[];
  readonly #clock: RunClock;
  readonly #events: RunEventSink;
  #finishedCount: number;
  /** How the run ends or ended: set when an end begins, or when the last node finished. */
  #ending: RunOutcome | undefined;
  /**
   * The first node that failed by itself (FAILURE or TIMED_OUT): the root cause the run's
   * error names, rather than the sink that ended UPSTREAM_FAILED behind it.
   */
  #firstFailure: { readonly nodeId: string; readonly end: NodeEnd } | undefined;
  #resolveDone: (outcome: RunOutcome) => void = () => undefined;
  #deadline: TimerHandle | undefined;

  constructor(
    executionId: string,
    tasks: readonly NodeTask[],
    clock: RunClock,
    events: RunEventSink,
  ) {
    this.#executionId = executionId;
    this.#tasks = tasks;
    this.#clock = clock;
    this.#events = events;
    // Nodes left out of a replay count as finished from the start.
    this.#finishedCount = tasks.filter((task) => task.finished).length;
    this.done = new Promise((resolve) => {
      this.#resolveDone = resolve;
    });
  }

  /** The run has ended, or is ending. */
  get ended(): boolean {
    return this.#ending !== undefined;
  }

  /** Refuses a control of a run that has ended or is ending with `EXECUTION_NOT_ACTIVE`. */
  assertActive(): void {
    if (this.#ending === undefined) return;
    throw new AppError('EXECUTION_NOT_ACTIVE', {
      params: { executionId: this.#executionId, status: this.#ending.status },
    });
  }

  /** The run ends TIMED_OUT once `ms` of its (pausable) time have passed. */
  setDeadline(ms: number): void {
    this.#deadline = this.#clock.after(ms, () => {
      this.end({ status: 'TIMED_OUT', error: `Run deadline of ${ms} ms passed` }, 'CANCELLED');
    });
  }

  /** Ends the run once; nodes still going end with `nodeStatus` and release what they hold. */
  end(outcome: RunOutcome, nodeStatus: NodeStatus): void {
    if (this.#ending !== undefined) return;
    this.#ending = outcome;
    // A node a moment away from finishing on its own gets that moment: a trigger that has
    // emitted its last message completes rather than being cancelled.
    setImmediate(() => {
      const remaining = this.#tasks.filter((task) => !task.finished);
      // Most runs end with every node finished: nothing to end, and no error to make.
      if (remaining.length === 0) return;
      const end = new NodeEnd(nodeStatus, outcome.error ?? nodeStatus);
      // Mark every node first, so none is reported UPSTREAM_FAILED because a parent was
      // cancelled a moment earlier.
      for (const task of remaining) this.markEnded(task, end);
      for (const task of remaining) this.finish(task, end);
    });
  }

  /**
   * Ends a node now, not when its task notices: a plugin that ignores its signal cannot keep
   * the run alive, and whatever it emits late is dropped.
   */
  endFromOutside(task: NodeTask, end: NodeEnd): void {
    if (this.markEnded(task, end)) this.finish(task, end);
  }

  /** Tells a node's task and plugin to stop; false when the node has ended already. */
  markEnded(task: NodeTask, end: NodeEnd): boolean {
    if (task.ended) return false;
    task.pendingEnd = end;
    task.context.abort(end);
    task.input?.cancel();
    // A task held at its gate goes on, finds the end and leaves.
    task.gate?.wake();
    return true;
  }

  finish(task: NodeTask, outcome: NodeEnd): void {
    if (task.finished) return;
    task.finished = true;
    const node = task.node;
    const state = task.state;
    const now = this.#clock.now();
    if (state.startedAt === null && outcome.status !== 'UPSTREAM_FAILED') state.startedAt = now;
    const succeeded = outcome.status === 'COMPLETED' || outcome.status === 'SKIPPED';
    state.endedAt = now;
    state.status = outcome.status;
    if (!succeeded) state.error = outcome.message;
    if (ROOT_CAUSE_STATUSES.has(outcome.status) && this.#ending === undefined) {
      this.#firstFailure ??= { nodeId: node.nodeId, end: outcome };
    }
    this.#events.nodeChanged(state);
    // Completion flows downstream: children see END once every edge into them has closed.
    for (const target of edgeTargets(node)) this.#tasks[target]?.input?.closeWriter();
    for (const child of node.children) this.#parentEnded(child, node, succeeded);
    if (node.sink && FAILED_STATUSES.has(outcome.status) && this.#ending === undefined) {
      const cause = this.#firstFailure ?? { nodeId: node.nodeId, end: outcome };
      this.end(
        {
          status: 'FAILED',
          error: `Node '${cause.nodeId}' ended ${cause.end.status}: ${cause.end.message}`,
        },
        'CANCELLED',
      );
    }
    if (++this.#finishedCount === this.#tasks.length) {
      this.#deadline?.cancel();
      this.#clock.dispose();
      this.#ending ??= { status: 'COMPLETED', error: null };
      this.#resolveDone(this.#ending);
    }
  }

  #parentEnded(childIndex: number, parent: PlannedNode, succeeded: boolean): void {
    const child = this.#tasks[childIndex];
    if (child === undefined) return;
    if (succeeded) child.parentsSucceeded++;
    if (succeeded || child.node.settings.trigger !== 'ALL_SUCCESS') return;
    this.endFromOutside(
      child,
      new NodeEnd('UPSTREAM_FAILED', `Parent '${parent.nodeId}' did not complete`),
    );
  }
}

/** The ends a node reaches by itself; the others follow from a parent's end or a stop. */
const ROOT_CAUSE_STATUSES: ReadonlySet<NodeStatus> = new Set(['FAILURE', 'TIMED_OUT']);

/** One entry per outgoing edge, so each edge closes its writer slot exactly once. */
function edgeTargets(node: PlannedNode): number[] {
  const targets = [...node.anyPort];
  for (const [, routed] of node.routes) {
    targets.push(...routed.slice(0, routed.length - node.anyPort.length));
  }
  return targets;
}
