import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/index.js';
import { describeGraph, topologicalOrder } from './graph.js';
import type { WorkflowDefinition } from './model.js';
import { testCatalog } from '../testing/index.js';

const diamond: WorkflowDefinition = {
  workflowId: 'diamond',
  description: 'two paths of different length meet',
  nodes: [
    { nodeId: 'end', type: 'END' },
    { nodeId: 'long2', type: 'STEP', config: { expression: 'b' } },
    { nodeId: 'start', type: 'START' },
    { nodeId: 'long1', type: 'STEP', config: { expression: 'a' } },
    { nodeId: 'short', type: 'ROUTE', config: { routes: ['left'], onError: 'ERROR_PORT' } },
    { nodeId: 'tick', type: 'START' },
  ],
  edges: [
    { source: 'start', target: 'long1' },
    { source: 'long1', target: 'long2' },
    { source: 'long2', target: 'end' },
    { source: 'start', target: 'short' },
    { source: 'short', sourcePort: 'left', target: 'end' },
    { source: 'tick', target: 'end' },
  ],
};

describe('describeGraph', () => {
  it('puts triggers at level 0 and each node one past its deepest parent (CONTRACT section 4, graph)', () => {
    const graph = describeGraph(diamond, testCatalog);
    expect(graph.levels).toEqual([['start', 'tick'], ['long1', 'short'], ['long2'], ['end']]);
    expect(graph.nodes).toEqual([
      { nodeId: 'end', type: 'END', kind: 'terminal', level: 3 },
      { nodeId: 'long2', type: 'STEP', kind: 'processor', level: 2 },
      { nodeId: 'start', type: 'START', kind: 'trigger', level: 0 },
      { nodeId: 'long1', type: 'STEP', kind: 'processor', level: 1 },
      { nodeId: 'short', type: 'ROUTE', kind: 'processor', level: 1 },
      { nodeId: 'tick', type: 'START', kind: 'trigger', level: 0 },
    ]);
  });

  it('carries the workflow id, the edges and the output ports of every node (CONTRACT section 2)', () => {
    const graph = describeGraph(diamond, testCatalog);
    expect(graph.workflowId).toBe('diamond');
    expect(graph.edges).toEqual(diamond.edges);
    expect(graph.outputPorts).toEqual({
      end: ['out'],
      long2: ['out'],
      start: ['out'],
      long1: ['out'],
      short: ['out', 'left', 'error'],
      tick: ['out'],
    });
  });

  it('refuses an invalid workflow with its problems as field errors', () => {
    const broken = { ...diamond, edges: [...diamond.edges, { source: 'end', target: 'long1' }] };
    let caught: unknown;
    try {
      describeGraph(broken, testCatalog);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AppError);
    const error = caught as AppError;
    expect(error.code).toBe('WORKFLOW_INVALID');
    expect(error.fieldErrors).toEqual([
      { field: 'edges', message: 'Cycle detected: end -> long1 -> long2 -> end' },
    ]);
  });

  it('does not hold engine.placement against the graph: placement is a build question', () => {
    const placed = {
      ...diamond,
      nodes: diamond.nodes.map((node) =>
        node.nodeId === 'long1'
          ? { ...node, config: { expression: 'a', engine: { placement: 'gpu' } } }
          : node,
      ),
    };
    expect(describeGraph(placed, testCatalog).levels).toHaveLength(4);
  });
});

describe('topologicalOrder', () => {
  it('puts every node after all its parents, ties in definition order', () => {
    expect(topologicalOrder(diamond)).toEqual(['start', 'tick', 'long1', 'short', 'long2', 'end']);
  });

  it('orders a 500-node chain without recursion', () => {
    const nodes = Array.from({ length: 500 }, (_, i) => ({ nodeId: `n${499 - i}`, type: 'STEP' }));
    const edges = Array.from({ length: 499 }, (_, i) => ({ source: `n${i}`, target: `n${i + 1}` }));
    const order = topologicalOrder({ workflowId: 'chain', description: '', nodes, edges });
    expect(order).toEqual(Array.from({ length: 500 }, (_, i) => `n${i}`));
  });

  it('refuses a graph with a cycle', () => {
    const cyclic = { ...diamond, edges: [{ source: 'long1', target: 'long1' }] };
    expect(() => topologicalOrder(cyclic)).toThrow(AppError);
  });
});
