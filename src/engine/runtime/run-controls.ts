// Run and node controls (CONTRACT section 4): pause, resume, step, stop, skip and breakpoints,
// all acting on the node gates. Made by a run's first control, with a gate for every node:
// a run nobody steers never pays for them.
import { AppError } from '../../core/index.js';
import { NodeGate } from './node-gate.js';
import { NodeEnd } from './node-state.js';
import type { NodeTask } from './node-task.js';
import type { WorkflowPlan } from './plan.js';
import type { RunClock } from './run-clock.js';
import type { RunLifecycle } from './run-lifecycle.js';
import type { RunEventSink } from './run-ports.js';

/** How a node control reads in `NODE_NOT_CONTROLLABLE`: "Node 'x' cannot be paused". */
type NodeAction = 'paused' | 'resumed' | 'stepped' | 'stopped' | 'skipped' | 'unskipped';

export interface ControlledRun {
  readonly executionId: string;
  readonly plan: WorkflowPlan;
  /** By plan index, which is topological order. */
  readonly tasks: readonly NodeTask[];
  readonly clock: RunClock;
  readonly events: RunEventSink;
  readonly lifecycle: RunLifecycle;
}

export class RunControls {
  readonly #run: ControlledRun;
  #paused = false;

  constructor(run: ControlledRun) {
    this.#run = run;
    const { tasks, events } = run;
    // Every change of a gate shows in its node's status and clock.
    const changed = (gate: NodeGate): void => {
      tasks[gate.index]?.showControl(events);
    };
    for (const task of tasks) task.gate = new NodeGate(task.node.index, changed);
  }

  get paused(): boolean {
    return this.#paused;
  }

  /**
   * Freezes every clock of the run (SPEC States and transitions rule 1: a pause never causes
   * a timeout) and closes every gate: no node takes another message until `resume`; work
   * already inside a plugin call goes on.
   */
  pause(): void {
    const run = this.#run;
    run.lifecycle.assertActive();
    if (this.#paused) return;
    this.#paused = true;
    run.clock.pause();
    run.events.runChanged?.('PAUSED');
    for (const gate of this.#gates()) gate.setRunPaused(true);
  }

  /** Ends a run pause and lets every message held at a breakpoint go on. */
  resume(): void {
    const run = this.#run;
    run.lifecycle.assertActive();
    if (this.#paused) {
      this.#paused = false;
      run.clock.resume();
      run.events.runChanged?.('RUNNING');
    }
    for (const gate of this.#gates()) gate.resumeRun();
  }

  /**
   * On a paused run, moves one message on, in the first of these places (each in topological
   * order, passing over nodes paused on their own): a node that waits at its gate (holding a
   * message or, for a source, about to ask for one) takes it; else the work a node has under
   * way inside its plugin (a delay, a retry backoff, but not a signal wait) finishes its
   * message; else a node with messages in its input takes the next one once it is free.
   * Answers that node's id, and refuses with `NOTHING_TO_STEP` when no node holds a message
   * it could move: a step is never answered as applied while nothing moves.
   */
  step(): string {
    const run = this.#run;
    run.lifecycle.assertActive();
    if (!this.#paused) {
      throw new AppError('EXECUTION_NOT_PAUSED', { params: { executionId: run.executionId } });
    }
    const tasks = run.tasks;
    for (const task of tasks) {
      const gate = task.gate;
      if (gate === undefined || !gate.waiting || gate.paused || task.ended) continue;
      gate.step();
      return task.node.nodeId;
    }
    for (const task of tasks) {
      const gate = task.gate;
      // A signal wait ends with its answer, which a step cannot give: its time stays frozen.
      const movable = task.working && task.signalWaits === 0;
      if (gate === undefined || !movable || gate.paused || gate.stepping || task.ended) continue;
      gate.stepWork();
      return task.node.nodeId;
    }
    for (const task of tasks) {
      const gate = task.gate;
      if (gate === undefined || (task.input?.size ?? 0) === 0 || gate.paused || task.ended) {
        continue;
      }
      // A pass for the message it takes next, once the work it has under way is done.
      gate.step();
      return task.node.nodeId;
    }
    throw new AppError('NOTHING_TO_STEP', { params: { executionId: run.executionId } });
  }

  /** Closes one node's gate and freezes its clock; the rest of the run goes on. */
  pauseNode(nodeId: string): void {
    this.#gateOf(nodeId, 'paused').setPaused(true);
  }

  /** Ends the node's own pause and lets a message held at its breakpoint go on. */
  resumeNode(nodeId: string): void {
    this.#gateOf(nodeId, 'resumed').resume();
  }

  /**
   * Lets one message through a held node (paused, run paused, or at a breakpoint): the one
   * waiting now, or else the next to arrive. Nothing happens to a node nothing holds.
   */
  stepNode(nodeId: string): void {
    this.#gateOf(nodeId, 'stepped').step();
  }

  /** Ends one node STOPPED at once; under the default trigger rule its children fail upstream. */
  stopNode(nodeId: string): void {
    const task = this.#controllable(nodeId, 'stopped');
    this.#run.lifecycle.endFromOutside(task, new NodeEnd('STOPPED', 'Stopped by a node control'));
  }

  /**
   * Passes each message on unchanged on port `out` without calling the plugin, until
   * `unskipNode`. Only processors: a trigger has nothing to pass and a terminal nowhere to.
   */
  skipNode(nodeId: string): void {
    this.#gateOf(nodeId, 'skipped', true).setSkipped(true);
  }

  unskipNode(nodeId: string): void {
    this.#gateOf(nodeId, 'unskipped', true).setSkipped(false);
  }

  /** Replaces the set of breakpoints: each of those nodes holds every message before taking it. */
  setBreakpoints(nodeIds: readonly string[]): void {
    const wanted = new Set(nodeIds.map((nodeId) => this.#task(nodeId).node.index));
    this.#run.lifecycle.assertActive();
    for (const gate of this.#gates()) gate.setBreakpoint(wanted.has(gate.index));
  }

  /** Nodes with a breakpoint, in topological order. */
  get breakpoints(): string[] {
    return this.#run.tasks.flatMap((task) => (task.gate?.breakpoint ? [task.node.nodeId] : []));
  }

  *#gates(): Generator<NodeGate> {
    for (const task of this.#run.tasks) if (task.gate !== undefined) yield task.gate;
  }

  #task(nodeId: string): NodeTask {
    const run = this.#run;
    const node = run.plan.byId.get(nodeId);
    const task = node === undefined ? undefined : run.tasks[node.index];
    if (task === undefined) {
      throw new AppError('NODE_NOT_FOUND', { params: { nodeId, executionId: run.executionId } });
    }
    return task;
  }

  /** Checks what does not change first (the node, its kind), then the run and the node. */
  #controllable(nodeId: string, action: NodeAction, processorsOnly = false): NodeTask {
    const task = this.#task(nodeId);
    const kind = task.node.kind;
    if (processorsOnly && kind !== 'processor') {
      throw new AppError('NOT_A_PROCESSOR', { params: { nodeId, kind } });
    }
    this.#run.lifecycle.assertActive();
    if (task.ended) {
      throw new AppError('NODE_NOT_CONTROLLABLE', { params: { nodeId, action } });
    }
    return task;
  }

  #gateOf(nodeId: string, action: NodeAction, processorsOnly = false): NodeGate {
    const gate = this.#controllable(nodeId, action, processorsOnly).gate;
    if (gate === undefined) throw new Error(`No gate for node '${nodeId}'`);
    return gate;
  }
}
