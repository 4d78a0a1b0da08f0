// One run of a prepared workflow: a task per node joined by bounded channels (ARCHITECTURE "A
// run is a set of node tasks"). The run coordinates; each concern has a module of its own:
// the node tasks (`node-task`, `node-runner`), one message's attempts (`attempts`), output and
// checkpoints (`run-emitter`), how nodes and the run end (`run-lifecycle`) and the controls
// (`run-controls`).
import type { Message } from '../../plugin-api/index.js';
import type { CheckpointWriter } from '../checkpoints.js';
import { Channel, DroppingChannel } from '../streams/channel.js';
import type { NodeInput } from '../streams/channel.js';
import { plainLineage } from './message-ids.js';
import { RunNodeContext } from './node-context.js';
import type { RunScope } from './node-context.js';
import { runNode } from './node-runner.js';
import type { RunParts } from './node-runner.js';
import { pendingState } from './node-state.js';
import { DEFAULT_MAX_PAYLOAD_BYTES } from './payload-size.js';
import type { NodeState, RunOutcome } from './node-state.js';
import { NodeTask } from './node-task.js';
import type { PlannedNode } from './plan.js';
import { RunControls } from './run-controls.js';
import { RunEmitter } from './run-emitter.js';
import { readRunFlow } from './run-flow.js';
import type { RunFlow } from './run-flow.js';
import { RunLifecycle } from './run-lifecycle.js';
import { RunSettlements } from './settlements.js';
import { creditsOf } from './credits.js';
import type { RunClock } from './run-clock.js';
import type { RunEventSink, RunHost, RunOptions } from './run-ports.js';

const DEFAULT_CAPACITY = 64;

export class WorkflowRun {
  /** The nodes that take part in the run, in topological order. */
  readonly nodes: readonly NodeState[];
  readonly done: Promise<RunOutcome>;
  readonly #options: RunOptions;
  /** Every node of the plan, by plan index; nodes left out of a replay have a task too. */
  readonly #tasks: readonly NodeTask[];
  readonly #parts: RunParts;
  #started = false;
  /** Made by the first control: a run nobody steers never has one. */
  #controls: RunControls | undefined;

  constructor(options: RunOptions) {
    this.#options = options;
    const plan = options.plan;
    const capacity = options.channelCapacity ?? DEFAULT_CAPACITY;
    const scope = new SharedScope(options, creditsOf(plan, capacity));
    const omitted = options.replay?.omitted;
    this.#tasks = plan.nodes.map((node) => {
      const state = pendingState(node.nodeId, node.type);
      return new NodeTask(
        node,
        state,
        new RunNodeContext(scope, node.nodeId),
        inputOf(node, state, capacity, options),
        omitted?.has(node.nodeId) === true,
      );
    });
    scope.tasks = this.#tasks;
    this.nodes = (
      omitted === undefined ? this.#tasks : this.#tasks.filter((task) => !task.finished)
    ).map((task) => task.state);
    const logger = options.services.logger;
    const debug = logger.isLevelEnabled('debug');
    const emitter = new RunEmitter(
      this.#tasks,
      options.events,
      debug,
      options.services.maxPayloadBytes ?? DEFAULT_MAX_PAYLOAD_BYTES,
    );
    const lifecycle = new RunLifecycle(
      options.executionId,
      this.#tasks,
      options.clock,
      options.events,
    );
    const settlements = new RunSettlements(options, lifecycle.done);
    this.#parts = {
      options,
      lineage: plainLineage(options.lineage),
      emitter,
      lifecycle,
      settlements,
      trace: logger.isLevelEnabled('trace'),
      debug,
    };
    this.done = lifecycle.done;
  }

  start(): void {
    if (this.#started) return;
    this.#started = true;
    const { deadlineMs } = this.#options;
    if (deadlineMs !== undefined) this.#parts.lifecycle.setDeadline(deadlineMs);
    for (const task of this.#tasks) void runNode(this.#parts, task);
  }

  /** Stops the run: every node still going ends STOPPED. */
  stop(reason = 'Stopped'): void {
    this.#parts.lifecycle.end({ status: 'STOPPED', error: reason }, 'STOPPED');
  }

  /** How messages flow through the run now: per-edge loads, node counts, who holds back. */
  flow(): RunFlow {
    const omitted = this.#options.replay?.omitted;
    return readRunFlow(this.#tasks, (task) => omitted?.has(task.node.nodeId) !== true);
  }

  /** The run has ended, or is ending. */
  get ended(): boolean {
    return this.#parts.lifecycle.ended;
  }

  /**
   * Records every emitted message and end marker with `writer` (SPEC Checkpoint); set before
   * `start`. Not an option, so that `stopRecording` can let the writer go.
   */
  recordTo(writer: CheckpointWriter): void {
    this.#parts.emitter.recordTo(writer);
  }

  /**
   * Stops recording: the run is no longer restartable (it left the archive), so what it
   * would record is not needed and its recorders are let go.
   */
  stopRecording(): void {
    this.#parts.emitter.recordTo(undefined);
  }

  // --- controls (CONTRACT section 4 run and node controls): see RunControls -------------

  get paused(): boolean {
    return this.#controls?.paused ?? false;
  }

  pause(): void {
    this.#controlled().pause();
  }

  resume(): void {
    // Nothing was ever paused or held without controls.
    if (this.#controls === undefined) this.#parts.lifecycle.assertActive();
    else this.#controls.resume();
  }

  step(): string {
    return this.#controlled().step();
  }

  pauseNode(nodeId: string): void {
    this.#controlled().pauseNode(nodeId);
  }

  resumeNode(nodeId: string): void {
    this.#controlled().resumeNode(nodeId);
  }

  stepNode(nodeId: string): void {
    this.#controlled().stepNode(nodeId);
  }

  stopNode(nodeId: string): void {
    this.#controlled().stopNode(nodeId);
  }

  skipNode(nodeId: string): void {
    this.#controlled().skipNode(nodeId);
  }

  unskipNode(nodeId: string): void {
    this.#controlled().unskipNode(nodeId);
  }

  setBreakpoints(nodeIds: readonly string[]): void {
    this.#controlled().setBreakpoints(nodeIds);
  }

  /** Nodes with a breakpoint, in topological order. */
  get breakpoints(): string[] {
    return this.#controls?.breakpoints ?? [];
  }

  #controlled(): RunControls {
    const options = this.#options;
    return (this.#controls ??= new RunControls({
      executionId: options.executionId,
      plan: options.plan,
      tasks: this.#tasks,
      clock: options.clock,
      events: options.events,
      lifecycle: this.#parts.lifecycle,
    }));
  }
}

/** A node's input: none for a node without parents, else a channel or its edge buffer. */
function inputOf(
  node: PlannedNode,
  state: NodeState,
  capacity: number,
  options: RunOptions,
): NodeInput<Message> | undefined {
  if (node.inputEdges === 0) return undefined;
  const buffer = node.settings.edgeBuffer;
  if (buffer === undefined) return new Channel<Message>(capacity, node.inputEdges, node.parents);
  return new DroppingChannel<Message>(
    buffer.size,
    buffer.overflow,
    () => {
      state.dropped++;
      options.events.edgeDropped(node.nodeId);
    },
    node.inputEdges,
    node.parents,
  );
}

/**
 * What the nodes of one run share (their contexts read it): the run's options and its tasks.
 * A class rather than an object of copied fields and a closure, because a parked run holds it
 * for as long as it waits.
 */
class SharedScope implements RunScope {
  readonly #options: RunOptions;
  readonly creditOf: (nodeId: string) => number;
  /** Set once the run's tasks are made, before any node runs. */
  tasks: readonly NodeTask[] = [];

  constructor(options: RunOptions, creditOf: (nodeId: string) => number) {
    this.#options = options;
    this.creditOf = creditOf;
  }

  get executionId(): string {
    return this.#options.executionId;
  }

  get sessionId(): string {
    return this.#options.sessionId;
  }

  get workflowId(): string {
    return this.#options.workflowId;
  }

  get startPayload(): unknown {
    return this.#options.startPayload;
  }

  get clock(): RunClock {
    return this.#options.clock;
  }

  get events(): RunEventSink {
    return this.#options.events;
  }

  get host(): RunHost {
    return this.#options.host;
  }

  signalWaits(nodeId: string, delta: number): void {
    const node = this.#options.plan.byId.get(nodeId);
    const task = node === undefined ? undefined : this.tasks[node.index];
    if (task === undefined) return;
    task.signalWaits += delta;
    task.showStatus(this.#options.events);
  }
}
