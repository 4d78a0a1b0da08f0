import { describe, expect, it } from 'vitest';
import type { ExecutionEvent } from '../executions/index.js';
import { EventBus } from './event-bus.js';

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
