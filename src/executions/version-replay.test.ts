import { describe, expect, it } from 'vitest';
import { prepareWorkflow } from '../engine/index.js';
import type { EdgeDefinition, NodeDefinition, WorkflowPlan } from '../engine/index.js';
import { createTestCatalog } from '../engine/testing/index.js';
import { replayShape } from './replay-planning.js';
import {
  aboveReplay,
  aboveWholeRestart,
  assertUnchangedAbove,
  hasSameOutput,
} from './version-replay.js';

const catalog = createTestCatalog({
  T: { kind: 'trigger', runtime: () => ({ run: () => [] }) },
  P: { kind: 'processor', runtime: () => ({ process: () => undefined }) },
  S: { kind: 'terminal', runtime: () => ({ process: () => undefined }) },
});

// t -> a -> b -> s, t -> c -> s: restarting from b replays a, with t above it.
const NODES: NodeDefinition[] = [
  { nodeId: 't', type: 'T' },
  { nodeId: 'a', type: 'P', config: { n: 1 } },
  { nodeId: 'b', type: 'P', config: { n: 1 } },
  { nodeId: 'c', type: 'P', config: { n: 1 } },
  { nodeId: 's', type: 'S' },
];
const EDGES: EdgeDefinition[] = [
  { source: 't', target: 'a' },
  { source: 'a', target: 'b' },
  { source: 'b', target: 's' },
  { source: 't', target: 'c' },
  { source: 'c', target: 's' },
];

function planOf(nodes = NODES, edges = EDGES): WorkflowPlan {
  return prepareWorkflow({ workflowId: 'w', description: '', nodes, edges }, catalog, {
    workers: false,
  });
}

const withConfig = (nodeId: string, n: number): NodeDefinition[] =>
  NODES.map((node) => (node.nodeId === nodeId ? { ...node, config: { n } } : node));

/** The refusal of a restart from `nodeId` of a run of `from` on `to`, or undefined. */
function refusalFrom(nodeId: string, from: WorkflowPlan, to: WorkflowPlan): string | undefined {
  const above = aboveReplay(to, replayShape(to, [nodeId]).feeders, nodeId);
  try {
    assertUnchangedAbove(from, to, above, { executionId: 'e', version: 2 });
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('replay on another version', () => {
  const v1 = planOf();

  it('lets the restart node and everything after it change', () => {
    expect(refusalFrom('b', v1, planOf(withConfig('b', 2)))).toBeUndefined();
    const extended = planOf(
      [...NODES, { nodeId: 'x', type: 'S' }],
      [...EDGES, { source: 'b', target: 'x' }],
    );
    expect(refusalFrom('b', v1, extended)).toBeUndefined();
  });

  it('refuses a changed replayed node or a node above it, naming it', () => {
    expect(refusalFrom('b', v1, planOf(withConfig('a', 2)))).toBe(
      "Execution 'e' cannot be replayed on version 2: the graph above the restart differs, node 'a' differs (its type or configuration changed)",
    );
    // c feeds s, which runs after b: its output is replayed too.
    expect(refusalFrom('b', v1, planOf(withConfig('c', 2)))).toMatch(/node 'c' differs/);
  });

  it('refuses a changed edge into the restart node or into a node above it', () => {
    const rewired = EDGES.map((edge) =>
      edge.target === 'b' ? { source: 't', target: 'b' } : edge,
    );
    expect(refusalFrom('b', v1, planOf(NODES, rewired))).toMatch(/the edges into node 'b' differ$/);
  });

  it('refuses a new node that would have to replay', () => {
    const fed = planOf(
      [...NODES, { nodeId: 'n', type: 'T' }],
      [...EDGES, { source: 'n', target: 's' }],
    );
    expect(refusalFrom('b', v1, fed)).toMatch(/node 'n' is not in the version the run used$/);
  });

  it('takes for a whole restart the triggers alone', () => {
    const changedBelow = planOf(withConfig('a', 2));
    expect(aboveWholeRestart(v1, changedBelow).nodes).toEqual(new Set(['t']));
  });

  it('tells whether a left-out node recorded on one version stands for it on another', () => {
    const changedC = planOf(withConfig('c', 2));
    expect(hasSameOutput(v1, changedC, 'a')).toBe(true);
    expect(hasSameOutput(v1, changedC, 'c')).toBe(false);
  });
});
