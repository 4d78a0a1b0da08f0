// SQL_QUERY on MySQL and MariaDB, through mysql2 with server-side prepared statements (`?`
// parameters). Stopping a query takes more than dropping its connection, which these servers
// notice only when they next write to it: the node also asks the server to kill the query.
import mysql from 'mysql2/promise';
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
 * Server error numbers a later attempt may get past: too many connections, server shutdown,
 * network read and write errors, lock wait timeout, deadlock, connection killed (MariaDB).
 */
const RETRYABLE_ERRNOS = new Set([1040, 1053, 1158, 1159, 1160, 1161, 1205, 1213, 1927]);
/** SQLSTATE of a connection exception, and of a serialization failure. */
const RETRYABLE_STATES = /^(08|40001)/;

type Row = Readonly<Record<string, unknown>>;

export class MysqlDriver extends PooledDriver<mysql.Pool> {
  query(sql: string, values: readonly unknown[], signal: AbortSignal): Promise<SqlQueryResult> {
    const pool = this.pool;
    return onPooledConnection<mysql.PoolConnection>({
      signal,
      acquire: () => pool.getConnection(),
      run: async (connection) => {
        const [result] = await connection.execute(sql, values.map(parameterOf));
        return Array.isArray(result)
          ? { rows: (result as Row[]).map(plainRow), rowCount: result.length }
          : { rows: [], rowCount: (result as mysql.ResultSetHeader).affectedRows };
      },
      release: (connection, destroy) => {
        if (destroy) connection.destroy();
        else connection.release();
      },
      // On a connection of its own: the one running the query is busy until it ends.
      stopped: (connection) => {
        pool.query(`KILL QUERY ${String(connection.threadId)}`).catch(() => undefined);
      },
      failure,
    });
  }

  protected createPool(): mysql.Pool {
    const url = new URL(this.url);
    // mysql2 reads mysql:// only; mariadb:// names the same protocol.
    url.protocol = 'mysql:';
    const pool = mysql.createPool({
      uri: url.toString(),
      connectionLimit: POOL_SIZE,
      connectTimeout: CONNECT_TIMEOUT_MS,
      // DATETIME carries no zone: read and written as UTC, as the ISO strings of a payload are.
      timezone: 'Z',
      // Numbers as numbers while they are exact; larger BIGINTs as strings, as pg gives them.
      supportBigNumbers: true,
      // One statement per query: a parameter can never smuggle a second one in.
      multipleStatements: false,
    });
    // An idle connection the server drops must not take the process down.
    pool.on('connection', (connection) => {
      connection.on('error', () => undefined);
    });
    return pool;
  }
}

/**
 * A payload is JSON: objects and arrays go as JSON text, as a JSON column takes them; an
 * absent value as NULL (a prepared statement refuses `undefined`).
 */
function parameterOf(value: unknown): mysql.ExecuteValues {
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'bigint':
      return value;
    case 'object':
      if (value === null || value instanceof Uint8Array) return value;
      return JSON.stringify(value);
    case 'undefined':
    case 'function':
    case 'symbol':
      return null;
  }
}

/** Connection problems and conflicts another attempt may get past are retryable. */
function failure(what: string, error: unknown): ReturnType<typeof sqlFailure> {
  const { errno, sqlState, code } = (error ?? {}) as {
    errno?: unknown;
    sqlState?: unknown;
    code?: unknown;
  };
  const serverError = typeof sqlState === 'string' && typeof errno === 'number';
  const retryable = serverError
    ? RETRYABLE_ERRNOS.has(errno) || RETRYABLE_STATES.test(sqlState)
    : true;
  const codes = serverError ? [String(code), `SQLSTATE ${sqlState}`] : [];
  return sqlFailure(what, error, codes, retryable);
}
