// SQL_QUERY (optional plugin sql-query): one parameterised query per message against a
// PostgreSQL database, emitting `{ rows, rowCount }`. Each node keeps a small pool of its
// own for the run and closes it when the node ends.
import { userInfo } from 'node:os';
import pg from 'pg';
import { definePlugin, messageOf, StepFailure, z } from '../../../plugin-api/index.js';
import type { Emit, Message, MessageProcessor, NodeContext } from '../../../plugin-api/index.js';

/** Connections one node holds at most. */
const POOL_SIZE = 2;
/** Time to get a connection before the attempt fails (retryable). */
const CONNECT_TIMEOUT_MS = 10_000;
/** The `plugin` tag of `svc.plugin.events` for queries. */
export const QUERY_EVENT = 'sql.query';
/**
 * SQLSTATE classes and codes a later attempt may get past: connection exceptions, too many
 * connections, serialization failures and deadlocks, a server shutting down.
 */
const RETRYABLE_CLASSES = ['08', '53', '57P'];
const RETRYABLE_CODES = new Set(['40001', '40P01']);
/** In class 08 but the query's fault: e.g. a wrong number of parameters. */
const PROTOCOL_VIOLATION = '08P01';
const POSTGRES_URL = /^postgres(ql)?:\/\//i;
/** A secret or a placeholder: its value is known only when the node runs. */
const RESOLVED_LATER = /^decrypted:|\$\{/;

const configSchema = z.looseObject({
  url: z
    .string()
    .min(1)
    .refine((url) => POSTGRES_URL.test(url) || RESOLVED_LATER.test(url), {
      message: 'Must be a postgres:// URL',
    })
    .describe('PostgreSQL URL (postgres://user:password@host:port/database); may be a secret'),
  query: z.string().min(1).describe('SQL text with positional parameters ($1, $2, ...)'),
  params: z
    .array(z.unknown())
    .optional()
    .describe('Values of the positional parameters; without it an array payload gives them'),
});

type SqlQueryConfig = z.output<typeof configSchema>;

/** The emitted payload. */
export interface SqlQueryResult {
  readonly rows: readonly Readonly<Record<string, unknown>>[];
  /** Rows returned, or changed by INSERT, UPDATE and DELETE. */
  readonly rowCount: number;
}

export const sqlQueryPlugin = definePlugin({
  type: 'SQL_QUERY',
  kind: 'processor',
  description:
    'Runs a parameterised SQL query per message against PostgreSQL and emits { rows, rowCount }.',
  configSchema,
  outputPorts: () => ['out'],
  defaultTimeoutSeconds: 30,
  create: (config) => {
    // Placeholders and secrets are resolved by now, so the scheme can be checked for real.
    if (!POSTGRES_URL.test(config.url)) {
      return {
        process: () => {
          throw StepFailure.nonRetryable('SQL_QUERY needs a postgres:// URL');
        },
      };
    }
    return new SqlQuery(config);
  },
});

class SqlQuery implements MessageProcessor {
  readonly #config: SqlQueryConfig;
  #pool: pg.Pool | undefined;

  constructor(config: SqlQueryConfig) {
    this.#config = config;
  }

  async process(message: Message, ctx: NodeContext): Promise<Emit> {
    try {
      const payload = await this.#query(message, ctx.signal);
      ctx.report(QUERY_EVENT, 'completed');
      return { payload };
    } catch (error) {
      ctx.report(QUERY_EVENT, ctx.signal.aborted ? 'stopped' : 'failed');
      throw error;
    }
  }

  async close(): Promise<void> {
    const pool = this.#pool;
    this.#pool = undefined;
    await pool?.end().catch(() => undefined);
  }

  #poolOf(): pg.Pool {
    if (this.#pool !== undefined) return this.#pool;
    const url = new URL(this.#config.url);
    // As libpq does, a URL without a user connects as the operating-system user.
    if (url.username === '') url.username = userInfo().username;
    const pool = new pg.Pool({
      connectionString: url.toString(),
      max: POOL_SIZE,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    // An idle connection the server drops must not take the process down.
    pool.on('error', () => undefined);
    this.#pool = pool;
    return pool;
  }

  async #query(message: Message, signal: AbortSignal): Promise<SqlQueryResult> {
    signal.throwIfAborted();
    const values = paramsOf(this.#config, message);
    let client: pg.PoolClient;
    try {
      client = await this.#poolOf().connect();
    } catch (error) {
      throw failure('cannot connect to the database', error);
    }
    // A stopped node drops its connection: the server ends a query whose client is gone.
    let released = false;
    const release = (destroy: boolean): void => {
      if (released) return;
      released = true;
      client.release(destroy);
    };
    const drop = (): void => {
      release(true);
    };
    signal.addEventListener('abort', drop, { once: true });
    try {
      signal.throwIfAborted();
      const result = await client.query<Record<string, unknown>>(this.#config.query, [...values]);
      return { rows: result.rows.map(plainRow), rowCount: result.rowCount ?? result.rows.length };
    } catch (error) {
      if (signal.aborted) throw abortReason(signal);
      throw failure('query failed', error);
    } finally {
      signal.removeEventListener('abort', drop);
      release(false);
    }
  }
}

/**
 * `params` as given; without it an array payload, else no parameters. pg sends arrays as
 * PostgreSQL arrays, objects as JSON, byte arrays as bytea.
 */
function paramsOf(config: SqlQueryConfig, message: Message): readonly unknown[] {
  if (config.params !== undefined) return config.params;
  return Array.isArray(message.payload) ? message.payload : [];
}

/** Dates as ISO strings: a payload is JSON, and a checkpoint reads a date back as text. */
function plainRow(row: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
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
 * The database's own message and SQLSTATE; never the URL, which holds the password. A
 * connection problem or a conflict another attempt may get past is retryable, a wrong query
 * is not.
 */
function failure(what: string, error: unknown): StepFailure {
  const code = (error as { code?: unknown } | undefined)?.code;
  // SQLSTATE codes are five characters; Node's own codes (ECONNRESET, EPIPE) are not one.
  const sqlState =
    typeof code === 'string' && /^[0-9FHPX][0-9A-Z]{4}$/.test(code) ? code : undefined;
  const reason = messageOf(error);
  const text = `SQL query: ${what}: ${reason}${sqlState === undefined ? '' : ` (SQLSTATE ${sqlState})`}`;
  const retryable =
    sqlState === undefined ||
    RETRYABLE_CODES.has(sqlState) ||
    (sqlState !== PROTOCOL_VIOLATION &&
      RETRYABLE_CLASSES.some((prefix) => sqlState.startsWith(prefix)));
  return retryable ? StepFailure.retryable(text, error) : StepFailure.nonRetryable(text, error);
}

function abortReason(signal: AbortSignal): unknown {
  const reason: unknown = signal.reason;
  return reason instanceof Error && !(reason instanceof DOMException)
    ? reason
    : StepFailure.retryable('SQL query was stopped');
}
