// High availability (docs/high-availability.md): whether this server leads its pair. A standby
// keeps trying to take the leader lease; the server that takes it recovers the shared
// execution log, then leads and renews the lease. A leader that finds its lease taken, or
// cannot renew it before it expires, stops leading at once (fencing): by then another server
// may have taken it, and two leaders would run the same work twice.
import { performance } from 'node:perf_hooks';
import { messageOf } from '../core/index.js';

/** The leader lease as leadership needs it (PostgreSQL's `leader_lease` row). */
export interface LeaderLease {
  /** Takes the lease when it is free or expired; answers whether this server holds it. */
  acquire(): Promise<boolean>;
  /** Extends the lease; false when it is no longer this server's. */
  renew(): Promise<boolean>;
  /** Lets the lease go at once. */
  release(): Promise<void>;
}

/** What admission and shutdown ask of leadership. */
export interface LeaderRole {
  /** Leads: the lease is held and the shared log recovered. */
  readonly isLeader: boolean;
  /** SPEC graceful shutdown step 3: release the leader lease at once. */
  release(): Promise<void>;
}

/**
 * `standby`: another server leads (or none yet); `electing`: the lease is taken and the log is
 * being recovered; `leader`; `fenced`: leadership was lost, for good in this process;
 * `stopped`: released at shutdown.
 */
export type LeadershipState = 'standby' | 'electing' | 'leader' | 'fenced' | 'stopped';

export interface LeadershipLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

export interface LeadershipOptions {
  readonly lease: LeaderLease;
  /** `svc.ha.lease-duration`. */
  readonly durationMs: number;
  /** `svc.ha.renew-interval`: between renewals, and between a standby's attempts. */
  readonly renewIntervalMs: number;
  readonly logger: LeadershipLogger;
  /** Monotonic milliseconds; the process's by default. */
  readonly now?: () => number;
}

export interface LeadershipHooks {
  /** The lease was taken: recover the shared execution log. The server leads once it resolves. */
  readonly recover: () => Promise<void>;
  /** The server leads now. */
  readonly lead?: () => void;
  /** Leadership was lost without a release: stop acting on shared state at once. */
  readonly fenced: (reason: string) => void;
}

export class Leadership implements LeaderRole {
  readonly #options: LeadershipOptions;
  readonly #now: () => number;
  #state: LeadershipState = 'standby';
  #hooks: LeadershipHooks | undefined;
  /** The next attempt (standby) or renewal (holding the lease). */
  #next: ReturnType<typeof setTimeout> | undefined;
  /** When the lease runs out by this server's own clock: it stops leading then. */
  #deadline: ReturnType<typeof setTimeout> | undefined;
  /** The statement on the lease under way. */
  #busy: Promise<void> | undefined;
  /** The recovery after taking the lease, until the server leads. */
  #electing: Promise<void> | undefined;
  /** The last failure logged, so that a database that stays away is not logged every turn. */
  #lastProblem: string | undefined;

  constructor(options: LeadershipOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => performance.now());
  }

  get state(): LeadershipState {
    return this.#state;
  }

  get isLeader(): boolean {
    return this.#state === 'leader';
  }

  /** Makes the first attempt and, when it takes the lease, waits until the server leads. */
  async start(hooks: LeadershipHooks): Promise<void> {
    this.#hooks = hooks;
    await this.#track(() => this.#attempt());
    await this.#electing;
  }

  /**
   * Stops leading at once: the lease was found taken, could not be renewed in time, or a
   * write under it was refused. Nothing is released; the process is done with leadership.
   */
  fence(reason: string): void {
    if (this.#state !== 'leader' && this.#state !== 'electing') return;
    this.#state = 'fenced';
    this.#clearTimers();
    this.#options.logger.error({ reason }, `This server stopped leading: ${reason}`);
    try {
      this.#hooks?.fenced(reason);
    } catch (error) {
      // Called from timers and statements: a throw here would end the process unlogged.
      this.#options.logger.error(
        { err: messageOf(error) },
        'Stopping the work of the lost leadership failed',
      );
    }
  }

  /**
   * SPEC graceful shutdown step 3: no more attempts or renewals, and the lease goes at once,
   * so a standby need not wait for it to expire. A standby just stops trying.
   */
  async release(): Promise<void> {
    if (this.#state === 'stopped') return;
    if (this.#state !== 'fenced') this.#state = 'stopped';
    this.#clearTimers();
    // An attempt under way may still take the lease: it is released with the rest.
    await this.#busy;
    try {
      await this.#options.lease.release();
    } catch (error) {
      this.#options.logger.warn(
        { err: error },
        'The leader lease could not be released; it expires by itself',
      );
    }
  }

  /** Runs one attempt or renewal at a time; `release` waits for the one under way. */
  async #track(work: () => Promise<void>): Promise<void> {
    const busy = work().finally(() => {
      if (this.#busy === busy) this.#busy = undefined;
    });
    this.#busy = busy;
    await busy;
  }

  async #attempt(): Promise<void> {
    if (this.#state !== 'standby') return;
    const sentAt = this.#now();
    let taken = false;
    try {
      taken = await this.#options.lease.acquire();
    } catch (error) {
      this.#problem(error, 'The leader lease could not be read; trying again');
    }
    // A shutdown may have come while the statement was under way.
    if (!this.#standby()) return;
    if (!taken) {
      if (this.#lastProblem !== 'standby') {
        this.#lastProblem = 'standby';
        this.#options.logger.info(
          {},
          'Another server holds the leader lease: this server is a standby and keeps trying to take it',
        );
      }
      this.#schedule(() => this.#attempt());
      return;
    }
    this.#lastProblem = undefined;
    this.#state = 'electing';
    this.#holdUntil(sentAt + this.#options.durationMs);
    this.#schedule(() => this.#renew());
    this.#options.logger.info(
      {},
      'This server took the leader lease; recovering the execution log',
    );
    // Not part of the statement under way: a shutdown releases the lease without waiting for it.
    this.#electing = this.#elect();
  }

  async #elect(): Promise<void> {
    try {
      await this.#hooks?.recover();
    } catch (error) {
      this.fence(`the recovery after taking the leader lease failed: ${messageOf(error)}`);
      return;
    }
    if (this.#state !== 'electing') return;
    this.#state = 'leader';
    this.#options.logger.info({}, 'This server leads');
    this.#hooks?.lead?.();
  }

  async #renew(): Promise<void> {
    if (!this.#holding()) return;
    // Measured before the statement is sent: the database's expiry is at least this late.
    const sentAt = this.#now();
    let kept: boolean;
    try {
      kept = await this.#options.lease.renew();
    } catch (error) {
      // The lease may still be valid: the next turn tries again, and the deadline decides.
      this.#problem(error, 'The leader lease could not be renewed; trying again');
      if (this.#holding()) this.#schedule(() => this.#renew());
      return;
    }
    if (!this.#holding()) return;
    if (!kept) {
      this.fence('the leader lease expired or was taken by another server');
      return;
    }
    this.#lastProblem = undefined;
    this.#holdUntil(sentAt + this.#options.durationMs);
    this.#schedule(() => this.#renew());
  }

  #standby(): boolean {
    return this.#state === 'standby';
  }

  #holding(): boolean {
    return this.#state === 'electing' || this.#state === 'leader';
  }

  /** The lease is valid until `until` (monotonic): this server stops leading then at the latest. */
  #holdUntil(until: number): void {
    if (this.#deadline !== undefined) clearTimeout(this.#deadline);
    this.#deadline = setTimeout(
      () => {
        this.fence('the leader lease could not be renewed before it expired');
      },
      Math.max(0, until - this.#now()),
    );
    this.#deadline.unref();
  }

  #schedule(work: () => Promise<void>): void {
    if (this.#next !== undefined) clearTimeout(this.#next);
    this.#next = setTimeout(() => {
      this.#next = undefined;
      void this.#track(work);
    }, this.#options.renewIntervalMs);
    this.#next.unref();
  }

  #clearTimers(): void {
    if (this.#next !== undefined) clearTimeout(this.#next);
    if (this.#deadline !== undefined) clearTimeout(this.#deadline);
    this.#next = undefined;
    this.#deadline = undefined;
  }

  #problem(error: unknown, message: string): void {
    const problem = messageOf(error);
    if (problem === this.#lastProblem) return;
    this.#lastProblem = problem;
    this.#options.logger.warn({ err: problem }, message);
  }
}
