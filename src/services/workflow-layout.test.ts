import { describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../engine/index.js';
import { MAX_LAYOUT_ENTRIES, layoutErrors, layoutFor } from './workflow-layout.js';

const definition: WorkflowDefinition = {
  workflowId: 'w',
  description: '',
  nodes: [
    { nodeId: 'a', type: 'MANUAL' },
    { nodeId: 'b', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [{ source: 'a', target: 'b' }],
};

describe('workflow layout rules', () => {
  it('accepts positions of some or all nodes of the version, and none at all', () => {
    expect(layoutErrors({}, definition)).toEqual([]);
    expect(layoutErrors({ a: { x: 0, y: 0 } }, definition)).toEqual([]);
    expect(layoutErrors({ a: { x: 0, y: 0 }, b: { x: -1, y: 2.5 } }, definition)).toEqual([]);
  });

  it('names every entry of a node the version lacks, including inherited names', () => {
    expect(
      layoutErrors(
        { a: { x: 0, y: 0 }, ghost: { x: 0, y: 0 }, toString: { x: 0, y: 0 } },
        definition,
      ),
    ).toEqual([
      {
        field: 'positions.ghost',
        message: "Node 'ghost' is not in the current version of the workflow",
      },
      {
        field: 'positions.toString',
        message: "Node 'toString' is not in the current version of the workflow",
      },
    ]);
  });

  it('refuses more entries than a workflow may have nodes with one error, before looking at ids', () => {
    const positions = Object.fromEntries(
      Array.from({ length: MAX_LAYOUT_ENTRIES + 1 }, (_, index) => [`n${index}`, { x: 0, y: 0 }]),
    );
    expect(layoutErrors(positions, definition)).toEqual([
      { field: 'positions', message: 'Positions must have at most 500 entries, not 501' },
    ]);
  });

  it('keeps for a new version the positions of the nodes it still has', () => {
    const layout = { a: { x: 1, y: 1 }, gone: { x: 2, y: 2 } };
    expect(layoutFor(layout, definition)).toEqual({ a: { x: 1, y: 1 } });
    expect(layoutFor(undefined, definition)).toBeUndefined();
  });
});
