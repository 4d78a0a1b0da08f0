// Time as a dependency, so that tests can drive it by hand.

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that moves only when told to. */
export class ManualClock implements Clock {
  #now: number;

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  advance(ms: number): void {
    this.#now += ms;
  }
}

export function isoTimestamp(clock: Clock): string {
  return new Date(clock.now()).toISOString();
}

/**
 * ISO 8601 text of times, made once per millisecond: events and results come many a
 * millisecond, and formatting a date costs more than the rest of an event.
 */
export class IsoTimes {
  #at = Number.NaN;
  #text = '';

  of(ms: number): string {
    if (ms !== this.#at) {
      this.#at = ms;
      this.#text = new Date(ms).toISOString();
    }
    return this.#text;
  }
}
