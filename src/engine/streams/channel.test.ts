import { describe, expect, it } from 'vitest';
import { Channel, DroppingChannel, END } from './channel.js';

describe('Channel (SPEC: every edge is a bounded stream with back-pressure)', () => {
  it('answers send and receive at once while it need not wait', () => {
    const channel = new Channel<number>(2);
    expect(channel.send(1)).toBeUndefined();
    expect(channel.send(2)).toBeUndefined();
    expect(channel.receive()).toBe(1);
    expect(channel.receive()).toBe(2);
  });

  it('makes a writer wait while the channel is full, and keeps the order', async () => {
    const channel = new Channel<number>(1);
    expect(channel.send(1)).toBeUndefined();
    const waiting = channel.send(2);
    expect(waiting).toBeInstanceOf(Promise);
    let taken = false;
    void waiting?.then(() => (taken = true));
    await Promise.resolve();
    expect(taken).toBe(false);
    expect(channel.receive()).toBe(1);
    await waiting;
    expect(taken).toBe(true);
    expect(channel.receive()).toBe(2);
  });

  it('hands a value straight to a waiting reader', async () => {
    const channel = new Channel<string>(1);
    const next = channel.receive();
    expect(next).toBeInstanceOf(Promise);
    void channel.send('x');
    await expect(next).resolves.toBe('x');
  });

  it('ends only when every writer closed and the channel is drained', async () => {
    const channel = new Channel<number>(4, 2);
    void channel.send(1);
    channel.closeWriter();
    expect(channel.receive()).toBe(1);
    const next = channel.receive();
    channel.closeWriter();
    await expect(next).resolves.toBe(END);
    expect(channel.receive()).toBe(END);
  });

  it('loses no message under pressure: a slow reader gets everything in order', async () => {
    const channel = new Channel<number>(3);
    const written = (async () => {
      for (let i = 0; i < 1000; i++) await channel.send(i);
      channel.closeWriter();
    })();
    const read: number[] = [];
    for (;;) {
      const value = await channel.receive();
      if (value === END) break;
      read.push(value);
      if (value % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await written;
    expect(read).toEqual(Array.from({ length: 1000 }, (_, i) => i));
  });

  it('keeps order and each value with its writer while its queue wraps around and grows', () => {
    // Interleaved sends and receives move the queue round its ring; sends past the ring's
    // size make it grow while the queue wraps its end.
    const channel = new Channel<number>(50, 2, [1, 2]);
    const expected: number[] = [];
    let next = 0;
    let taken = 0;
    for (let round = 0; round < 40; round++) {
      for (let i = 0; i < 1 + (round % 7) && channel.size < channel.capacity; i++) {
        expect(channel.send(next, 1 + (next % 2))).toBeUndefined();
        expected.push(next++);
      }
      for (let i = 0; i < round % 5 && channel.size > 0; i++) {
        expect(channel.receive()).toBe(expected[taken++]);
      }
      const queued = expected.slice(taken);
      expect(channel.size).toBe(queued.length);
      expect(channel.loadOf(1).queued).toBe(queued.filter((value) => value % 2 === 0).length);
      expect(channel.loadOf(2).queued).toBe(queued.filter((value) => value % 2 === 1).length);
    }
    while (channel.size > 0) expect(channel.receive()).toBe(expected[taken++]);
    expect(taken).toBe(next);
    expect(channel.loadOf(1).taken + channel.loadOf(2).taken).toBe(next);
  });

  it('releases waiting writers and discards later sends once cancelled', async () => {
    const channel = new Channel<number>(1);
    void channel.send(1);
    const waiting = channel.send(2);
    channel.cancel();
    await waiting;
    expect(channel.send(3)).toBeUndefined();
    expect(channel.receive()).toBe(END);
  });
});

describe('DroppingChannel (SPEC engine.edgeBuffer)', () => {
  it('drops the oldest message when full and counts it, never making the writer wait', () => {
    let dropped = 0;
    const buffer = new DroppingChannel<number>(2, 'DROP_OLDEST', () => {
      dropped++;
    });
    for (let i = 1; i <= 5; i++) expect(buffer.send(i)).toBeUndefined();
    expect(dropped).toBe(3);
    expect([buffer.receive(), buffer.receive()]).toEqual([4, 5]);
  });

  it('drops the newest message when told to', () => {
    let dropped = 0;
    const buffer = new DroppingChannel<number>(2, 'DROP_NEWEST', () => {
      dropped++;
    });
    for (let i = 1; i <= 5; i++) void buffer.send(i);
    expect(dropped).toBe(3);
    expect([buffer.receive(), buffer.receive()]).toEqual([1, 2]);
  });
});

describe('Channel: per-edge loads (live run view)', () => {
  it('counts what each writer has queued, how much of it was taken, and whether it waits', async () => {
    const channel = new Channel<string>(3, 2, [4, 7]);
    void channel.send('a1', 4);
    void channel.send('b1', 7);
    void channel.send('a2', 4);
    const waiting = channel.send('b2', 7);
    expect(waiting).toBeInstanceOf(Promise);
    expect(channel.loadOf(4)).toEqual({ queued: 2, taken: 0, writerWaiting: false });
    expect(channel.loadOf(7)).toEqual({ queued: 1, taken: 0, writerWaiting: true });
    expect(channel.receive()).toBe('a1');
    await waiting;
    expect(channel.loadOf(4)).toEqual({ queued: 1, taken: 1, writerWaiting: false });
    expect(channel.loadOf(7)).toEqual({ queued: 2, taken: 0, writerWaiting: false });
    expect(channel.receive()).toBe('b1');
    expect(channel.receive()).toBe('a2');
    expect(channel.receive()).toBe('b2');
    expect(channel.loadOf(4)).toEqual({ queued: 0, taken: 2, writerWaiting: false });
    expect(channel.loadOf(7)).toEqual({ queued: 0, taken: 2, writerWaiting: false });
  });

  it('counts a value handed straight to a waiting reader as taken from its writer', async () => {
    const channel = new Channel<string>(1, 2, [0, 1]);
    const next = channel.receive();
    void channel.send('x', 1);
    await expect(next).resolves.toBe('x');
    expect(channel.loadOf(1)).toEqual({ queued: 0, taken: 1, writerWaiting: false });
    expect(channel.loadOf(0).taken).toBe(0);
  });

  it('reports the one writer of a channel by its size and what was taken', () => {
    const channel = new Channel<number>(2);
    void channel.send(1, 3);
    void channel.send(2, 3);
    expect(channel.send(3, 3)).toBeInstanceOf(Promise);
    expect(channel.loadOf(3)).toEqual({ queued: 2, taken: 0, writerWaiting: true });
    void channel.receive();
    expect(channel.loadOf(3)).toEqual({ queued: 2, taken: 1, writerWaiting: false });
  });
});
