// Idempotency keys of starts (SPEC "Limits": 100,000 keys for 10 minutes; "Errors": the same
// `Idempotency-Key` on a retry prevents a second run). The key is claimed in the store before
// the start, under the id the new execution will have: of two starts with one key, on this
// server or on a new leader of a pair, only the one that bound it runs.
import type { IdempotencyStore } from '../stores/index.js';

export class IdempotencyKeys {
  readonly #store: IdempotencyStore;
  readonly #ttlMs: number;
  /** Starts under way on this server, so a repeat waits for the first rather than the store. */
  readonly #pending = new Map<string, Promise<string>>();

  constructor(store: IdempotencyStore, ttlMs: number) {
    this.#store = store;
    this.#ttlMs = ttlMs;
  }

  /**
   * Answers the execution `key` stands for: a new one, `fresh()`, that `start` makes when the
   * key is free, else the one its first start made. A start that fails releases the key.
   */
  once(
    key: string,
    fresh: () => string,
    start: (executionId: string) => Promise<unknown>,
  ): Promise<string> {
    const pending = this.#pending.get(key);
    if (pending !== undefined) return pending;
    const claimed = this.#claim(key, fresh(), start).finally(() => {
      this.#pending.delete(key);
    });
    this.#pending.set(key, claimed);
    return claimed;
  }

  async #claim(
    key: string,
    executionId: string,
    start: (executionId: string) => Promise<unknown>,
  ): Promise<string> {
    const holder = await this.#store.claim(key, executionId, this.#ttlMs);
    if (holder !== executionId) return holder;
    try {
      await start(executionId);
    } catch (error) {
      // Nothing was started: the key may be used again. A store that cannot release keeps it
      // until its window ends, which errs on the side of starting nothing twice.
      await this.#store.release(key, executionId).catch(() => undefined);
      throw error;
    }
    return executionId;
  }
}
