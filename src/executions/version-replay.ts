// Replay on another version (docs/run-repair.md): a restart may run a saved version other than
// the one the run used, when what it replays means the same in both, that is, when the graph
// above the restart node is unchanged. Below it anything may change: that is the point.
import { AppError } from '../core/index.js';
import { diffWorkflows } from '../engine/index.js';
import type { WorkflowPlan } from '../engine/index.js';

/** The nodes a restart takes as they were, and the nodes whose inputs must stay the same. */
export interface Above {
  readonly nodes: ReadonlySet<string>;
  readonly inputsOf: readonly string[];
}

/**
 * From a node: the nodes whose recorded output is replayed and every node above them (their
 * output is what was recorded), plus the edges into the restart node, so it receives what
 * its messages view showed.
 */
export function aboveReplay(plan: WorkflowPlan, feeders: readonly string[], nodeId: string): Above {
  const nodes = new Set<string>();
  const pending = feeders.flatMap((feeder) => plan.byId.get(feeder)?.index ?? []);
  while (pending.length > 0) {
    const node = plan.nodes[pending.pop() as number];
    if (node === undefined || nodes.has(node.nodeId)) continue;
    nodes.add(node.nodeId);
    pending.push(...node.parents);
  }
  return { nodes, inputsOf: [nodeId] };
}

/**
 * A whole restart replays nothing, but hands the recorded start payload to the triggers
 * again: they must be the same triggers, configured the same, for the payload to mean what
 * it meant. Every other node may differ.
 */
export function aboveWholeRestart(from: WorkflowPlan, to: WorkflowPlan): Above {
  const triggers = [...from.nodes, ...to.nodes].filter((node) => node.kind === 'trigger');
  return { nodes: new Set(triggers.map((node) => node.nodeId)), inputsOf: [] };
}

/** Refuses (409, naming the node) a version whose graph above the restart differs. */
export function assertUnchangedAbove(
  from: WorkflowPlan,
  to: WorkflowPlan,
  above: Above,
  context: { readonly executionId: string; readonly version: number },
): void {
  const detail = differenceAbove(from, to, above);
  if (detail !== undefined) {
    throw new AppError('REPLAY_VERSION_CONFLICT', { params: { ...context, detail } });
  }
}

/**
 * Whether a node's recorded output in a run of `from` stands for its output in `to`: the node
 * and every node above it are the same in both.
 */
export function hasSameOutput(from: WorkflowPlan, to: WorkflowPlan, nodeId: string): boolean {
  return differenceAbove(from, to, aboveReplay(to, [nodeId], nodeId)) === undefined;
}

/** The first difference of the graph above, in words, or undefined when there is none. */
function differenceAbove(from: WorkflowPlan, to: WorkflowPlan, above: Above): string | undefined {
  const diff = diffWorkflows(from.definition, to.definition);
  const added = diff.nodes.added.find((node) => above.nodes.has(node.nodeId));
  if (added !== undefined) return `node '${added.nodeId}' is not in the version the run used`;
  const removed = diff.nodes.removed.find((node) => above.nodes.has(node.nodeId));
  if (removed !== undefined) return `node '${removed.nodeId}' is not in it`;
  const changed = diff.nodes.changed.find((node) => above.nodes.has(node.nodeId));
  if (changed !== undefined) {
    return `node '${changed.nodeId}' differs (its type or configuration changed)`;
  }
  const inputsOf = new Set([...above.nodes, ...above.inputsOf]);
  const edge = [...diff.edges.added, ...diff.edges.removed].find((candidate) =>
    inputsOf.has(candidate.target),
  );
  return edge === undefined ? undefined : `the edges into node '${edge.target}' differ`;
}
