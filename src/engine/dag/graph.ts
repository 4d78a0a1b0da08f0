// Graph details of a valid workflow (CONTRACT section 4, the graph call): node kinds,
// output ports, topological order and levels.
import { AppError } from '../../core/index.js';
import type { NodeKind, PluginCatalog } from '../ports.js';
import { buildAdjacency } from './adjacency.js';
import type { EdgeDefinition, WorkflowDefinition } from './model.js';
import { validateWorkflow } from './validate.js';

export interface GraphNode {
  readonly nodeId: string;
  readonly type: string;
  readonly kind: NodeKind;
  /** 0 for nodes without parents, else one more than the deepest parent. */
  readonly level: number;
}

export interface WorkflowGraph {
  readonly workflowId: string;
  readonly nodes: GraphNode[];
  readonly edges: EdgeDefinition[];
  readonly outputPorts: Record<string, string[]>;
  /** Node ids by level; within a level in definition order. */
  readonly levels: string[][];
}

interface Layering {
  readonly order: string[];
  readonly levelOf: ReadonlyMap<string, number>;
}

/** Kahn's algorithm; ties keep definition order so the result is stable. */
function layer(definition: WorkflowDefinition): Layering {
  const graph = buildAdjacency(definition);
  const waiting = graph.parents.map((parents) => parents.length);
  const level = graph.ids.map(() => 0);
  const queue: number[] = [];
  waiting.forEach((count, index) => {
    if (count === 0) queue.push(index);
  });
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head] ?? 0;
    for (const child of graph.children[node] ?? []) {
      level[child] = Math.max(level[child] ?? 0, (level[node] ?? 0) + 1);
      const left = (waiting[child] ?? 0) - 1;
      waiting[child] = left;
      if (left === 0) queue.push(child);
    }
  }
  if (queue.length < graph.ids.length) {
    throw new AppError('WORKFLOW_INVALID', {
      fieldErrors: [{ field: 'edges', message: 'The workflow has a cycle' }],
    });
  }
  const order = queue.map((index) => graph.ids[index] ?? '');
  const levelOf = new Map(graph.ids.map((id, index) => [id, level[index] ?? 0]));
  return { order, levelOf };
}

/** Node ids so that every node comes after all its parents; fails on a cycle. */
export function topologicalOrder(definition: WorkflowDefinition): string[] {
  return layer(definition).order;
}

/** Describes a workflow that passes validation; fails with its problems otherwise. */
export function describeGraph(
  definition: WorkflowDefinition,
  catalog: PluginCatalog,
): WorkflowGraph {
  // Placement is a build question, not a graph one, so it is not held against the graph.
  const validation = validateWorkflow(definition, catalog, { workers: true });
  if (!validation.valid) {
    throw new AppError('WORKFLOW_INVALID', { fieldErrors: validation.errors });
  }
  const { levelOf } = layer(definition);
  const levels: string[][] = [];
  const nodes = definition.nodes.map((node): GraphNode => {
    const level = levelOf.get(node.nodeId) ?? 0;
    const kind = catalog.find(node.type)?.kind ?? 'processor';
    (levels[level] ??= []).push(node.nodeId);
    return { nodeId: node.nodeId, type: node.type, kind, level };
  });
  return {
    workflowId: definition.workflowId,
    nodes,
    edges: [...definition.edges],
    outputPorts: validation.outputPorts,
    levels,
  };
}
