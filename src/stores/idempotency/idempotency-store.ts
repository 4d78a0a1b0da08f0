// Idempotency keys of starts (SPEC "Limits": 100,000 keys for 10 minutes, `svc.start.idempotency-*`;
// "Errors": a retried start with the same `Idempotency-Key` prevents a second run). A key is
// bound to the execution its first start made; the binding lasts a window counted from then.
// In memory for a lone server; in the database with the relational stores, so that a start
// retried at a new leader of a high-availability pair finds the key the old leader bound.

export interface IdempotencyStore {
  /**
   * Binds `key` to `executionId` unless a binding made less than `ttlMs` ago holds it, and
   * answers the execution the key is bound to: `executionId` when this call bound it. Of calls
   * racing for one key, exactly one binds it.
   */
  claim(key: string, executionId: string, ttlMs: number): Promise<string>;
  /** Drops the binding of `key` to `executionId`, if it still is; a start that failed made nothing. */
  release(key: string, executionId: string): Promise<void>;
}

interface Binding {
  readonly executionId: string;
  readonly expiresAt: number;
}

/** Keys in this process's memory: the newest `maxKeys`, each for its window. */
export class MemoryIdempotencyStore implements IdempotencyStore {
  readonly #maxKeys: number;
  readonly #now: () => number;
  /** Insertion order is age order: the first entries expire or are evicted first. */
  readonly #keys = new Map<string, Binding>();

  constructor(maxKeys: number, now: () => number) {
    this.#maxKeys = maxKeys;
    this.#now = now;
  }

  get size(): number {
    return this.#keys.size;
  }

  claim(key: string, executionId: string, ttlMs: number): Promise<string> {
    const now = this.#now();
    this.#expire(now);
    const known = this.#keys.get(key);
    if (known !== undefined) return Promise.resolve(known.executionId);
    this.#keys.set(key, { executionId, expiresAt: now + ttlMs });
    while (this.#keys.size > this.#maxKeys) {
      const oldest = this.#keys.keys().next();
      if (oldest.done === true) break;
      this.#keys.delete(oldest.value);
    }
    return Promise.resolve(executionId);
  }

  release(key: string, executionId: string): Promise<void> {
    if (this.#keys.get(key)?.executionId === executionId) this.#keys.delete(key);
    return Promise.resolve();
  }

  #expire(now: number): void {
    for (const [key, binding] of this.#keys) {
      // Windows are equally long, so bindings expire in insertion order.
      if (binding.expiresAt > now) return;
      this.#keys.delete(key);
    }
  }
}
