// A request-rate limit per API caller (SPEC Limits: "Request-rate limit for API callers", which
// SPEC does not show and CONTRACT does not fix; docs/architecture.md records the decision).
// Off unless `svc.rate-limit.requests-per-minute` is set. A caller is its key's actor
// (`key:<name>`), else its address; each gets a bucket of that many requests that refills
// evenly over a minute, so a burst up to the limit passes and a steady rate above it does not.
import { isToolPath } from '../auth/index.js';

const MINUTE_MS = 60_000;
/** Callers whose buckets are kept; the one seen longest ago goes first beyond it. */
const MAX_CALLERS = 10_000;

export interface RateLimitOptions {
  readonly requestsPerMinute: number;
  readonly now?: () => number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** Whether a path is limited: `/api` and `/mcp`, not management, documentation or the UI. */
export function isRateLimitedPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/') || isToolPath(path);
}

export class RequestRateLimiter {
  readonly #capacity: number;
  readonly #now: () => number;
  /** By caller; insertion order is the order callers were last seen. */
  readonly #buckets = new Map<string, Bucket>();

  constructor(options: RateLimitOptions) {
    this.#capacity = options.requestsPerMinute;
    this.#now = options.now ?? Date.now;
  }

  /** Takes one request for `caller`: 0 when it may go on, else the seconds until it may. */
  take(caller: string): number {
    const now = this.#now();
    const bucket = this.#buckets.get(caller) ?? { tokens: this.#capacity, at: now };
    bucket.tokens = Math.min(
      this.#capacity,
      bucket.tokens + ((now - bucket.at) * this.#capacity) / MINUTE_MS,
    );
    bucket.at = now;
    this.#buckets.delete(caller);
    this.#buckets.set(caller, bucket);
    if (this.#buckets.size > MAX_CALLERS) {
      const oldest = this.#buckets.keys().next();
      if (oldest.done !== true) this.#buckets.delete(oldest.value);
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - bucket.tokens) * MINUTE_MS) / this.#capacity / 1000);
  }
}
