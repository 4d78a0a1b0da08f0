// The leader lease of high availability (docs/high-availability.md): the one row of
// `leader_lease`, taken by a server when it is free or expired, renewed while that server
// leads and released when it stops. Expiry is decided by the database's clock (now()), never
// by the servers' own, so servers whose clocks disagree still agree on who holds it. Every take
// raises the epoch: writes to the execution log carry the holder and epoch they were made
// under, so a server whose lease was taken can no longer write there (fencing).
import type pg from 'pg';
import { storeFailure } from './pg-errors.js';
import type { PostgresDatabase } from './postgres-database.js';

/** The lease as this server took it. */
export interface LeaseHold {
  readonly holder: string;
  readonly epoch: number;
}

/** What the execution log needs to write only under this server's lease. */
export interface LeaseFence {
  /** The lease writes are made under; none: this server never held one, and writes nothing. */
  current(): LeaseHold | undefined;
  /** A write found the lease held by another server. */
  lost(): void;
}

export interface PostgresLeaderLeaseOptions {
  readonly db: PostgresDatabase;
  /** `svc.ha.server-id`: the holder the row names. */
  readonly serverId: string;
  /** `svc.ha.lease-duration`. */
  readonly durationMs: number;
  /**
   * Longest a statement on the lease may take; it then fails and its connection is dropped,
   * so that a database that stopped answering cannot hold up the next attempt.
   */
  readonly timeoutMs: number;
}

/** The table of the lease, for statements of other stores that are fenced by it. */
export const LEASE_TABLE = 'leader_lease';

/** The condition a fenced write adds: the lease row, locked against a take until it commits. */
export function fenceCondition(db: PostgresDatabase, holder: string, epoch: string): string {
  return `EXISTS (SELECT 1 FROM ${db.table(LEASE_TABLE)} l
    WHERE l.name = 'leader' AND l.holder = ${holder} AND l.epoch = ${epoch} FOR SHARE)`;
}

export class PostgresLeaderLease {
  readonly serverId: string;
  readonly #options: PostgresLeaderLeaseOptions;
  readonly #sql: ReturnType<typeof statements>;
  #pool: pg.Pool | undefined;
  #held: LeaseHold | undefined;

  constructor(options: PostgresLeaderLeaseOptions) {
    this.#options = options;
    this.serverId = options.serverId;
    this.#sql = statements(options.db);
  }

  /**
   * The lease this server took last. Kept after a release: the execution log still writes
   * what it had queued under it until another server takes the lease (SPEC graceful shutdown,
   * steps 3 and 4).
   */
  get held(): LeaseHold | undefined {
    return this.#held;
  }

  /** Takes the lease when it is free or expired; answers whether this server now holds it. */
  async acquire(): Promise<boolean> {
    const rows = await this.#query<{ epoch: string }>(
      'cannot take the leader lease',
      this.#sql.take,
      [this.serverId, this.#options.durationMs],
    );
    const epoch = rows[0]?.epoch;
    if (epoch === undefined) return false;
    this.#held = { holder: this.serverId, epoch: Number(epoch) };
    return true;
  }

  /** Extends the lease; false when it is no longer this server's (taken, or expired). */
  async renew(): Promise<boolean> {
    const held = this.#held;
    if (held === undefined) return false;
    const rows = await this.#query('cannot renew the leader lease', this.#sql.renew, [
      held.holder,
      held.epoch,
      this.#options.durationMs,
    ]);
    return rows.length === 1;
  }

  /** Lets the lease go at once, so that a standby need not wait for it to expire. */
  async release(): Promise<void> {
    const held = this.#held;
    if (held === undefined) return;
    await this.#query('cannot release the leader lease', this.#sql.release, [
      held.holder,
      held.epoch,
    ]);
  }

  /** The server holding an unexpired lease, by the database's clock; null when none does. */
  async holder(): Promise<string | null> {
    const rows = await this.#query<{ holder: string | null }>(
      'cannot read the leader lease',
      this.#sql.holder,
      [],
    );
    return rows[0]?.holder ?? null;
  }

  /** Ends the connection of the lease; the lease itself is left as it is. */
  async close(): Promise<void> {
    const pool = this.#pool;
    this.#pool = undefined;
    await pool?.end().catch(() => undefined);
  }

  async #query<TRow extends pg.QueryResultRow>(
    action: string,
    text: string,
    values: readonly unknown[],
  ): Promise<TRow[]> {
    // One connection of its own: a renewal must not queue behind the stores' statements.
    this.#pool ??= this.#options.db.separatePool(1, this.#options.timeoutMs);
    try {
      return (await this.#pool.query<TRow>(text, [...values])).rows;
    } catch (error) {
      throw storeFailure(action, error);
    }
  }
}

function statements(db: PostgresDatabase) {
  const lease = db.table(LEASE_TABLE);
  const until = `now() + $3::bigint * interval '1 millisecond'`;
  return {
    take: `UPDATE ${lease}
         SET holder = $1, epoch = epoch + 1, acquired_at = now(),
             expires_at = now() + $2::bigint * interval '1 millisecond'
       WHERE name = 'leader' AND expires_at <= now()
       RETURNING epoch`,
    renew: `UPDATE ${lease} SET expires_at = ${until}
       WHERE name = 'leader' AND holder = $1 AND epoch = $2 AND expires_at > now()
       RETURNING epoch`,
    // The holder stays: writes queued before the release still land until another server
    // takes the lease, and none after.
    release: `UPDATE ${lease} SET expires_at = now()
       WHERE name = 'leader' AND holder = $1 AND epoch = $2 AND expires_at > now()`,
    holder: `SELECT CASE WHEN expires_at > now() THEN holder END AS holder
       FROM ${lease} WHERE name = 'leader'`,
  };
}
