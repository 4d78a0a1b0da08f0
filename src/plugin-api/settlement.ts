// Settlement of a trigger's messages: end-to-end acknowledgement for plugins that take
// messages from a broker. A trigger attaches a `Settlement` to a message it emits; the engine
// tells it once how everything that message led to ended, and the plugin acknowledges the
// broker's message then, not when it was read.

/**
 * How a settled message ended:
 * - `done`: every message descended from it reached a terminal or was filtered out;
 * - `failed`: one of them failed after its retries and its node's `onError` (`SKIP`,
 *   `DEAD_LETTER` or `FAIL`; an `ERROR_PORT` route is a path like any other);
 * - `cancelled`: the run ended (stopped, cancelled, failed elsewhere) while some were still
 *   under way, or were dropped by a full edge buffer that drops.
 * A process that dies settles nothing: the broker delivers the message again.
 */
export type SettlementOutcome = 'done' | 'failed' | 'cancelled';

/**
 * What failed, told with a `failed` outcome: the node where a descendant of the message failed
 * for good, and its error, so a dead letter can say why.
 */
export interface SettlementFailure {
  readonly nodeId: string;
  readonly error: string;
}

/** What a trigger attaches to an emit to be told how the message ended. */
export interface Settlement {
  /**
   * A stable key from the broker's own id of the message (a stream sequence, a delivery id
   * the broker keeps across redeliveries): the message id derives from it and the workflow,
   * so a redelivered message gets the same id in any run of the workflow.
   */
  readonly key: string;
  /**
   * Called exactly once, when the outcome is known; never when the process dies first. A
   * `failed` outcome comes with what failed. Must not throw (a throw is logged and ignored).
   */
  readonly onSettled: (outcome: SettlementOutcome, failure?: SettlementFailure) => void;
}

/**
 * Credits of a consumer: it takes a message from its broker only while it holds fewer
 * unsettled messages than its credit, and takes more as they settle. `take` waits for a free
 * credit; `settled` gives one back.
 */
export class Credits {
  readonly limit: number;
  #held = 0;
  #waiters: (() => void)[] = [];
  #freeWaiter: { readonly count: number; readonly wake: () => void } | undefined;

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1) {
      throw new RangeError(`Credits must be a positive integer, got ${String(limit)}`);
    }
    this.limit = limit;
  }

  /** Unsettled messages held now. */
  get held(): number {
    return this.#held;
  }

  /** Credits free now. */
  get free(): number {
    return this.limit - this.#held;
  }

  /** Takes a credit: at once when one is free, else once a message settles. */
  take(signal?: AbortSignal): Promise<void> | undefined {
    if (this.#held < this.limit) {
      this.#held++;
      return undefined;
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        this.#waiters = this.#waiters.filter((waiter) => waiter !== wake);
        reject(signal?.reason instanceof Error ? signal.reason : new Error('Aborted'));
      };
      const wake = (): void => {
        signal?.removeEventListener('abort', onAbort);
        this.#held++;
        resolve();
      };
      if (signal?.aborted === true) {
        onAbort();
        return;
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiters.push(wake);
    });
  }

  /** Takes every credit free now, without waiting: answers how many. */
  takeFree(): number {
    const free = this.limit - this.#held;
    this.#held = this.limit;
    return free;
  }

  /**
   * Waits until `count` credits (at most the limit) are free, or none is held: for a consumer
   * that fetches in batches rather than one message per round trip. One waiter at a time.
   */
  whenFree(count: number, signal?: AbortSignal): Promise<void> | undefined {
    const wanted = Math.min(count, this.limit);
    if (this.free >= wanted || this.#held === 0) return undefined;
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        this.#freeWaiter = undefined;
        reject(signal?.reason instanceof Error ? signal.reason : new Error('Aborted'));
      };
      if (signal?.aborted === true) {
        onAbort();
        return;
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#freeWaiter = {
        count: wanted,
        wake: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
    });
  }

  /** Gives a credit back: a message settled. */
  settled(): void {
    if (this.#held === 0) throw new RangeError('No credit is held');
    this.#held--;
    this.#waiters.shift()?.();
    const waiter = this.#freeWaiter;
    if (waiter !== undefined && (this.free >= waiter.count || this.#held === 0)) {
      this.#freeWaiter = undefined;
      waiter.wake();
    }
  }
}
