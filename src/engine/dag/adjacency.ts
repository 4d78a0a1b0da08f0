// The workflow graph as integer adjacency lists, the shape the graph algorithms walk.
import type { EdgeDefinition, WorkflowDefinition } from './model.js';

export interface Adjacency {
  /** Node ids by index; a repeated nodeId keeps only its first node. */
  readonly ids: readonly string[];
  readonly indexOf: ReadonlyMap<string, number>;
  /** Children of each node, one entry per edge (an edge given twice appears twice). */
  readonly children: readonly (readonly number[])[];
  readonly parents: readonly (readonly number[])[];
}

/** Edges naming an unknown node are left out; validation reports them separately. */
export function buildAdjacency(definition: WorkflowDefinition): Adjacency {
  const ids: string[] = [];
  const indexOf = new Map<string, number>();
  for (const node of definition.nodes) {
    if (indexOf.has(node.nodeId)) continue;
    indexOf.set(node.nodeId, ids.length);
    ids.push(node.nodeId);
  }
  const children = ids.map((): number[] => []);
  const parents = ids.map((): number[] => []);
  for (const edge of definition.edges) {
    const source = indexOf.get(edge.source);
    const target = indexOf.get(edge.target);
    if (source === undefined || target === undefined) continue;
    children[source]?.push(target);
    parents[target]?.push(source);
  }
  return { ids, indexOf, children, parents };
}

/** An edge is its route: two edges with the same source, port and target are one edge. */
export function edgeKey(edge: EdgeDefinition): string {
  return JSON.stringify([edge.source, edge.sourcePort ?? null, edge.target]);
}
