// `svc.llm.rate-limit.<provider>` (SPEC Workflow-author safeguards): requests per minute to a
// provider, over the whole server. A call over the rate waits for a slot rather than failing,
// so a burst of messages is spread out instead of lost to retries.

/** The sliding window the limits count requests in. */
export const RATE_WINDOW_MS = 60_000;

export class LlmRateLimiter {
  readonly #perMinute: ReadonlyMap<string, number>;
  /** Start times of the requests of the last window, per provider, oldest first. */
  readonly #sent = new Map<string, number[]>();
  readonly #now: () => number;

  constructor(perMinute: Readonly<Record<string, number>>, now: () => number = Date.now) {
    this.#perMinute = new Map(Object.entries(perMinute));
    this.#now = now;
  }

  /** The limit of a provider, or undefined when it has none. */
  limitOf(provider: string): number | undefined {
    return this.#perMinute.get(provider);
  }

  /**
   * Takes a slot for one request to `provider`, waiting with `sleep` while the last minute
   * holds as many requests as the provider allows; at once for a provider without a limit.
   */
  async acquire(provider: string, sleep: (ms: number) => Promise<void>): Promise<void> {
    const limit = this.#perMinute.get(provider);
    if (limit === undefined) return;
    let sent = this.#sent.get(provider);
    if (sent === undefined) {
      sent = [];
      this.#sent.set(provider, sent);
    }
    for (;;) {
      const now = this.#now();
      while (sent.length > 0 && (sent[0] ?? now) <= now - RATE_WINDOW_MS) sent.shift();
      if (sent.length < limit) {
        sent.push(now);
        return;
      }
      // Waiters re-check after their sleep: whoever wakes first takes the freed slot.
      await sleep((sent[0] ?? now) + RATE_WINDOW_MS - now);
    }
  }
}

/** No limits: for tests and tools. */
export const NO_RATE_LIMITS = new LlmRateLimiter({});
