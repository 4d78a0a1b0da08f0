// One clock per run for every timer the run has (run deadline, node deadline and idle
// timeouts, element timeouts, plugin sleeps), with a child clock per node. Pausing freezes the
// timers below and resuming re-arms each with the time it had left, so a pause never causes a
// timeout (SPEC States and transitions, rule 1).
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

/**
 * The longest delay a platform timer honours: Node clamps anything above 2^31-1 ms to 1 ms, so
 * a longer timer is armed in steps of at most this much (a one-month DELAY is legitimate).
 */
export const MAX_TIMER_STEP_MS = 2 ** 31 - 1;

function fireTimer(timer: Timer): void {
  if (timer.remaining > MAX_TIMER_STEP_MS) {
    // One step of a long timer has passed: arm the next with what is left.
    timer.remaining -= MAX_TIMER_STEP_MS;
    timer.handle = undefined;
    timer.clock.rearm(timer);
    return;
  }
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

/** What a run's clock and the node clocks below it share: one per run. */
interface SharedTimers {
  readonly clock: Clock;
  readonly scheduler: TimerScheduler;
  /** Every timer of the run, whichever clock it belongs to; made on first use. */
  timers: Set<Timer> | undefined;
  /** Time the run's clock spent paused, excluding the current pause. */
  pausedTotal: number;
  pausedAt: number;
}

/**
 * A run's clock, or a node's clock below it (`child`). A clock is frozen while it is paused or
 * while its parent is frozen (unless it is independent), so pausing the run freezes every
 * node's timers and pausing a node freezes only its own. A frozen timer keeps the time it had
 * left and gets it back when its clock thaws. A node clock is four fields: everything else,
 * the timers included, is held once per run, since many runs sit parked.
 */
export class RunClock {
  #shared: SharedTimers;
  #parent: RunClock | undefined;
  #paused = false;
  #independent = false;

  constructor(clock: Clock, scheduler: TimerScheduler = realTimers) {
    this.#shared = { clock, scheduler, timers: undefined, pausedTotal: 0, pausedAt: 0 };
  }

  /** A clock whose timers also freeze whenever this one is frozen: one per node of a run. */
  child(): RunClock {
    const child = new RunClock(this.#shared.clock, this.#shared.scheduler);
    child.#shared = this.#shared;
    child.#parent = this;
    return child;
  }

  /** Wall-clock time, for records and plugins. */
  now(): number {
    return this.#shared.clock.now();
  }

  /** Paused by its own `pause`. */
  get paused(): boolean {
    return this.#paused;
  }

  /** Timers stand still: paused, or the parent is frozen and this clock is not independent. */
  get frozen(): boolean {
    return (
      this.#paused || (!this.#independent && this.#parent !== undefined && this.#parent.frozen)
    );
  }

  /** Calls `callback` once `ms` of unfrozen time has passed. */
  after(ms: number, callback: () => void): TimerHandle {
    const shared = this.#shared;
    const timer = new Timer(this, callback, ms, shared.clock.now());
    (shared.timers ??= new Set()).add(timer);
    if (!this.frozen) this.#arm(timer);
    return timer;
  }

  /** @internal */
  cancelTimer(timer: Timer): void {
    if (timer.done) return;
    timer.done = true;
    this.#shared.timers?.delete(timer);
    if (timer.handle !== undefined) this.#shared.scheduler.clearTimeout(timer.handle);
  }

  /** @internal */
  rearm(timer: Timer): void {
    if (!timer.done && !timer.clock.frozen) this.#arm(timer);
  }

  /** @internal */
  forgetTimer(timer: Timer): void {
    this.#shared.timers?.delete(timer);
  }

  /** Resolves after `ms` of unfrozen time; rejects with the signal's reason on abort. */
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
    if (this.#parent === undefined) this.#shared.pausedAt = this.now();
    this.#update();
  }

  resume(): void {
    if (!this.#paused) return;
    this.#paused = false;
    const shared = this.#shared;
    if (this.#parent === undefined) shared.pausedTotal += this.now() - shared.pausedAt;
    this.#update();
  }

  /**
   * An independent clock runs even while its parent is frozen (never while it is paused
   * itself): a step lets one node of a paused run work on one message with time flowing, so a
   * delay or a retry backoff inside the step completes.
   */
  setIndependent(independent: boolean): void {
    if (this.#independent === independent) return;
    this.#independent = independent;
    this.#update();
  }

  /** Total time the run's clock has spent paused. */
  get pausedMs(): number {
    const shared = this.#shared;
    return shared.pausedTotal + (this.#runPaused() ? this.now() - shared.pausedAt : 0);
  }

  #runPaused(): boolean {
    return this.#parent === undefined ? this.#paused : this.#parent.#runPaused();
  }

  /** Cancels every timer of the run, whichever clock it belongs to: the run has ended. */
  dispose(): void {
    const { timers, scheduler } = this.#shared;
    if (timers === undefined) return;
    for (const timer of timers) {
      timer.done = true;
      if (timer.handle !== undefined) scheduler.clearTimeout(timer.handle);
    }
    timers.clear();
  }

  /**
   * Freezes each armed timer whose clock is now frozen and arms each frozen timer whose clock
   * thawed. Every timer of the run is looked at: controls are rare and timers few.
   */
  #update(): void {
    const { timers, scheduler } = this.#shared;
    const now = this.now();
    for (const timer of timers ?? []) {
      const frozen = timer.clock.frozen;
      if (frozen && timer.handle !== undefined) {
        scheduler.clearTimeout(timer.handle);
        timer.handle = undefined;
        timer.remaining = Math.max(0, timer.remaining - (now - timer.armedAt));
      } else if (!frozen && timer.handle === undefined) {
        this.#arm(timer);
      }
    }
  }

  #arm(timer: Timer): void {
    timer.armedAt = this.now();
    const step = Math.min(timer.remaining, MAX_TIMER_STEP_MS);
    timer.handle = this.#shared.scheduler.setTimeout(fireTimer, step, timer);
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
