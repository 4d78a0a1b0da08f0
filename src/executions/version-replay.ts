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
  const conflict = (detail: string): never => {
    throw new AppError('REPLAY_VERSION_CONFLICT', { params: { ...context, detail } });
  };
  const diff = diffWorkflows(from.definition, to.definition);
  for (const node of diff.nodes.added) {
    if (above.nodes.has(node.nodeId)) {
      conflict(`node '${node.nodeId}' is not in the version the run used`);
    }
  }
  for (const node of diff.nodes.removed) {
    if (above.nodes.has(node.nodeId)) conflict(`node '${node.nodeId}' is not in it`);
  }
  for (const node of diff.nodes.changed) {
    if (above.nodes.has(node.nodeId)) {
      conflict(`node '${node.nodeId}' differs (its type or configuration changed)`);
    }
  }
  const inputsOf = new Set([...above.nodes, ...above.inputsOf]);
  for (const edge of [...diff.edges.added, ...diff.edges.removed]) {
    if (inputsOf.has(edge.target)) conflict(`the edges into node '${edge.target}' differ`);
  }
}
