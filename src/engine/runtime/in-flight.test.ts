import { describe, expect, it } from 'vitest';
import { InFlight } from './in-flight.js';

function deferred(): { promise: Promise<void>; resolve: () => void; reject: (e: Error) => void } {
  let resolve: () => void = () => undefined;
  let reject: (e: Error) => void = () => undefined;
  const promise = new Promise<void>((done, fail) => {
    resolve = done;
    reject = fail;
  });
  return { promise, resolve, reject };
}

describe('InFlight (MessageProcessor.concurrency)', () => {
  it('takes messages while there is room and waits for one to end once the bound is reached', async () => {
    const inFlight = new InFlight(2, () => undefined);
    const first = deferred();
    const second = deferred();
    expect(inFlight.add(first.promise)).toBeUndefined();
    const room = inFlight.add(second.promise);
    expect(room).toBeInstanceOf(Promise);
    let free = false;
    void room?.then(() => (free = true));
    await Promise.resolve();
    expect(free).toBe(false);
    second.resolve();
    await room;
    expect(free).toBe(true);
    first.resolve();
    await inFlight.drain();
  });

  it('tells the first failure at once, and drain rejects with it after the rest have ended', async () => {
    const told: unknown[] = [];
    const inFlight = new InFlight(10, (error) => told.push(error));
    const failing = deferred();
    const slow = deferred();
    expect(inFlight.add(failing.promise)).toBeUndefined();
    expect(inFlight.add(slow.promise)).toBeUndefined();
    const boom = new Error('boom');
    failing.reject(boom);
    await new Promise((resolve) => setImmediate(resolve));
    expect(told).toEqual([boom]);
    let drained = false;
    const drain = inFlight.drain().catch((error: unknown) => {
      drained = true;
      return error;
    });
    await Promise.resolve();
    expect(drained).toBe(false);
    slow.reject(new Error('ended with the node'));
    expect(await drain).toBe(boom);
    expect(told).toEqual([boom]);
  });
});
