// One node of a run, as the run keeps it: its state, context, input and gate, and where its
// end stands. One object per node rather than a parallel array per field, so that a newcomer
// finds everything about a node in one place and a parked run holds one object per node.
import type { Message } from '../../plugin-api/index.js';
import type { NodeRecorder } from '../checkpoints.js';
import type { NodeInput } from '../streams/channel.js';
import type { RunNodeContext } from './node-context.js';
import type { NodeGate } from './node-gate.js';
import type { NodeEnd, NodeState, NodeStatus } from './node-state.js';
import type { PlannedNode } from './plan.js';
import type { FailedAttempt, RunEventSink } from './run-ports.js';

export class NodeTask {
  readonly node: PlannedNode;
  readonly state: NodeState;
  readonly context: RunNodeContext;
  /** Undefined for a node without parents (a trigger, or a replayed source). */
  readonly input: NodeInput<Message> | undefined;
  /**
   * Made for every node at once by the run's first control: a run nobody steers never has
   * one, and its runners see `undefined` and go straight on.
   */
  gate: NodeGate | undefined = undefined;
  /** Made when the node first records: most nodes of a parked run never do. */
  recorder: NodeRecorder | undefined = undefined;
  /** Set when something outside the node's task ends it (cancel, upstream failure, deadline). */
  pendingEnd: NodeEnd | undefined = undefined;
  /** Whether the run finished the node: that happens exactly once, whoever ends the node. */
  finished: boolean;
  /** Parents that completed (trigger rule `ONE_SUCCESS`). */
  parentsSucceeded = 0;
  /** Signal waits under way: the node shows WAITING while there are any. */
  signalWaits = 0;
  /**
   * A message is under way inside the plugin (a call that has not answered, a retry backoff,
   * a source producing its next message): work a run step can let finish.
   */
  working = false;
  /**
   * `onError: DEAD_LETTER` only: the failed attempts of each message under way, by message
   * id, so its letter carries them all; made by the node's first failure.
   */
  failures: Map<string, FailedAttempt[]> | undefined = undefined;

  constructor(
    node: PlannedNode,
    state: NodeState,
    context: RunNodeContext,
    input: NodeInput<Message> | undefined,
    finished: boolean,
  ) {
    this.node = node;
    this.state = state;
    this.context = context;
    this.input = input;
    this.finished = finished;
  }

  /** Ended, or being ended from outside and about to be. */
  get ended(): boolean {
    return this.finished || this.pendingEnd !== undefined;
  }

  /** The plugin work under way is done: a run step given to it ends, the node held again. */
  workDone(): void {
    this.working = false;
    this.gate?.workDone();
  }

  /** The node takes its first message (a trigger: it starts). */
  markStarted(now: number, events: RunEventSink): void {
    this.state.startedAt = now;
    this.showStatus(events);
  }

  /** Shows the node's live status when it changed; an ended node's status is final. */
  showStatus(events: RunEventSink): void {
    if (this.ended) return;
    const state = this.state;
    const status = this.#liveStatus();
    const previous = state.status;
    if (previous === status) return;
    state.status = status;
    events.nodeChanged(state, previous);
  }

  /**
   * Shows the gate's state in the node's status and clock. The node's own clock stands still
   * while it is paused or holds a message at its breakpoint, and runs during a step even on
   * a paused run, so that the stepped message can be dealt with.
   */
  showControl(events: RunEventSink): void {
    const gate = this.gate;
    if (this.ended || gate === undefined) return;
    const context = this.context;
    const hold = (gate.paused || gate.atBreakpoint) && !gate.stepping;
    // A clock made now starts as its parent is; only a hold or a step needs one made.
    const clock = hold || gate.stepping ? context.clock : context.existingClock;
    if (clock !== undefined) {
      if (hold) clock.pause();
      else clock.resume();
      clock.setIndependent(gate.stepping);
    }
    this.showStatus(events);
  }

  /**
   * WAITING while it holds a message at its breakpoint, PAUSED while paused (a run pause
   * shows only on nodes that have started) unless a step lets it work, SKIPPED while skipped,
   * and otherwise RUNNING once it has started.
   */
  #liveStatus(): NodeStatus {
    const started = this.state.startedAt !== null;
    const gate = this.gate;
    if (this.signalWaits > 0) return 'WAITING';
    if (gate === undefined) return started ? 'RUNNING' : 'PENDING';
    if (gate.waiting && gate.atBreakpoint) return 'WAITING';
    if (!gate.stepping && (gate.paused || (gate.runPaused && started))) return 'PAUSED';
    if (gate.skipped) return 'SKIPPED';
    // A stepped node is taking its message: RUNNING from the step on, even before it starts.
    return started || gate.stepping ? 'RUNNING' : 'PENDING';
  }
}
