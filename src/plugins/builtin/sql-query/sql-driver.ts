// What SQL_QUERY asks of a database client: one parameterised query at a time, stopped with
// the node, and a failure that says whether another attempt may get past it. One driver per
// dialect, each with a small pool of its own for the node's run.
import { messageOf, StepFailure } from '../../../plugin-api/index.js';

/** The emitted payload. */
export interface SqlQueryResult {
  readonly rows: readonly Readonly<Record<string, unknown>>[];
  /** Rows returned, or changed by INSERT, UPDATE and DELETE. */
  readonly rowCount: number;
}

export interface SqlDriver {
  /** Runs `sql` with `values`; a stop of the node ends the query on the server too. */
  query(sql: string, values: readonly unknown[], signal: AbortSignal): Promise<SqlQueryResult>;
  close(): Promise<void>;
}

/** A driver over a pool made on the first query and ended with the node. */
export abstract class PooledDriver<TPool extends { end(): Promise<void> }> implements SqlDriver {
  protected readonly url: string;
  #pool: TPool | undefined;

  constructor(url: string) {
    this.url = url;
  }

  abstract query(
    sql: string,
    values: readonly unknown[],
    signal: AbortSignal,
  ): Promise<SqlQueryResult>;

  async close(): Promise<void> {
    const pool = this.#pool;
    this.#pool = undefined;
    await pool?.end().catch(() => undefined);
  }

  protected get pool(): TPool {
    this.#pool ??= this.createPool();
    return this.#pool;
  }

  protected abstract createPool(): TPool;
}

/** Connections one node holds at most. */
export const POOL_SIZE = 2;
/** Time to get a connection before the attempt fails (retryable). */
export const CONNECT_TIMEOUT_MS = 10_000;

/** Dates as ISO strings: a payload is JSON, and a checkpoint reads a date back as text. */
export function plainRow(
  row: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> {
  let copy: Record<string, unknown> | undefined;
  for (const [column, value] of Object.entries(row)) {
    if (value instanceof Date) {
      copy ??= { ...row };
      copy[column] = Number.isNaN(value.getTime()) ? null : value.toISOString();
    }
  }
  return copy ?? row;
}

/**
 * The database's own message and codes; never the URL, which holds the password. `codes` are
 * the error's identifiers as the database names them (SQLSTATE, error name).
 */
export function sqlFailure(
  what: string,
  error: unknown,
  codes: readonly string[],
  retryable: boolean,
): StepFailure {
  const text = `SQL query: ${what}: ${messageOf(error)}${codes.length === 0 ? '' : ` (${codes.join(', ')})`}`;
  return retryable ? StepFailure.retryable(text, error) : StepFailure.nonRetryable(text, error);
}

/** How a driver gets, runs on and gives back one connection of its pool. */
export interface PooledQuery<TConnection> {
  readonly signal: AbortSignal;
  acquire(): Promise<TConnection>;
  run(connection: TConnection): Promise<SqlQueryResult>;
  /** Back to the pool, or closed for good when `destroy`. */
  release(connection: TConnection, destroy: boolean): void;
  /** The node stopped while the query runs; the connection is closed for good after it. */
  stopped?(connection: TConnection): void;
  failure(what: string, error: unknown): StepFailure;
}

/**
 * One query on one pooled connection: failures to connect and of the query told apart, and a
 * stop of the node dropping the connection at once, so the query does not hold the node.
 */
export async function onPooledConnection<TConnection>(
  query: PooledQuery<TConnection>,
): Promise<SqlQueryResult> {
  const { signal } = query;
  signal.throwIfAborted();
  let connection: TConnection;
  try {
    connection = await query.acquire();
  } catch (error) {
    throw query.failure('cannot connect to the database', error);
  }
  let released = false;
  const release = (destroy: boolean): void => {
    if (released) return;
    released = true;
    query.release(connection, destroy);
  };
  const stop = (): void => {
    query.stopped?.(connection);
    release(true);
  };
  signal.addEventListener('abort', stop, { once: true });
  try {
    signal.throwIfAborted();
    return await query.run(connection);
  } catch (error) {
    if (signal.aborted) throw abortReason(signal);
    throw query.failure('query failed', error);
  } finally {
    signal.removeEventListener('abort', stop);
    release(false);
  }
}

/** The reason a stopped query fails with: the stop's own error where it gave one. */
function abortReason(signal: AbortSignal): unknown {
  const reason: unknown = signal.reason;
  return reason instanceof Error && !(reason instanceof DOMException)
    ? reason
    : StepFailure.retryable('SQL query was stopped');
}
