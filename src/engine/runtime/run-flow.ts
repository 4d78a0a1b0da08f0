// How messages flow through a run now, for a live view: per edge what is queued in the
// child's input and whether the parent waits for room, per node its counts, and the node that
// holds the others back. Read from the channels' own counts when asked (about once a second),
// so a run nobody watches pays nothing for it.
import type { NodeStatus } from './node-state.js';
import type { NodeTask } from './node-task.js';

export interface EdgeFlow {
  readonly source: string;
  readonly target: string;
  /** Messages of this edge queued in the target's input. */
  readonly queued: number;
  /** The target input's capacity, which all its edges share. */
  readonly capacity: number;
  /** Messages of this edge the target took so far: a rate is the change between two reads. */
  readonly taken: number;
  /** The source waits for room in the target's input. */
  readonly sourceWaiting: boolean;
}

export interface NodeFlow {
  readonly nodeId: string;
  readonly status: NodeStatus;
  readonly messagesIn: number;
  readonly messagesOut: number;
  readonly retries: number;
  /** The node waits for room in a child's input. */
  readonly waitingToSend: boolean;
  /**
   * Its input is full (a parent waits on it, or will with its next message) while the node is
   * itself free to send: it waits for room in no child's input, and no input it feeds is full.
   */
  readonly holdingBack: boolean;
}

export interface RunFlow {
  readonly nodes: readonly NodeFlow[];
  readonly edges: readonly EdgeFlow[];
  /**
   * The first node, in topological order, that holds the others back (`holdingBack`); null
   * when none does.
   */
  readonly heldBackBy: string | null;
}

/**
 * The flow of the run's nodes as they stand. `tasks` by plan index; nodes `shown` rejects (left
 * out of a replay) and their edges are left out.
 */
export function readRunFlow(
  tasks: readonly NodeTask[],
  shown: (task: NodeTask) => boolean,
): RunFlow {
  const edges: EdgeFlow[] = [];
  const waitingToSend = new Set<number>();
  const waitedOn = new Set<number>();
  /** Nodes feeding a full input: held back from further down, waiting to send at this instant or not. */
  const feedingFull = new Set<number>();
  for (const task of tasks) {
    const input = task.input;
    if (input === undefined || !shown(task)) continue;
    // A full input holds its parents back even at an instant none of them waits on it: one may
    // be between taking its next message and sending it.
    const full = input.size >= input.capacity;
    if (full) waitedOn.add(task.node.index);
    for (const parent of task.node.parents) {
      const source = tasks[parent];
      if (source === undefined || !shown(source)) continue;
      const load = input.loadOf(parent);
      if (full) feedingFull.add(parent);
      // A parent that waits on a full input is held back by this node.
      if (load.writerWaiting) {
        waitingToSend.add(parent);
        waitedOn.add(task.node.index);
      }
      edges.push({
        source: source.node.nodeId,
        target: task.node.nodeId,
        queued: load.queued,
        capacity: input.capacity,
        taken: load.taken,
        sourceWaiting: load.writerWaiting,
      });
    }
  }
  let heldBackBy: string | null = null;
  const nodes = tasks.filter(shown).map((task): NodeFlow => {
    const index = task.node.index;
    const { nodeId, status, messagesIn, messagesOut, retries } = task.state;
    // A node that itself waits to send, or feeds a full input, is held back too: the cause
    // lies further down.
    const holdingBack = waitedOn.has(index) && !waitingToSend.has(index) && !feedingFull.has(index);
    if (holdingBack) heldBackBy ??= nodeId;
    return {
      nodeId,
      status,
      messagesIn,
      messagesOut,
      retries,
      waitingToSend: waitingToSend.has(index),
      holdingBack,
    };
  });
  return { nodes, edges, heldBackBy };
}
