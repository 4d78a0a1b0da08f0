// Messages a node works on at once when its plugin allows more than one
// (`MessageProcessor.concurrency`): a bound on them, and the first failure among them.

/** The work of one node's messages under way; the node takes the next only while there is room. */
export class InFlight {
  readonly #limit: number;
  readonly #failed: (error: unknown) => void;
  readonly #running = new Set<Promise<void>>();
  #failure: { readonly error: unknown } | undefined;

  /** `failed` is told the first failure at once, so the node ends without waiting for the rest. */
  constructor(limit: number, failed: (error: unknown) => void) {
    this.#limit = limit;
    this.#failed = failed;
  }

  /** Tracks `work`; resolves once another message may be taken, undefined when it may now. */
  add(work: Promise<void>): Promise<void> | undefined {
    const tracked: Promise<void> = work.then(
      () => {
        this.#running.delete(tracked);
      },
      (error: unknown) => {
        this.#running.delete(tracked);
        if (this.#failure !== undefined) return;
        this.#failure = { error };
        this.#failed(error);
      },
    );
    this.#running.add(tracked);
    return this.#running.size < this.#limit ? undefined : Promise.race(this.#running);
  }

  /** Waits for all the work under way; rejects with the first failure among it. */
  async drain(): Promise<void> {
    while (this.#running.size > 0) await Promise.all(this.#running);
    if (this.#failure !== undefined) throw this.#failure.error;
  }
}
