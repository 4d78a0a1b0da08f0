// SPEC "Limits", in-memory bounds: idempotency keys, 100,000 keys for 10 minutes
// (`svc.start.idempotency-*`), over the memory store and a manual clock.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../core/index.js';
import { MemoryIdempotencyStore } from '../stores/index.js';
import { IdempotencyKeys } from './idempotency-keys.js';

/** Keys over a memory store of `maxKeys`; `fresh` names executions e1, e2, ... */
function keysOf(maxKeys: number, ttlMs: number) {
  const clock = new ManualClock();
  const store = new MemoryIdempotencyStore(maxKeys, () => clock.now());
  const keys = new IdempotencyKeys(store, ttlMs);
  let made = 0;
  const started: string[] = [];
  const fresh = (): string => `e${++made}`;
  const start = (executionId: string): Promise<void> => {
    started.push(executionId);
    return Promise.resolve();
  };
  return {
    clock,
    store,
    started,
    once: (key: string) => keys.once(key, fresh, start),
    keys,
    fresh,
  };
}

describe('IdempotencyKeys (SPEC Limits: idempotency keys)', () => {
  it('answers a repeated key with the first answer within the window, and does the work again once the window has passed (SPEC Limits: idempotency keys)', async () => {
    const { clock, once, started } = keysOf(10, 600_000);
    expect(await once('k')).toBe('e1');
    clock.advance(599_999);
    expect(await once('k')).toBe('e1');
    expect(started).toEqual(['e1']);
    clock.advance(1);
    const again = await once('k');
    expect(again).not.toBe('e1');
    expect(started).toEqual(['e1', again]);
    // The new answer has a window of its own.
    clock.advance(599_999);
    expect(await once('k')).toBe(again);
  });

  it('keeps 100,000 keys for 10 minutes, and drops the oldest for the next one (SPEC Limits: idempotency keys)', async () => {
    const { clock, once, store, started } = keysOf(100_000, 600_000);
    for (let i = 0; i < 100_000; i++) await once(`key-${i}`);
    expect(store.size).toBe(100_000);
    clock.advance(599_999);
    expect(await once('key-0')).toBe(started[0]);
    expect(await once('key-99999')).toBe(started[99_999]);
    expect(started).toHaveLength(100_000);
    await once('key-100000');
    expect(store.size).toBe(100_000);
    // key-0 was dropped to make room: it starts anew.
    expect(await once('key-0')).not.toBe(started[0]);
    expect(started).toHaveLength(100_002);
  });

  it('answers a repeat while the first start is still under way with the same execution, starting once', async () => {
    const { keys, fresh } = keysOf(10, 600_000);
    let finish: () => void = () => undefined;
    let calls = 0;
    const start = (): Promise<void> => {
      calls++;
      return new Promise<void>((resolve) => {
        finish = resolve;
      });
    };
    const first = keys.once('k', fresh, start);
    const second = keys.once('k', fresh, start);
    await Promise.resolve();
    await Promise.resolve();
    finish();
    expect(await Promise.all([first, second])).toEqual(['e1', 'e1']);
    expect(calls).toBe(1);
  });

  it('frees a key whose start failed, so that a retry with it starts again', async () => {
    const { keys, fresh, store } = keysOf(10, 600_000);
    await expect(keys.once('k', fresh, () => Promise.reject(new Error('refused')))).rejects.toThrow(
      'refused',
    );
    expect(store.size).toBe(0);
    expect(await keys.once('k', fresh, () => Promise.resolve())).toBe('e2');
  });

  it('answers the execution another server bound the key to, starting nothing (docs/high-availability.md)', async () => {
    const { keys, fresh, store } = keysOf(10, 600_000);
    expect(await store.claim('k', 'from-the-old-leader', 600_000)).toBe('from-the-old-leader');
    let calls = 0;
    const answer = await keys.once('k', fresh, () => {
      calls++;
      return Promise.resolve();
    });
    expect(answer).toBe('from-the-old-leader');
    expect(calls).toBe(0);
  });
});
