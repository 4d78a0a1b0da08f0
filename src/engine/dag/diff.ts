// Structural diff of two workflow versions (CONTRACT section 3, version diff).
import { isDeepStrictEqual } from 'node:util';
import { edgeKey } from './adjacency.js';
import type { EdgeDefinition, NodeDefinition, WorkflowDefinition } from './model.js';

export interface WorkflowDiff {
  readonly nodes: {
    readonly added: NodeDefinition[];
    readonly removed: NodeDefinition[];
    /** The `to` version of each node whose type or configuration differs. */
    readonly changed: NodeDefinition[];
  };
  readonly edges: { readonly added: EdgeDefinition[]; readonly removed: EdgeDefinition[] };
}

/** Nodes are matched by nodeId; a missing config equals an empty one. */
export function diffWorkflows(from: WorkflowDefinition, to: WorkflowDefinition): WorkflowDiff {
  const before = new Map(from.nodes.map((node) => [node.nodeId, node]));
  const after = new Map(to.nodes.map((node) => [node.nodeId, node]));
  const changed = to.nodes.filter((node) => {
    const old = before.get(node.nodeId);
    return (
      old !== undefined &&
      (old.type !== node.type || !isDeepStrictEqual(old.config ?? {}, node.config ?? {}))
    );
  });
  const edgesBefore = new Set(from.edges.map(edgeKey));
  const edgesAfter = new Set(to.edges.map(edgeKey));
  return {
    nodes: {
      added: to.nodes.filter((node) => !before.has(node.nodeId)),
      removed: from.nodes.filter((node) => !after.has(node.nodeId)),
      changed,
    },
    edges: {
      added: to.edges.filter((edge) => !edgesBefore.has(edgeKey(edge))),
      removed: from.edges.filter((edge) => !edgesAfter.has(edgeKey(edge))),
    },
  };
}
