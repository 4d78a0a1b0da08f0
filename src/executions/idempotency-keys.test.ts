// SPEC "Limits", in-memory bounds: idempotency keys, 100,000 keys for 10 minutes
// (`svc.start.idempotency-*`), driven by a manual clock.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../core/index.js';
import { IdempotencyKeys } from './idempotency-keys.js';

/** Work that answers a new number on every call, and counts its calls. */
function counter(): { readonly calls: () => number; readonly work: () => Promise<number> } {
  let calls = 0;
  return {
    calls: () => calls,
    work: () => Promise.resolve(++calls),
  };
}

describe('IdempotencyKeys (SPEC Limits: idempotency keys)', () => {
  it('answers a repeated key with the first answer within the window, and does the work again once the window has passed (SPEC Limits: idempotency keys)', async () => {
    const clock = new ManualClock();
    const keys = new IdempotencyKeys<number>(10, 600_000, () => clock.now());
    const { calls, work } = counter();
    expect(await keys.once('k', work)).toBe(1);
    clock.advance(599_999);
    expect(await keys.once('k', work)).toBe(1);
    expect(calls()).toBe(1);
    clock.advance(1);
    expect(await keys.once('k', work)).toBe(2);
    expect(calls()).toBe(2);
    // The new answer has a window of its own.
    clock.advance(599_999);
    expect(await keys.once('k', work)).toBe(2);
  });

  it('counts the window from the first use of a key, not from its repeats (SPEC Limits: idempotency keys)', async () => {
    const clock = new ManualClock();
    const keys = new IdempotencyKeys<number>(10, 1_000, () => clock.now());
    const { work } = counter();
    expect(await keys.once('k', work)).toBe(1);
    clock.advance(600);
    expect(await keys.once('k', work)).toBe(1);
    clock.advance(400);
    expect(await keys.once('k', work)).toBe(2);
  });

  it('forgets expired keys when a key is next used, so they hold no memory (SPEC Limits: idempotency keys)', async () => {
    const clock = new ManualClock();
    const keys = new IdempotencyKeys<number>(10, 1_000, () => clock.now());
    const { work } = counter();
    await keys.once('a', work);
    await keys.once('b', work);
    clock.advance(500);
    await keys.once('c', work);
    expect(keys.size).toBe(3);
    clock.advance(500);
    await keys.once('d', work);
    // a and b are 1000 ms old: gone; c and d are kept.
    expect(keys.size).toBe(2);
  });

  it('keeps at most the bound of keys, dropping the oldest first (SPEC Limits: idempotency keys)', async () => {
    const clock = new ManualClock();
    const keys = new IdempotencyKeys<number>(3, 600_000, () => clock.now());
    const { calls, work } = counter();
    for (const key of ['a', 'b', 'c', 'd']) await keys.once(key, work);
    expect(keys.size).toBe(3);
    expect(calls()).toBe(4);
    // b, c and d are remembered; a was dropped to make room and is new again.
    expect(await keys.once('b', work)).toBe(2);
    expect(await keys.once('d', work)).toBe(4);
    expect(calls()).toBe(4);
    expect(await keys.once('a', work)).toBe(5);
    expect(keys.size).toBe(3);
  });

  it('keeps 100,000 keys for 10 minutes, and drops the oldest for the next one (SPEC Limits: idempotency keys)', async () => {
    const clock = new ManualClock();
    const keys = new IdempotencyKeys<number>(100_000, 600_000, () => clock.now());
    const { calls, work } = counter();
    for (let i = 0; i < 100_000; i++) void keys.once(`key-${i}`, work);
    expect(keys.size).toBe(100_000);
    clock.advance(599_999);
    expect(await keys.once('key-0', work)).toBe(1);
    expect(await keys.once('key-99999', work)).toBe(100_000);
    expect(calls()).toBe(100_000);
    expect(await keys.once('key-100000', work)).toBe(100_001);
    expect(keys.size).toBe(100_000);
    expect(await keys.once('key-0', work)).toBe(100_002);
  });

  it('answers a repeat while the first call is still under way with the same answer, doing the work once', async () => {
    const clock = new ManualClock();
    const keys = new IdempotencyKeys<string>(10, 600_000, () => clock.now());
    let finish: (value: string) => void = () => undefined;
    let calls = 0;
    const work = (): Promise<string> => {
      calls++;
      return new Promise<string>((resolve) => {
        finish = resolve;
      });
    };
    const first = keys.once('k', work);
    const second = keys.once('k', work);
    finish('e1');
    expect(await Promise.all([first, second])).toEqual(['e1', 'e1']);
    expect(calls).toBe(1);
  });

  it('frees a key whose work failed, so that a retry with it does the work again', async () => {
    const clock = new ManualClock();
    const keys = new IdempotencyKeys<string>(10, 600_000, () => clock.now());
    await expect(keys.once('k', () => Promise.reject(new Error('refused')))).rejects.toThrow(
      'refused',
    );
    expect(keys.size).toBe(0);
    expect(await keys.once('k', () => Promise.resolve('e2'))).toBe('e2');
  });
});
