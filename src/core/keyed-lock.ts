// Serialises async work per key, so read-modify-write sequences on one record never interleave.

export class KeyedLock {
  readonly #tails = new Map<string, Promise<unknown>>();

  /** Runs `work` after every earlier call with the same key has settled. */
  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const result = previous.then(work, work);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }
}
