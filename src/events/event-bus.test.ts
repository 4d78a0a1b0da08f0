import { describe, expect, it } from 'vitest';
import { HELD_BYTES } from '../executions/index.js';
import type { ExecutionEvent } from '../executions/index.js';
import { EVENT_OVERHEAD_BYTES, EventBus } from './event-bus.js';

const event = (n: number): ExecutionEvent => ({
  kind: 'result',
  timestamp: '2026-01-01T00:00:00.000Z',
  executionId: 'e1',
  sessionId: 's',
  workflowId: 'w',
  nodeId: 'out',
  seq: n,
  messageId: `m${n}`,
  payload: n,
});
const all = (): boolean => true;

describe('the event bus (SPEC Events 3)', () => {
  it('numbers events from its first number and answers those after a Last-Event-ID from its history', () => {
    const bus = new EventBus(3, 1_000);
    for (let n = 1; n <= 5; n++) bus.publish(event(n));
    expect(bus.lastSeq).toBe(1_005);
    // Only the newest three are kept.
    expect(bus.since(0, all).map((numbered) => numbered.seq)).toEqual([1_003, 1_004, 1_005]);
    expect(bus.since(1_003, all).map((numbered) => numbered.seq)).toEqual([1_004, 1_005]);
    expect(bus.since(1_005, all)).toEqual([]);
  });

  it('answers everything kept for a Last-Event-ID above its newest number, one from another server', () => {
    const bus = new EventBus(10, 1_000);
    bus.publish(event(1));
    bus.publish(event(2));
    expect(bus.since(5_000, all).map((numbered) => numbered.seq)).toEqual([1_001, 1_002]);
  });
});

describe('the event history byte budget (svc.streaming.event-history-max-bytes, docs/limits.md)', () => {
  const sized = (n: number, bytes: number): ExecutionEvent => ({
    ...event(n),
    [HELD_BYTES]: bytes,
  });

  it('drops the oldest events beyond the budget, counts them, and still delivers every event live', () => {
    const dropped: number[] = [];
    const bus = new EventBus(100, 0, {
      maxBytes: 3 * (1000 + EVENT_OVERHEAD_BYTES),
      onDrop: (events) => dropped.push(events),
    });
    const live: number[] = [];
    bus.subscribe(all, (numbered) => live.push(numbered.seq));
    for (let n = 1; n <= 5; n++) bus.publish(sized(n, 1000));
    expect(bus.since(0, all).map((numbered) => numbered.seq)).toEqual([3, 4, 5]);
    expect(live).toEqual([1, 2, 3, 4, 5]);
    expect(dropped).toEqual([1, 1]);
    expect(bus.historyBytes).toBe(3 * (1000 + EVENT_OVERHEAD_BYTES));
  });

  it('keeps no event larger than the whole budget, and counts only what the ring still held', () => {
    const dropped: number[] = [];
    const bus = new EventBus(2, 0, { maxBytes: 10_000, onDrop: (events) => dropped.push(events) });
    for (let n = 1; n <= 4; n++) bus.publish(event(n));
    bus.publish(sized(5, 50_000));
    expect(bus.since(0, all).map((numbered) => numbered.seq)).toEqual([]);
    expect(dropped).toEqual([2]);
    bus.publish(event(6));
    expect(bus.since(0, all).map((numbered) => numbered.seq)).toEqual([6]);
    expect(bus.historyBytes).toBe(EVENT_OVERHEAD_BYTES);
  });
});
