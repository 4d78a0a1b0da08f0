// Idempotency keys of starts (SPEC "Limits": 100,000 keys for 10 minutes): the first call
// with a key does the work; later calls within the window get the first call's answer, even
// while that work is still under way.

interface Remembered<T> {
  readonly answer: Promise<T>;
  readonly expiresAt: number;
}

export class IdempotencyKeys<T> {
  readonly #maxKeys: number;
  readonly #ttlMs: number;
  readonly #now: () => number;
  /** Insertion order is age order: the first entries expire or are evicted first. */
  readonly #keys = new Map<string, Remembered<T>>();

  constructor(maxKeys: number, ttlMs: number, now: () => number) {
    this.#maxKeys = maxKeys;
    this.#ttlMs = ttlMs;
    this.#now = now;
  }

  get size(): number {
    return this.#keys.size;
  }

  once(key: string, work: () => Promise<T>): Promise<T> {
    const now = this.#now();
    this.#expire(now);
    const known = this.#keys.get(key);
    if (known !== undefined) return known.answer;
    const answer = work();
    this.#keys.set(key, { answer, expiresAt: now + this.#ttlMs });
    // A start that failed started nothing: the key may be used again.
    answer.catch(() => {
      if (this.#keys.get(key)?.answer === answer) this.#keys.delete(key);
    });
    while (this.#keys.size > this.#maxKeys) {
      const oldest = this.#keys.keys().next();
      if (oldest.done === true) break;
      this.#keys.delete(oldest.value);
    }
    return answer;
  }

  #expire(now: number): void {
    for (const [key, remembered] of this.#keys) {
      if (remembered.expiresAt > now) return;
      this.#keys.delete(key);
    }
  }
}
