// Fair shares of the event loop for runs that never have to wait: a chain whose channels always
// have room moves entirely in microtasks, and would keep HTTP, event streams and other runs
// from the loop until it ended (SPEC: the server answers while a run of millions goes on).

/** Emits between two looks at the clock: reading it costs more than an emit's bookkeeping. */
const CHECK_EVERY = 64;
/** Longest stretch the engine holds the event loop before it gives the loop a turn. */
const TURN_MS = 10;

let untilCheck = CHECK_EVERY;
/** Settles at the loop's next turn; undefined while nobody has asked since the last turn. */
let nextTurn: Promise<void> | undefined;
let askedAt = 0;

function markTurn(resolve: () => void): void {
  setImmediate(() => {
    nextTurn = undefined;
    resolve();
  });
}

/**
 * Called once per emitted message. Undefined while the engine may go on; a promise of the
 * loop's next turn once it has held the loop for `TURN_MS`. The first look after a turn asks
 * for the next one and notes the time, so work that waits on I/O anyway (most runs) keeps
 * going without a pause, and only an unbroken stretch of work is ever made to wait.
 */
export function shareOfEventLoop(): Promise<void> | undefined {
  if (--untilCheck > 0) return undefined;
  untilCheck = CHECK_EVERY;
  if (nextTurn === undefined) {
    askedAt = performance.now();
    nextTurn = new Promise<void>(markTurn);
    return undefined;
  }
  return performance.now() - askedAt >= TURN_MS ? nextTurn : undefined;
}
