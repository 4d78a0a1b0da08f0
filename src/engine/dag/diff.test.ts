import { describe, expect, it } from 'vitest';
import { diffWorkflows } from './diff.js';
import type { WorkflowDefinition } from './model.js';

const base: WorkflowDefinition = {
  workflowId: 'wf',
  description: 'v1',
  nodes: [
    { nodeId: 'start', type: 'MANUAL' },
    { nodeId: 'keep', type: 'FILTER', config: { expression: 'a', nested: { x: 1, y: [1, 2] } } },
    { nodeId: 'retype', type: 'FILTER', config: { expression: 'b' } },
    { nodeId: 'gone', type: 'DELAY', config: { delayMs: 5 } },
    { nodeId: 'bare', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [
    { source: 'start', target: 'keep' },
    { source: 'keep', sourcePort: 'out', target: 'gone' },
    { source: 'keep', target: 'bare' },
  ],
};

describe('diffWorkflows', () => {
  it('finds nothing between equal versions, whatever the key order (SPEC Versioning 3)', () => {
    const reordered: WorkflowDefinition = {
      ...base,
      description: 'v2 with a new description only',
      nodes: base.nodes.map((node) =>
        node.nodeId === 'keep'
          ? {
              type: 'FILTER',
              nodeId: 'keep',
              config: { nested: { y: [1, 2], x: 1 }, expression: 'a' },
            }
          : node,
      ),
    };
    expect(diffWorkflows(base, reordered)).toEqual({
      nodes: { added: [], removed: [], changed: [] },
      edges: { added: [], removed: [] },
    });
  });

  it('reports added, removed and changed nodes matched by nodeId (CONTRACT section 3, version diff)', () => {
    const added = { nodeId: 'new', type: 'MANUAL' };
    const retyped = { nodeId: 'retype', type: 'GATE', config: { expression: 'b' } };
    const reconfigured = {
      nodeId: 'keep',
      type: 'FILTER',
      config: { expression: 'a', nested: { x: 2, y: [1, 2] } },
    };
    const to: WorkflowDefinition = {
      ...base,
      nodes: [base.nodes[0], reconfigured, retyped, base.nodes[4], added].filter(
        (node) => node !== undefined,
      ),
    };
    expect(diffWorkflows(base, to).nodes).toEqual({
      added: [added],
      removed: [base.nodes[3]],
      changed: [reconfigured, retyped],
    });
  });

  it('treats a missing config as an empty one', () => {
    const to = {
      ...base,
      nodes: base.nodes.map((node) => (node.nodeId === 'bare' ? { ...node, config: {} } : node)),
    };
    expect(diffWorkflows(base, to).nodes.changed).toEqual([]);
  });

  it('identifies edges by source, source port and target (CONTRACT section 3, version diff)', () => {
    const to: WorkflowDefinition = {
      ...base,
      edges: [
        { source: 'start', target: 'keep' },
        { source: 'keep', target: 'gone' },
        { source: 'keep', sourcePort: 'rejected', target: 'bare' },
      ],
    };
    expect(diffWorkflows(base, to).edges).toEqual({
      added: [
        { source: 'keep', target: 'gone' },
        { source: 'keep', sourcePort: 'rejected', target: 'bare' },
      ],
      removed: [
        { source: 'keep', sourcePort: 'out', target: 'gone' },
        { source: 'keep', target: 'bare' },
      ],
    });
  });
});
