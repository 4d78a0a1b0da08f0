// Credits of a broker consumer (plugin API `Credits`): never more held than the limit, one
// more taken for each that settles, in the order they were asked for.
import { describe, expect, it } from 'vitest';
import { Credits } from './settlement.js';

describe('Credits', () => {
  it('lets a taker through at once while credits are free, then waits for a settlement', async () => {
    const credits = new Credits(2);
    expect(credits.take()).toBeUndefined();
    expect(credits.take()).toBeUndefined();
    const order: number[] = [];
    const third = credits.take()?.then(() => order.push(3));
    const fourth = credits.take()?.then(() => order.push(4));
    expect(third).toBeInstanceOf(Promise);
    await Promise.resolve();
    expect(order).toEqual([]);
    expect(credits.held).toBe(2);
    credits.settled();
    await third;
    expect(order).toEqual([3]);
    expect(credits.held).toBe(2);
    credits.settled();
    await fourth;
    expect(order).toEqual([3, 4]);
    expect(credits.free).toBe(0);
  });

  it('gives up a wait when its signal aborts, without taking a credit', async () => {
    const credits = new Credits(1);
    expect(credits.take()).toBeUndefined();
    const controller = new AbortController();
    const waiting = credits.take(controller.signal);
    controller.abort(new Error('closing'));
    await expect(waiting).rejects.toThrow('closing');
    credits.settled();
    expect(credits.held).toBe(0);
  });

  it('takes every free credit at once for a batch', () => {
    const credits = new Credits(5);
    expect(credits.take()).toBeUndefined();
    expect(credits.takeFree()).toBe(4);
    expect(credits.takeFree()).toBe(0);
    expect(credits.held).toBe(5);
  });

  it('waits until a batch of credits is free, or none is held', async () => {
    const credits = new Credits(4);
    credits.takeFree();
    let woke = false;
    const waiting = credits.whenFree(2)?.then(() => (woke = true));
    credits.settled();
    await Promise.resolve();
    expect(woke).toBe(false);
    credits.settled();
    await waiting;
    expect(woke).toBe(true);
    expect(credits.whenFree(2)).toBeUndefined();
    credits.takeFree();
    const drained = credits.whenFree(10);
    for (let n = 0; n < 4; n++) credits.settled();
    await expect(drained).resolves.toBeUndefined();
  });

  it('refuses a limit below one and a settlement nobody took', () => {
    expect(() => new Credits(0)).toThrow(RangeError);
    expect(() => {
      new Credits(3).settled();
    }).toThrow('No credit is held');
  });
});
