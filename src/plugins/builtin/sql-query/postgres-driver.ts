// SQL_QUERY on PostgreSQL, through pg. A stopped node drops its connection: the server ends a
// query whose client is gone.
import { userInfo } from 'node:os';
import pg from 'pg';
import {
  CONNECT_TIMEOUT_MS,
  onPooledConnection,
  PooledDriver,
  plainRow,
  POOL_SIZE,
  sqlFailure,
} from './sql-driver.js';
import type { SqlQueryResult } from './sql-driver.js';

/**
 * SQLSTATE classes and codes a later attempt may get past: connection exceptions, too many
 * connections, serialization failures and deadlocks, a server shutting down.
 */
const RETRYABLE_CLASSES = ['08', '53', '57P'];
const RETRYABLE_CODES = new Set(['40001', '40P01']);
/** In class 08 but the query's fault: e.g. a wrong number of parameters. */
const PROTOCOL_VIOLATION = '08P01';

export class PostgresDriver extends PooledDriver<pg.Pool> {
  query(sql: string, values: readonly unknown[], signal: AbortSignal): Promise<SqlQueryResult> {
    return onPooledConnection<pg.PoolClient>({
      signal,
      acquire: () => this.pool.connect(),
      // pg sends arrays as PostgreSQL arrays, objects as JSON, byte arrays as bytea.
      run: async (client) => {
        const result = await client.query<Record<string, unknown>>(sql, [...values]);
        return { rows: result.rows.map(plainRow), rowCount: result.rowCount ?? result.rows.length };
      },
      release: (client, destroy) => {
        client.release(destroy);
      },
      failure,
    });
  }

  protected createPool(): pg.Pool {
    const url = new URL(this.url);
    // As libpq does, a URL without a user connects as the operating-system user.
    if (url.username === '') url.username = userInfo().username;
    const pool = new pg.Pool({
      connectionString: url.toString(),
      max: POOL_SIZE,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    // An idle connection the server drops must not take the process down.
    pool.on('error', () => undefined);
    return pool;
  }
}

/**
 * A connection problem or a conflict another attempt may get past is retryable, a wrong query
 * is not.
 */
function failure(what: string, error: unknown): ReturnType<typeof sqlFailure> {
  const code = (error as { code?: unknown } | undefined)?.code;
  // SQLSTATE codes are five characters; Node's own codes (ECONNRESET, EPIPE) are not one.
  const sqlState =
    typeof code === 'string' && /^[0-9FHPX][0-9A-Z]{4}$/.test(code) ? code : undefined;
  const retryable =
    sqlState === undefined ||
    RETRYABLE_CODES.has(sqlState) ||
    (sqlState !== PROTOCOL_VIOLATION &&
      RETRYABLE_CLASSES.some((prefix) => sqlState.startsWith(prefix)));
  return sqlFailure(what, error, sqlState === undefined ? [] : [`SQLSTATE ${sqlState}`], retryable);
}
