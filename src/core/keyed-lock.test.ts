import { describe, expect, it } from 'vitest';
import { KeyedLock } from './keyed-lock.js';
import { tick } from './testing/index.js';

describe('KeyedLock', () => {
  it('runs work for one key strictly in call order, even when earlier work is slower', async () => {
    const lock = new KeyedLock();
    const order: string[] = [];
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow = lock.run('a', async () => {
      await held;
      order.push('first');
    });
    const fast = lock.run('a', () => {
      order.push('second');
      return Promise.resolve();
    });
    await tick();
    expect(order).toEqual([]);
    release();
    await Promise.all([slow, fast]);
    expect(order).toEqual(['first', 'second']);
  });

  it('does not let a failure block later work for the same key', async () => {
    const lock = new KeyedLock();
    await expect(lock.run('k', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(lock.run('k', () => Promise.resolve(7))).resolves.toBe(7);
  });

  it('lets work for different keys overlap', async () => {
    const lock = new KeyedLock();
    let release: () => void = () => undefined;
    const blocked = lock.run('x', () => new Promise<void>((resolve) => (release = resolve)));
    await expect(lock.run('y', () => Promise.resolve('done'))).resolves.toBe('done');
    release();
    await blocked;
  });
});
