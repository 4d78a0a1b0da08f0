// Idempotency keys in the relational database (docs/high-availability.md): the servers of a
// pair share them, so a start retried at a new leader with the same `Idempotency-Key` finds
// the execution the old leader started. Windows are decided by the database's clock (now()),
// like the leader lease, so servers whose clocks disagree still agree on a key.
import type { IdempotencyStore } from '../idempotency/idempotency-store.js';
import { storeFailure } from './pg-errors.js';
import type { PostgresDatabase } from './postgres-database.js';

/** Expired bindings are deleted at most this often, by the claim that comes after. */
const SWEEP_EVERY_MS = 60_000;
/** A key whose binding expires between the insert and the read is tried again this often. */
const CLAIM_TRIES = 3;

export class PostgresIdempotencyStore implements IdempotencyStore {
  readonly #db: PostgresDatabase;
  readonly #sql: ReturnType<typeof statements>;
  #sweptAt = 0;

  constructor(db: PostgresDatabase) {
    this.#db = db;
    this.#sql = statements(db);
  }

  async claim(key: string, executionId: string, ttlMs: number): Promise<string> {
    try {
      await this.#sweep();
      for (let tries = 0; tries < CLAIM_TRIES; tries++) {
        // Binds a new key, or one whose window has passed; a live binding is left as it is.
        const bound = await this.#db.pool.query<{ execution_id: string }>(this.#sql.bind, [
          key,
          executionId,
          ttlMs,
        ]);
        if (bound.rows[0] !== undefined) return executionId;
        const held = await this.#db.pool.query<{ execution_id: string }>(this.#sql.holder, [key]);
        const holder = held.rows[0]?.execution_id;
        if (holder !== undefined) return holder;
      }
    } catch (error) {
      throw storeFailure(`cannot claim the idempotency key '${key}'`, error);
    }
    throw storeFailure(`cannot claim the idempotency key '${key}': it keeps changing`);
  }

  async release(key: string, executionId: string): Promise<void> {
    try {
      await this.#db.pool.query(this.#sql.release, [key, executionId]);
    } catch (error) {
      throw storeFailure(`cannot release the idempotency key '${key}'`, error);
    }
  }

  /** Expired bindings answer nothing; deleting them keeps the table at the keys of one window. */
  async #sweep(): Promise<void> {
    const now = Date.now();
    if (now - this.#sweptAt < SWEEP_EVERY_MS) return;
    this.#sweptAt = now;
    await this.#db.pool.query(this.#sql.sweep);
  }
}

function statements(db: PostgresDatabase) {
  const t = db.table('idempotency_keys');
  return {
    bind: `INSERT INTO ${t} AS k (key, execution_id, expires_at)
             VALUES ($1, $2, now() + $3 * interval '1 millisecond')
           ON CONFLICT (key) DO UPDATE
             SET execution_id = EXCLUDED.execution_id, expires_at = EXCLUDED.expires_at
             WHERE k.expires_at <= now()
           RETURNING execution_id`,
    holder: `SELECT execution_id FROM ${t} WHERE key = $1 AND expires_at > now()`,
    release: `DELETE FROM ${t} WHERE key = $1 AND execution_id = $2`,
    sweep: `DELETE FROM ${t} WHERE expires_at <= now()`,
  };
}
