// One clock per run for every timer the run has (run deadline, node deadline and idle
// timeouts, element timeouts, plugin sleeps). Pausing freezes all of them and resuming
// re-arms each with the time it had left, so a pause never causes a timeout (SPEC States
// and transitions, rule 1).
import type { Clock } from '../../core/index.js';

export type { Timer };

export interface TimerHandle {
  cancel(): void;
}

/** How timers are armed: real ones in production, a manual scheduler in tests. */
export interface TimerScheduler {
  /** Calls `callback(timer)` after `ms`: one shared callback, no closure per timer. */
  setTimeout(callback: (timer: Timer) => void, ms: number, timer: Timer): unknown;
  clearTimeout(handle: unknown): void;
}

function fireTimer(timer: Timer): void {
  timer.fire();
}

export const realTimers: TimerScheduler = {
  setTimeout: (callback, ms, timer) => setTimeout(callback, ms, timer),
  clearTimeout: (handle) => {
    clearTimeout(handle as NodeJS.Timeout);
  },
};

/** One timer of a run; a class so that many parked runs share its methods. */
class Timer implements TimerHandle {
  remaining: number;
  armedAt: number;
  handle: unknown = undefined;
  done = false;

  constructor(
    readonly clock: RunClock,
    readonly callback: () => void,
    ms: number,
    now: number,
  ) {
    this.remaining = Math.max(0, ms);
    this.armedAt = now;
  }

  cancel(): void {
    this.clock.cancelTimer(this);
  }

  fire(): void {
    this.done = true;
    this.clock.forgetTimer(this);
    this.callback();
  }
}

export class RunClock {
  readonly #clock: Clock;
  readonly #scheduler: TimerScheduler;
  readonly #timers = new Set<Timer>();
  #paused = false;
  /** Run time already spent while running, excluding pauses. */
  #pausedTotal = 0;
  #pausedAt = 0;

  constructor(clock: Clock, scheduler: TimerScheduler = realTimers) {
    this.#clock = clock;
    this.#scheduler = scheduler;
  }

  /** Wall-clock time, for records and plugins. */
  now(): number {
    return this.#clock.now();
  }

  get paused(): boolean {
    return this.#paused;
  }

  /** Calls `callback` once `ms` of unpaused time has passed. */
  after(ms: number, callback: () => void): TimerHandle {
    const timer = new Timer(this, callback, ms, this.#clock.now());
    this.#timers.add(timer);
    if (!this.#paused) this.#arm(timer);
    return timer;
  }

  /** @internal */
  cancelTimer(timer: Timer): void {
    if (timer.done) return;
    timer.done = true;
    this.#timers.delete(timer);
    if (timer.handle !== undefined) this.#scheduler.clearTimeout(timer.handle);
  }

  /** @internal */
  forgetTimer(timer: Timer): void {
    this.#timers.delete(timer);
  }

  /** Resolves after `ms` of unpaused time; rejects with the signal's reason on abort. */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason as Error);
        return;
      }
      const onAbort = (): void => {
        handle.cancel();
        reject(signal?.reason as Error);
      };
      const handle = this.after(ms, () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  pause(): void {
    if (this.#paused) return;
    this.#paused = true;
    const now = this.#clock.now();
    this.#pausedAt = now;
    for (const timer of this.#timers) {
      if (timer.handle !== undefined) this.#scheduler.clearTimeout(timer.handle);
      timer.handle = undefined;
      timer.remaining = Math.max(0, timer.remaining - (now - timer.armedAt));
    }
  }

  resume(): void {
    if (!this.#paused) return;
    this.#paused = false;
    this.#pausedTotal += this.#clock.now() - this.#pausedAt;
    for (const timer of this.#timers) this.#arm(timer);
  }

  /** Total time spent paused. */
  get pausedMs(): number {
    return this.#pausedTotal + (this.#paused ? this.#clock.now() - this.#pausedAt : 0);
  }

  /** Cancels every timer: the run has ended. */
  dispose(): void {
    for (const timer of this.#timers) {
      timer.done = true;
      if (timer.handle !== undefined) this.#scheduler.clearTimeout(timer.handle);
    }
    this.#timers.clear();
  }

  #arm(timer: Timer): void {
    timer.armedAt = this.#clock.now();
    timer.handle = this.#scheduler.setTimeout(fireTimer, timer.remaining, timer);
  }
}

/** Timers that fire only when `advance` moves a ManualClock past them: deterministic tests. */
export class ManualScheduler implements TimerScheduler {
  readonly #clock: { now(): number; advance(ms: number): void };
  readonly #pending = new Map<number, { at: number; callback: () => void }>();
  #next = 0;

  constructor(clock: { now(): number; advance(ms: number): void }) {
    this.#clock = clock;
  }

  setTimeout(callback: (timer: Timer) => void, ms: number, timer: Timer): unknown {
    const id = ++this.#next;
    this.#pending.set(id, {
      at: this.#clock.now() + ms,
      callback: () => {
        callback(timer);
      },
    });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.#pending.delete(handle as number);
  }

  get pending(): number {
    return this.#pending.size;
  }

  /** Moves time forward in steps, firing each timer that falls due, in time order. */
  advance(ms: number): void {
    const target = this.#clock.now() + ms;
    for (;;) {
      let due: [number, { at: number; callback: () => void }] | undefined;
      for (const entry of this.#pending) {
        if (entry[1].at <= target && (due === undefined || entry[1].at < due[1].at)) due = entry;
      }
      if (due === undefined) break;
      this.#pending.delete(due[0]);
      this.#clock.advance(Math.max(0, due[1].at - this.#clock.now()));
      due[1].callback();
    }
    this.#clock.advance(Math.max(0, target - this.#clock.now()));
  }
}
