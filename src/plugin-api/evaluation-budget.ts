// What keeps a JSONata evaluation from holding the server. JSONata runs on the event loop and
// an expression can loop for ever (a tail-recursive function never overflows the stack), so
// every evaluation runs under a budget that JSONata consults at each step it takes: the
// evaluation gives the event loop a turn every few milliseconds (health checks, other runs and
// stop requests are answered meanwhile), ends as soon as its node's signal aborts (stop,
// node, element and run timeouts), waits while its node is paused, and fails once it has
// computed for longer than the evaluation time limit.

/** What an evaluation needs of its node: `NodeContext` has both. */
export interface EvaluationScope {
  /** Aborted when the run is stopped or the node times out: the evaluation ends with it. */
  readonly signal: AbortSignal;
  /** Waits on the node's clock, which a pause freezes: an evaluation holds while paused. */
  sleep(ms: number): Promise<void>;
}

/** The longest stretch an evaluation holds the event loop before it gives it a turn. */
export const EVALUATION_SLICE_MS = 1;
/**
 * How often a long evaluation waits on its node's clock rather than only letting I/O in: a
 * timer turn costs a millisecond, and a pause needs to be noticed within a second, not sooner.
 */
const CLOCK_TURN_MS = 100;
/** Steps taken between two looks at the clock: reading it costs more than most steps. */
const STEPS_PER_CHECK = 64;
/** How long one evaluation may compute unless the settings say otherwise. */
export const DEFAULT_EVALUATION_TIME_LIMIT_MS = 10_000;

let timeLimitMs = DEFAULT_EVALUATION_TIME_LIMIT_MS;

/**
 * Sets the time limit of every evaluation (`svc.expressions.timeout-ms`): one value for the
 * whole process, like the compiled-expression cache it guards.
 */
export function setEvaluationTimeLimit(ms: number): void {
  timeLimitMs = ms;
}

/** An evaluation ran past the time limit: the text says which setting to raise. */
export class EvaluationTimeLimit extends Error {
  constructor(limitMs: number) {
    super(`ran longer than svc.expressions.timeout-ms (${limitMs} ms)`);
    this.name = 'EvaluationTimeLimit';
  }
}

/** One evaluation's allowance of time: computing time, so a pause does not use it up. */
export class EvaluationBudget {
  readonly #scope: EvaluationScope | undefined;
  readonly #limitMs = timeLimitMs;
  #countdown = STEPS_PER_CHECK;
  #sliceStart = performance.now();
  /** Time computed in earlier slices. */
  #spent = 0;
  /** `#spent` when the evaluation last waited on its node's clock. */
  #clockTurnAt = 0;

  constructor(scope: EvaluationScope | undefined) {
    this.#scope = scope;
  }

  /**
   * Called before each step of the evaluation. Throws to end it (aborted, over the limit);
   * answers a promise when the evaluation should give the event loop a turn first.
   */
  step(): Promise<void> | undefined {
    if (--this.#countdown > 0) return undefined;
    this.#countdown = STEPS_PER_CHECK;
    const signal = this.#scope?.signal;
    if (signal?.aborted === true) throw signal.reason;
    const now = performance.now();
    const slice = now - this.#sliceStart;
    if (this.#spent + slice > this.#limitMs) throw new EvaluationTimeLimit(this.#limitMs);
    if (slice < EVALUATION_SLICE_MS) return undefined;
    this.#spent += slice;
    return this.#giveTurn();
  }

  async #giveTurn(): Promise<void> {
    const scope = this.#scope;
    if (scope !== undefined && this.#spent - this.#clockTurnAt >= CLOCK_TURN_MS) {
      // The node's clock holds the evaluation while the node or its run is paused.
      this.#clockTurnAt = this.#spent;
      await scope.sleep(0);
    } else {
      // A macrotask rather than a microtask: only that lets I/O (a health check, a stop
      // request) in.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    this.#sliceStart = performance.now();
  }
}
