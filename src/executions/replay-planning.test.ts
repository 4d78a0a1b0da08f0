import { describe, expect, it } from 'vitest';
import { prepareWorkflow } from '../engine/index.js';
import { createTestCatalog } from '../engine/testing/index.js';
import { replayShape } from './replay-planning.js';

const catalog = createTestCatalog({
  T: { kind: 'trigger', runtime: () => ({ run: () => [] }) },
  P: { kind: 'processor', runtime: () => ({ process: () => undefined }) },
  S: { kind: 'terminal', runtime: () => ({ process: () => undefined }) },
});

// t -> a -> b -> s1, t -> c -> s2, a -> j, c -> j, j -> s3
const plan = prepareWorkflow(
  {
    workflowId: 'w',
    description: '',
    nodes: [
      { nodeId: 't', type: 'T' },
      { nodeId: 'a', type: 'P' },
      { nodeId: 'b', type: 'P' },
      { nodeId: 'c', type: 'P' },
      { nodeId: 'j', type: 'P' },
      { nodeId: 's1', type: 'S' },
      { nodeId: 's2', type: 'S' },
      { nodeId: 's3', type: 'S' },
    ],
    edges: [
      { source: 't', target: 'a' },
      { source: 'a', target: 'b' },
      { source: 'b', target: 's1' },
      { source: 't', target: 'c' },
      { source: 'c', target: 's2' },
      { source: 'a', target: 'j' },
      { source: 'c', target: 'j' },
      { source: 'j', target: 's3' },
    ],
  },
  catalog,
  { workers: false },
);

describe('replay shape', () => {
  it('runs the node and everything after it, replays its parents, leaves the rest out', () => {
    const shape = replayShape(plan, ['b']);
    expect([...shape.run].sort()).toEqual(['b', 's1']);
    expect(shape.feeders).toEqual(['a']);
    expect([...shape.omitted].sort()).toEqual(['c', 'j', 's2', 's3', 't']);
  });

  it('replays every parent of a join, also those of other branches', () => {
    const shape = replayShape(plan, ['a']);
    expect([...shape.run].sort()).toEqual(['a', 'b', 'j', 's1', 's3']);
    expect([...shape.feeders].sort()).toEqual(['c', 't']);
    expect([...shape.omitted].sort()).toEqual(['s2']);
  });

  it('runs everything from the trigger, replaying nothing', () => {
    const shape = replayShape(plan, ['t']);
    expect(shape.feeders).toEqual([]);
    expect(shape.omitted.size).toBe(0);
  });

  it('closes several starting nodes over what follows them', () => {
    const shape = replayShape(plan, ['s2', 'j']);
    expect([...shape.run].sort()).toEqual(['j', 's2', 's3']);
    expect([...shape.feeders].sort()).toEqual(['a', 'c']);
  });
});
