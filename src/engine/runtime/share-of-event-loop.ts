// Fair shares of the event loop for runs that never have to wait: a chain whose channels always
// have room moves entirely in microtasks, and would keep HTTP, event streams and other runs
// from the loop until it ended (SPEC: the server answers while a run of millions goes on).

/** Emits between two looks at the clock: reading it costs more than an emit's bookkeeping. */
const CHECK_EVERY = 64;
/** Longest stretch the engine holds the event loop before it gives the loop a turn. */
const TURN_MS = 10;

/**
 * The engine's share of the loop, for every run of the server. A property of one object
 * rather than module variables, which each access would check for initialisation.
 */
const share: {
  /** Emits left before the next look at the clock: counted down on every emit. */
  untilCheck: number;
  /** Settles at the loop's next turn; undefined while nobody has asked since the last turn. */
  nextTurn: Promise<void> | undefined;
  askedAt: number;
} = { untilCheck: CHECK_EVERY, nextTurn: undefined, askedAt: 0 };

function markTurn(resolve: () => void): void {
  setImmediate(() => {
    share.nextTurn = undefined;
    resolve();
  });
}

/**
 * Asked after each emit of a loop that generates messages (a source, a replay, an emit
 * stream, a long array): every run's work starts in one, so a processor that emits one
 * message per input need not ask, and asking on every node's emit cost a tenth of the engine's
 * throughput. Undefined while the loop may go on; a promise of the event loop's next turn once
 * the engine has held it for `TURN_MS`. The first look after a turn asks for the next one and
 * notes the time, so work that waits on I/O anyway (most runs) keeps going without a pause,
 * and only an unbroken stretch of work is ever made to wait.
 */
export function shareOfEventLoop(): Promise<void> | undefined {
  return --share.untilCheck > 0 ? undefined : lookAtClock();
}

function lookAtClock(): Promise<void> | undefined {
  share.untilCheck = CHECK_EVERY;
  if (share.nextTurn === undefined) {
    share.askedAt = performance.now();
    share.nextTurn = new Promise<void>(markTurn);
    return undefined;
  }
  return performance.now() - share.askedAt >= TURN_MS ? share.nextTurn : undefined;
}
