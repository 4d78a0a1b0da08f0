import { describe, expect, it } from 'vitest';
import { HELD_BYTES } from '../executions/index.js';
import type { ExecutionEvent } from '../executions/index.js';
import { EVENT_OVERHEAD_BYTES, EventBus } from './event-bus.js';
import type { BusEvent } from './event-bus.js';
import { EventFeeds } from './event-feed.js';

function event(executionId: string, n: number): ExecutionEvent {
  return {
    kind: 'result',
    timestamp: '2026-01-01T00:00:00.000Z',
    executionId,
    sessionId: 's',
    workflowId: 'w',
    nodeId: 'out',
    seq: n,
    messageId: `m${n}`,
    payload: n,
  };
}

const frame = (numbered: BusEvent): string => `${numbered.seq}:${numbered.event.executionId}\n`;
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('event feeds (ARCHITECTURE Events: readers keep cursors)', () => {
  it('filters each event once for every reader of the same key, and wakes each once a turn', async () => {
    const bus = new EventBus(100);
    const feeds = new EventFeeds(bus, { capacity: 10, frame });
    let filtered = 0;
    const filter = (candidate: ExecutionEvent): boolean => {
      filtered++;
      return candidate.executionId === 'e1';
    };
    const readers = [feeds.reader('e1', filter), feeds.reader('e1', filter)];
    const wakes = [0, 0];
    readers.forEach((reader, index) => {
      reader.wake = () => {
        wakes[index] = (wakes[index] ?? 0) + 1;
      };
    });
    expect(feeds.size).toBe(1);
    expect(bus.subscribers).toBe(1);
    for (let n = 0; n < 4; n++) bus.publish(event(n % 2 === 0 ? 'e1' : 'e2', n));
    expect(filtered).toBe(4);
    await turn();
    expect(wakes).toEqual([1, 1]);
    const [first, second] = readers.map((reader) => reader.take());
    expect(first?.bytes?.toString()).toBe('1:e1\n3:e1\n');
    // The same range is made into bytes once and shared.
    expect(second?.bytes).toBe(first?.bytes);
    expect(readers[0]?.take().bytes).toBeUndefined();
  });

  it('gives a new reader only what comes after it', async () => {
    const bus = new EventBus(100);
    const feeds = new EventFeeds(bus, { capacity: 10, frame });
    const early = feeds.reader('all', () => true);
    bus.publish(event('e1', 1));
    const late = feeds.reader('all', () => true);
    bus.publish(event('e1', 2));
    await turn();
    expect(early.take().bytes?.toString()).toBe('1:e1\n2:e1\n');
    expect(late.take().bytes?.toString()).toBe('2:e1\n');
  });

  it('lets a reader that fell behind skip to the newest events, counting what it missed', () => {
    const bus = new EventBus(100);
    const feeds = new EventFeeds(bus, { capacity: 3, frame });
    const reader = feeds.reader('all', () => true);
    for (let n = 1; n <= 8; n++) bus.publish(event('e1', n));
    const taken = reader.take();
    expect(taken.missed).toBe(5);
    expect(taken.bytes?.toString()).toBe('6:e1\n7:e1\n8:e1\n');
    bus.publish(event('e1', 9));
    expect(reader.take()).toMatchObject({ missed: 0 });
  });

  it('leaves the bus once its last reader closes, and starts afresh for the next one', () => {
    const bus = new EventBus(100);
    const feeds = new EventFeeds(bus, { capacity: 3, frame });
    const one = feeds.reader('k', () => true);
    const two = feeds.reader('k', () => true);
    const other = feeds.reader('other', () => false);
    expect([feeds.size, bus.subscribers]).toEqual([2, 2]);
    one.close();
    expect(feeds.size).toBe(2);
    two.close();
    two.close();
    expect([feeds.size, bus.subscribers]).toEqual([1, 1]);
    other.close();
    expect([feeds.size, bus.subscribers]).toEqual([0, 0]);
    bus.publish(event('e1', 1));
    const fresh = feeds.reader('k', () => true);
    expect(fresh.take().bytes).toBeUndefined();
  });
});

describe('the byte budget of a feed (svc.streaming.event-history-max-bytes, docs/limits.md)', () => {
  const sized = (n: number): ExecutionEvent => ({ ...event('e1', n), [HELD_BYTES]: 1000 });

  it('drops the oldest events beyond the budget, which a reader behind counts as missed', () => {
    const dropped: number[] = [];
    const bus = new EventBus(100);
    const feeds = new EventFeeds(bus, {
      capacity: 10,
      frame,
      maxBytes: 2 * (1000 + EVENT_OVERHEAD_BYTES),
      onDrop: (events) => dropped.push(events),
    });
    const reader = feeds.reader('all', () => true);
    for (let n = 1; n <= 4; n++) bus.publish(sized(n));
    const taken = reader.take();
    expect(taken.bytes?.toString()).toBe(`${bus.lastSeq - 1}:e1\n${bus.lastSeq}:e1\n`);
    expect(taken.missed).toBe(2);
    expect(dropped).toEqual([1, 1]);
  });

  it('keeps the newest event even when it alone is over the budget, so a reader that keeps up gets it', () => {
    const bus = new EventBus(100);
    const feeds = new EventFeeds(bus, { capacity: 10, frame, maxBytes: 10 });
    const reader = feeds.reader('all', () => true);
    bus.publish(sized(1));
    expect(reader.take()).toEqual({ bytes: Buffer.from(`${bus.lastSeq}:e1\n`), missed: 0 });
  });
});

describe('the whole stream (no filter): read from the bus history itself', () => {
  it('copies nothing per event: no subscriber, one watcher, and the bus numbers as positions', async () => {
    const bus = new EventBus(100);
    const feeds = new EventFeeds(bus, { capacity: 10, frame });
    const reader = feeds.reader('', undefined);
    let woken = 0;
    reader.wake = () => {
      woken++;
    };
    expect([bus.subscribers, bus.watchers]).toEqual([0, 1]);
    for (let n = 1; n <= 3; n++) bus.publish(event(n === 2 ? 'e2' : 'e1', n));
    await turn();
    expect(woken).toBe(1);
    expect(reader.take()).toEqual({ bytes: Buffer.from('1:e1\n2:e2\n3:e1\n'), missed: 0 });
    reader.close();
    expect([feeds.size, bus.watchers]).toEqual([0, 0]);
  });

  it('skips what the history let go, and still gives the newest event too large to keep', () => {
    const bus = new EventBus(4, 0, { maxBytes: 10_000 });
    const feeds = new EventFeeds(bus, { capacity: 3, frame });
    const reader = feeds.reader('', undefined);
    for (let n = 1; n <= 6; n++) bus.publish(event('e1', n));
    expect(reader.take()).toEqual({ bytes: Buffer.from('4:e1\n5:e1\n6:e1\n'), missed: 3 });
    bus.publish({ ...event('e1', 7), [HELD_BYTES]: 50_000 });
    expect(bus.since(6, () => true)).toEqual([]);
    expect(reader.take()).toEqual({ bytes: Buffer.from('7:e1\n'), missed: 0 });
    // The large one leaves with the next event: a reader that had not taken it counts it.
    const behind = feeds.reader('', undefined);
    bus.publish({ ...event('e1', 8), [HELD_BYTES]: 50_000 });
    bus.publish(event('e1', 9));
    expect(behind.take()).toEqual({ bytes: Buffer.from('9:e1\n'), missed: 1 });
    expect(reader.take()).toEqual({ bytes: Buffer.from('9:e1\n'), missed: 1 });
  });
});

describe('the bytes of a take', () => {
  it('are the frames encoded as UTF-8, also when wide characters make them longer than counted', () => {
    const bus = new EventBus(100);
    const wide = (numbered: BusEvent): string =>
      `${numbered.seq}:é€😀${'x'.repeat(numbered.seq)}\n`;
    const feeds = new EventFeeds(bus, { capacity: 10, frame: wide });
    const reader = feeds.reader('all', () => true);
    for (let n = 1; n <= 5; n++) bus.publish(event('e1', n));
    const expected = [1, 2, 3, 4, 5].map((seq) => `${seq}:é€😀${'x'.repeat(seq)}\n`).join('');
    expect(reader.take().bytes?.toString('utf8')).toBe(expected);
  });
});
