// SESSION_MEMORY histories in the relational database (the `postgres` profile): a row per
// entry, kept across restarts and shared by the servers of a high-availability pair. With
// `svc.session-memory.ttl` entries older than it are deleted and never read (SPEC Limits: the
// history is unbounded unless stored in the relational database with that setting).
import type { SessionMemory } from '../../plugin-api/index.js';
import { rowDamaged, storeFailure } from './pg-errors.js';
import type { PostgresDatabase } from './postgres-database.js';

export interface PostgresSessionMemoryOptions {
  readonly db: PostgresDatabase;
  /** `svc.session-memory.ttl` in milliseconds; null keeps entries for good. */
  readonly ttlMs: number | null;
}

export class PostgresSessionMemory implements SessionMemory {
  readonly #db: PostgresDatabase;
  readonly #ttlMs: number | null;
  readonly #table: string;

  constructor(options: PostgresSessionMemoryOptions) {
    this.#db = options.db;
    this.#ttlMs = options.ttlMs;
    this.#table = options.db.table('session_memory');
  }

  async append(
    sessionId: string,
    key: string,
    entry: unknown,
    maxEntries?: number,
  ): Promise<number> {
    const json = (JSON.stringify as (value: unknown) => string | undefined)(entry) ?? 'null';
    const t = this.#table;
    try {
      return await this.#db.transaction(async (client) => {
        await this.#expire(client);
        await client.query(`INSERT INTO ${t} (session_id, key, entry) VALUES ($1, $2, $3)`, [
          sessionId,
          key,
          json,
        ]);
        if (maxEntries !== undefined) {
          // Everything older than the newest maxEntries goes.
          await client.query(
            `DELETE FROM ${t} WHERE session_id = $1 AND key = $2 AND seq <= (
               SELECT seq FROM ${t} WHERE session_id = $1 AND key = $2
               ORDER BY seq DESC OFFSET $3 LIMIT 1)`,
            [sessionId, key, maxEntries],
          );
        }
        const counted = await client.query<{ count: string }>(
          `SELECT count(*) AS count FROM ${t} WHERE session_id = $1 AND key = $2`,
          [sessionId, key],
        );
        return Number(counted.rows[0]?.count ?? 0);
      });
    } catch (error) {
      throw storeFailure(`cannot append to the session memory '${key}' of '${sessionId}'`, error);
    }
  }

  async read(sessionId: string, key: string, last?: number): Promise<readonly unknown[]> {
    const t = this.#table;
    let rows: { seq: string; entry: string }[];
    try {
      rows = (
        await this.#db.pool.query<{ seq: string; entry: string }>(
          `SELECT seq, entry FROM (
             SELECT seq, entry FROM ${t}
             WHERE session_id = $1 AND key = $2
               AND ($3::bigint IS NULL OR written_at > now() - $3::bigint * interval '1 millisecond')
             ORDER BY seq DESC LIMIT $4) newest
           ORDER BY seq`,
          [sessionId, key, this.#ttlMs, last ?? null],
        )
      ).rows;
    } catch (error) {
      throw storeFailure(`cannot read the session memory '${key}' of '${sessionId}'`, error);
    }
    return rows.map((row) => {
      try {
        return JSON.parse(row.entry) as unknown;
      } catch (error) {
        throw rowDamaged(`of table session_memory (seq ${row.seq})`, 'not valid JSON', error);
      }
    });
  }

  async clear(sessionId: string, key: string): Promise<number> {
    try {
      const deleted = await this.#db.pool.query(
        `DELETE FROM ${this.#table} WHERE session_id = $1 AND key = $2`,
        [sessionId, key],
      );
      return deleted.rowCount ?? 0;
    } catch (error) {
      throw storeFailure(`cannot clear the session memory '${key}' of '${sessionId}'`, error);
    }
  }

  /** A session's histories go with its row (ON DELETE CASCADE): nothing is left to do. */
  dropSession(): void {
    return undefined;
  }

  /** Deletes every entry that outlived svc.session-memory.ttl, of any history. */
  async #expire(client: {
    query: (text: string, values: unknown[]) => Promise<unknown>;
  }): Promise<void> {
    if (this.#ttlMs === null) return;
    await client.query(
      `DELETE FROM ${this.#table} WHERE written_at <= now() - $1::bigint * interval '1 millisecond'`,
      [this.#ttlMs],
    );
  }
}
