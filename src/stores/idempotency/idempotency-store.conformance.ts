// One suite every idempotency store runs (memory, PostgreSQL): binding, the window, release and
// racing claims (SPEC "Limits": idempotency keys; "Errors": the same key prevents a second run).
import { afterEach, describe, expect, it } from 'vitest';
import type { IdempotencyStore } from './idempotency-store.js';

export interface IdempotencyStoreFixture {
  readonly store: IdempotencyStore;
  /** A second store on the same keys: another server of the pair, or the same memory. */
  readonly other: IdempotencyStore;
  /** Lets `ms` pass for the store's clock. */
  readonly pass: (ms: number) => Promise<void>;
  readonly cleanup: () => Promise<void>;
}

/** Window of the tests of expiry: short, so a real clock passes it quickly. */
const SHORT_MS = 50;
const LONG_MS = 600_000;

export function describeIdempotencyStoreConformance(
  name: string,
  make: () => Promise<IdempotencyStoreFixture>,
): void {
  describe(`idempotency store conformance: ${name}`, () => {
    let fixture: IdempotencyStoreFixture | undefined;
    const open = async (): Promise<IdempotencyStoreFixture> => (fixture = await make());
    afterEach(async () => {
      await fixture?.cleanup();
      fixture = undefined;
    });

    it('binds a new key to the execution of its first start, and answers that execution to every later claim within the window (SPEC Errors: Idempotency-Key)', async () => {
      const { store, other } = await open();
      expect(await store.claim('k', 'e1', LONG_MS)).toBe('e1');
      expect(await store.claim('k', 'e2', LONG_MS)).toBe('e1');
      expect(await other.claim('k', 'e3', LONG_MS)).toBe('e1');
      expect(await store.claim('other-key', 'e4', LONG_MS)).toBe('e4');
    });

    it('binds the key anew once its window has passed (SPEC Limits: idempotency keys)', async () => {
      const { store, pass } = await open();
      expect(await store.claim('k', 'e1', SHORT_MS)).toBe('e1');
      await pass(SHORT_MS * 2);
      // The new binding has a window of its own.
      expect(await store.claim('k', 'e2', LONG_MS)).toBe('e2');
      expect(await store.claim('k', 'e3', LONG_MS)).toBe('e2');
    });

    it('frees a key released by the execution it is bound to, and only by it', async () => {
      const { store, other } = await open();
      expect(await store.claim('k', 'e1', LONG_MS)).toBe('e1');
      await other.release('k', 'e2');
      expect(await store.claim('k', 'e3', LONG_MS)).toBe('e1');
      await other.release('k', 'e1');
      expect(await store.claim('k', 'e4', LONG_MS)).toBe('e4');
    });

    it('lets exactly one of racing claims bind a key, and answers it to all of them', async () => {
      const { store, other } = await open();
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, n) =>
          (n % 2 === 0 ? store : other).claim('raced', `e${n}`, LONG_MS),
        ),
      );
      expect(new Set(answers).size).toBe(1);
      expect(answers[0]).toMatch(/^e[0-7]$/);
    });
  });
}
