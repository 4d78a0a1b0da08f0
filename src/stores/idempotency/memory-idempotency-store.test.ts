// The memory idempotency store runs the shared suite, and keeps at most its bound of keys
// (SPEC Limits: 100,000 keys, `svc.start.idempotency-max-keys`).
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../core/index.js';
import { describeIdempotencyStoreConformance } from './idempotency-store.conformance.js';
import { MemoryIdempotencyStore } from './idempotency-store.js';

describeIdempotencyStoreConformance('memory', () => {
  const clock = new ManualClock();
  const store = new MemoryIdempotencyStore(100, () => clock.now());
  return Promise.resolve({
    store,
    other: store,
    pass: (ms) => {
      clock.advance(ms);
      return Promise.resolve();
    },
    cleanup: () => Promise.resolve(),
  });
});

describe('MemoryIdempotencyStore (SPEC Limits: idempotency keys)', () => {
  it('keeps at most its bound of keys, dropping the oldest first, and forgets expired ones', async () => {
    const clock = new ManualClock();
    const store = new MemoryIdempotencyStore(2, () => clock.now());
    await store.claim('a', 'e1', 1_000);
    await store.claim('b', 'e2', 1_000);
    await store.claim('c', 'e3', 1_000);
    expect(store.size).toBe(2);
    expect(await store.claim('a', 'e4', 1_000)).toBe('e4');
    clock.advance(1_000);
    await store.claim('d', 'e5', 1_000);
    expect(store.size).toBe(1);
  });
});
