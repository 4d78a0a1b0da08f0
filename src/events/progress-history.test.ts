import { describe, expect, it } from 'vitest';
import type { NumberedEvent } from './event-bus.js';
import { ProgressHistory } from './progress-history.js';

let seq = 0;
const event = (executionId: string): NumberedEvent => ({
  seq: ++seq,
  event: {
    kind: 'node.started',
    timestamp: '',
    executionId,
    sessionId: 's',
    workflowId: 'w',
    nodeId: 'n1',
    status: 'RUNNING',
    error: null,
    messagesIn: 0,
    messagesOut: 0,
    retries: 0,
  },
});

describe('progress history (SPEC Events 4)', () => {
  it('keeps the newest snapshots per execution, and those after a given id', () => {
    const history = new ProgressHistory({
      perExecution: 3,
      executions: 10,
      ttlMs: 60_000,
      now: () => 0,
    });
    const recorded = Array.from({ length: 5 }, () => event('a'));
    for (const numbered of recorded) history.record(numbered);
    expect(history.since('a', 0)).toEqual(recorded.slice(2));
    expect(history.since('a', recorded[3]?.seq ?? 0)).toEqual(recorded.slice(4));
    expect(history.since('unknown', 0)).toEqual([]);
  });

  it('holds the executions that changed most recently, up to its bound', () => {
    const history = new ProgressHistory({
      perExecution: 10,
      executions: 2,
      ttlMs: 60_000,
      now: () => 0,
    });
    history.record(event('a'));
    history.record(event('b'));
    history.record(event('a'));
    history.record(event('c'));
    expect(history.size).toBe(2);
    expect(history.since('b', 0)).toEqual([]);
    expect(history.since('a', 0)).toHaveLength(2);
  });

  it('forgets an execution that has not changed for the time to live', () => {
    let now = 0;
    const history = new ProgressHistory({
      perExecution: 10,
      executions: 10,
      ttlMs: 300_000,
      now: () => now,
    });
    history.record(event('old'));
    now = 200_000;
    history.record(event('young'));
    now = 300_001;
    expect(history.since('old', 0)).toEqual([]);
    expect(history.since('young', 0)).toHaveLength(1);
  });

  it('agrees with a plain model of its bounds over a long mixed sequence', () => {
    let now = 0;
    const history = new ProgressHistory({
      perExecution: 2,
      executions: 3,
      ttlMs: 50,
      now: () => now,
    });
    // The model: executions in the order they last changed, with when.
    let model: { id: string; at: number }[] = [];
    let state = 7;
    const next = (bound: number): number => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return state % bound;
    };
    for (let step = 0; step < 2_000; step++) {
      now += next(20);
      const id = `e${next(6)}`;
      history.record(event(id));
      model = [...model.filter((held) => held.id !== id), { id, at: now }];
      model = model.filter((held) => now - held.at <= 50).slice(-3);
      expect(history.size).toBe(model.length);
      for (const held of model) expect(history.since(held.id, 0).length).toBeGreaterThan(0);
    }
  });
});
