// The editor's draft logic, apart from the browser: a layout that lands after the user moved a
// node, and moves as steps of undo.
import { describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../types';
import { moveNodes, settleLayout, startHistory, undo } from './model';
import type { Draft } from './model';

const definition: WorkflowDefinition = {
  workflowId: 'w',
  description: '',
  nodes: [
    { nodeId: 'a', type: 'manual-trigger', config: {} },
    { nodeId: 'b', type: 'console-terminal', config: {} },
  ],
  edges: [{ source: 'a', target: 'b' }],
};
const laidOut = { a: { x: 0, y: 0 }, b: { x: 300, y: 0 } };

describe('settleLayout', () => {
  it('places every node when nothing moved while the layout was computed', () => {
    const history = startHistory({ definition, positions: {} });
    const settled = settleLayout(history, definition, {}, laidOut);
    expect(settled.present.positions).toEqual(laidOut);
    expect(settled.past).toEqual([]);
  });

  it('keeps a node dragged before the layout landed where it was put', () => {
    const start: Draft = { definition, positions: {} };
    const dragged = moveNodes(startHistory(start), { b: { x: 40, y: 90 } }, true);
    const settled = settleLayout(dragged, definition, start.positions, laidOut);
    expect(settled.present.positions).toEqual({ a: { x: 0, y: 0 }, b: { x: 40, y: 90 } });
    // The drag stays one step of undo, which goes back to the laid-out places.
    expect(settled.past).toHaveLength(1);
    expect(undo(settled).present.positions).toEqual(laidOut);
  });

  it('keeps a node moved from a saved place, and lays out the others again', () => {
    const start: Draft = { definition, positions: { a: { x: 5, y: 5 }, b: { x: 9, y: 9 } } };
    const moved = moveNodes(startHistory(start), { a: { x: 70, y: 5 } }, true);
    const settled = settleLayout(moved, definition, start.positions, laidOut);
    expect(settled.present.positions).toEqual({ a: { x: 70, y: 5 }, b: { x: 300, y: 0 } });
  });

  it('drops a layout computed for a definition that has changed since', () => {
    const changed = { ...definition, description: 'changed' };
    const history = startHistory({ definition: changed, positions: {} });
    expect(settleLayout(history, definition, {}, laidOut)).toBe(history);
  });
});

describe('moveNodes', () => {
  it('records a whole drag as one step that undo takes back', () => {
    const start: Draft = { definition, positions: laidOut };
    let history = startHistory(start);
    history = moveNodes(history, { a: { x: 10, y: 0 } }, false);
    history = moveNodes(history, { a: { x: 20, y: 0 } }, false);
    history = moveNodes(history, { a: { x: 30, y: 0 } }, true);
    expect(history.present.positions.a).toEqual({ x: 30, y: 0 });
    expect(history.past).toHaveLength(1);
    expect(undo(history).present).toBe(start);
  });

  it('records nothing for a drag that ends where it began', () => {
    const start: Draft = { definition, positions: laidOut };
    let history = moveNodes(startHistory(start), { a: { x: 10, y: 0 } }, false);
    history = moveNodes(history, { a: { x: 0, y: 0 } }, true);
    expect(history.past).toEqual([]);
    expect(history.present).toBe(start);
  });
});
