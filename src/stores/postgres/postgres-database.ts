// The relational database of the relational stores (build switch svc.persistence=postgres):
// at start-up the migrations run with the account of `svc.db.migration-url`, then one pool of
// the least-privilege account of `svc.db.url` serves every store. The stores share the pool
// and never close it; whoever opened the database closes it after them.
import { userInfo } from 'node:os';
import pg from 'pg';
import { AppError } from '../../core/index.js';
import { MigrationProblem, SCHEMA_VERSION, migrate } from './migrations.js';
import { driverMessageOf } from './pg-errors.js';

export interface PostgresDatabaseOptions {
  /** `svc.db.url`: the run-time account, which needs no right to change the schema. */
  readonly url: string;
  /** `svc.db.migration-url`: the account that creates and changes the schema. */
  readonly migrationUrl: string;
  /** `svc.db.schema`: a plain lower-case identifier. */
  readonly schema: string;
  /** `svc.db.pool-size`. */
  readonly poolSize?: number;
  /** Time to wait for a connection before a statement fails. */
  readonly connectTimeoutMs?: number;
  /** A pooled connection failed while idle (a database restart); the pool replaces it. */
  readonly onIdleError?: (error: Error) => void;
  /** Something the operator should know, e.g. a run-time account that may change the schema. */
  readonly onWarning?: (message: string) => void;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
const APPLICATION_NAME = 'workflow-service';

/** What `open()` found and did. */
export interface DatabaseReport {
  readonly migrated: readonly number[];
  readonly schemaVersion: number;
  readonly runtimeRole: string;
  readonly migrationRole: string;
}

export class PostgresDatabase {
  readonly schema: string;
  readonly #options: PostgresDatabaseOptions;
  readonly #quotedSchema: string;
  #pool: pg.Pool | undefined;
  #opening: Promise<DatabaseReport> | undefined;

  constructor(options: PostgresDatabaseOptions) {
    if (!SCHEMA_NAME.test(options.schema)) {
      throw new AppError('SETTINGS_INVALID', {
        params: { detail: `svc.db.schema '${options.schema}' is not a plain lower-case name` },
      });
    }
    this.#options = options;
    this.schema = options.schema;
    this.#quotedSchema = `"${options.schema}"`;
  }

  /** A table of the schema, qualified, so that no search_path can put another in its place. */
  table(name: string): string {
    return `${this.#quotedSchema}."${name}"`;
  }

  /** The run-time pool; only after `open()`. */
  get pool(): pg.Pool {
    if (this.#pool === undefined) {
      throw new AppError('STORE_FAILED', {
        params: { detail: `the relational database (schema '${this.schema}') is not open` },
      });
    }
    return this.#pool;
  }

  /**
   * A pool of its own on `svc.db.url`, for statements that must not wait behind the stores'
   * (the leader lease): a statement that takes longer than `timeoutMs` fails and its connection
   * is dropped, so a database that stopped answering holds up no later statement. The caller
   * ends it.
   */
  separatePool(size: number, timeoutMs: number): pg.Pool {
    const pool = new pg.Pool({
      ...connection(this.#options.url, this.#options.connectTimeoutMs),
      max: size,
      query_timeout: timeoutMs,
      statement_timeout: timeoutMs,
    });
    pool.on('error', (error) => {
      this.#options.onIdleError?.(error);
    });
    return pool;
  }

  /**
   * SPEC Errors, process-level failures: the server does not start when the database cannot be
   * reached or a migration fails. Connects as the run-time account, migrates as the migration
   * account (granting the run-time one its rights), then checks the run-time account can read
   * the schema.
   */
  open(): Promise<DatabaseReport> {
    this.#opening ??= this.#open().catch(async (error: unknown) => {
      this.#opening = undefined;
      await this.close();
      throw error;
    });
    return this.#opening;
  }

  async #open(): Promise<DatabaseReport> {
    const pool = new pg.Pool({
      ...connection(this.#options.url, this.#options.connectTimeoutMs),
      max: this.#options.poolSize ?? 10,
    });
    // Without a listener, an idle connection the server closes would end the process.
    pool.on('error', (error) => {
      this.#options.onIdleError?.(error);
    });
    this.#pool = pool;
    let runtimeRole: string;
    try {
      const result = await pool.query<{ role: string }>('SELECT current_user AS role');
      runtimeRole = result.rows[0]?.role ?? '';
    } catch (error) {
      throw setupFailed(`cannot connect with svc.db.url: ${driverMessageOf(error)}`, error);
    }
    const migration = await this.#migrate(runtimeRole);
    let schemaVersion: number;
    try {
      const result = await pool.query<{ version: number | null }>(
        `SELECT max(version) AS version FROM ${this.table('schema_version')}`,
      );
      schemaVersion = result.rows[0]?.version ?? 0;
    } catch (error) {
      throw setupFailed(
        `the run-time account '${runtimeRole}' of svc.db.url cannot read schema '${this.schema}': ${driverMessageOf(error)}`,
        error,
      );
    }
    await this.#checkLeastPrivilege(pool, runtimeRole);
    return {
      migrated: migration.applied,
      schemaVersion,
      runtimeRole,
      migrationRole: migration.owner,
    };
  }

  async #migrate(runtimeRole: string): Promise<{ applied: readonly number[]; owner: string }> {
    const client = new pg.Client(
      connection(this.#options.migrationUrl, this.#options.connectTimeoutMs),
    );
    // An error of an idle client is thrown by its next statement; the listener keeps it from
    // ending the process in between.
    client.on('error', () => undefined);
    try {
      await client.connect();
    } catch (error) {
      await client.end().catch(() => undefined);
      throw setupFailed(
        `cannot connect with svc.db.migration-url: ${driverMessageOf(error)}`,
        error,
      );
    }
    try {
      return await migrate(client, this.schema, runtimeRole);
    } catch (error) {
      const role = await currentUser(client);
      const detail =
        error instanceof MigrationProblem
          ? error.message
          : `schema migration to version ${SCHEMA_VERSION} failed: ${driverMessageOf(error)}`;
      throw setupFailed(
        `${detail} (svc.db.migration-url${role === undefined ? '' : `, account '${role}'`}; it must be able to create and change schema '${this.schema}')`,
        error,
      );
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  /** A run-time account that may change the schema works, but is worth a word to the operator. */
  async #checkLeastPrivilege(pool: pg.Pool, runtimeRole: string): Promise<void> {
    const warn = this.#options.onWarning;
    if (warn === undefined) return;
    try {
      const result = await pool.query<{ mighty: boolean }>(
        `SELECT r.rolsuper OR has_schema_privilege($1, 'CREATE') OR n.nspowner = r.oid AS mighty
           FROM pg_roles r, pg_namespace n
          WHERE r.rolname = current_user AND n.nspname = $1`,
        [this.schema],
      );
      if (result.rows[0]?.mighty === true) {
        warn(
          `svc.db.url connects as '${runtimeRole}', which may change schema '${this.schema}'; a run-time account with only the rights the migration grants is safer (docs/postgres.md)`,
        );
      }
    } catch {
      // Only advice: a catalogue the account cannot read does not stop the start.
    }
  }

  /**
   * Runs `work` in one transaction on one connection. With `synchronousCommit: false` the
   * commit does not wait for the write-ahead log to reach the disk; a later synchronous
   * commit on the same database makes it durable too, since the log is written in order.
   */
  async transaction<T>(
    work: (client: pg.PoolClient) => Promise<T>,
    options: { readonly synchronousCommit?: boolean } = {},
  ): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query(
        options.synchronousCommit === false
          ? 'BEGIN; SET LOCAL synchronous_commit TO OFF'
          : 'BEGIN',
      );
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch (rollback) {
        // A connection that cannot roll back is not handed to anyone else.
        broken = rollback instanceof Error ? rollback : new Error(String(rollback));
      }
      throw error;
    } finally {
      client.release(broken);
    }
  }

  /**
   * Ends the pool once its connections are idle, waiting at most `timeoutMs` for statements
   * under way: a database that stopped answering must not keep the server from stopping.
   */
  async close(timeoutMs = 5_000): Promise<void> {
    const pool = this.#pool;
    this.#pool = undefined;
    this.#opening = undefined;
    if (pool === undefined) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
      timer.unref();
    });
    await Promise.race([pool.end().catch(() => undefined), timeout]);
    clearTimeout(timer);
  }
}

/** As libpq does, a URL without a user connects as PGUSER, else the operating-system user. */
function connection(url: string, connectTimeoutMs = 10_000): pg.ClientConfig {
  const parsed = new URL(url);
  if (parsed.username === '' && (process.env.PGUSER ?? '') === '') {
    parsed.username = userInfo().username;
  }
  return {
    connectionString: parsed.toString(),
    connectionTimeoutMillis: connectTimeoutMs,
    application_name: APPLICATION_NAME,
    keepAlive: true,
  };
}

async function currentUser(client: pg.Client): Promise<string | undefined> {
  try {
    const result = await client.query<{ role: string }>('SELECT current_user AS role');
    return result.rows[0]?.role;
  } catch {
    return undefined;
  }
}

function setupFailed(detail: string, cause: unknown): AppError {
  return new AppError('DATABASE_SETUP_FAILED', { params: { detail }, cause });
}
