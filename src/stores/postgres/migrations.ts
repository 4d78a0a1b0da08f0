// The schema of the relational stores, as numbered migrations applied in order and recorded in
// `schema_version`. A migration is never edited once released: a change is a new migration.
// JSON is kept as text, not jsonb: it reads back exactly as written (jsonb reorders keys and
// refuses the \u0000 escape a payload may hold), and the server never queries inside it.
import type pg from 'pg';
import { messageOf } from '../../core/index.js';

export interface Migration {
  readonly version: number;
  readonly name: string;
  /** The statements, for a schema name already quoted. */
  readonly sql: (schema: string) => string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'sessions, workflow versions, checkpoints and the execution log',
    sql: (s) => `
      CREATE TABLE ${s}.sessions (
        session_id text PRIMARY KEY,
        name text NOT NULL,
        initiator text NOT NULL,
        description text NOT NULL,
        created_at text NOT NULL,
        updated_at text NOT NULL
      );
      CREATE TABLE ${s}.workflows (
        session_id text NOT NULL REFERENCES ${s}.sessions ON DELETE CASCADE,
        workflow_id text NOT NULL,
        created_at text NOT NULL,
        PRIMARY KEY (session_id, workflow_id)
      );
      CREATE TABLE ${s}.workflow_versions (
        session_id text NOT NULL,
        workflow_id text NOT NULL,
        version integer NOT NULL,
        created_at text NOT NULL,
        author text NOT NULL,
        note text,
        definition text NOT NULL,
        PRIMARY KEY (session_id, workflow_id, version),
        FOREIGN KEY (session_id, workflow_id) REFERENCES ${s}.workflows ON DELETE CASCADE
      );
      CREATE TABLE ${s}.checkpoint_executions (
        execution_id text PRIMARY KEY,
        created_at timestamptz NOT NULL DEFAULT now(),
        -- The sum of its messages' bytes, kept so that a start need not read every message.
        bytes bigint NOT NULL DEFAULT 0
      );
      CREATE TABLE ${s}.checkpoint_nodes (
        execution_id text NOT NULL REFERENCES ${s}.checkpoint_executions ON DELETE CASCADE,
        node_id text NOT NULL,
        position bigint GENERATED ALWAYS AS IDENTITY,
        complete boolean NOT NULL DEFAULT false,
        PRIMARY KEY (execution_id, node_id)
      );
      -- No foreign key: a reference check per recorded message would cost more than the
      -- insert itself. The store deletes the messages of an execution with its nodes.
      CREATE TABLE ${s}.checkpoint_messages (
        execution_id text NOT NULL,
        node_id text NOT NULL,
        seq integer NOT NULL,
        message_id text NOT NULL,
        port text NOT NULL,
        headers text,
        payload text,
        payload_bytes bytea,
        bytes integer NOT NULL,
        PRIMARY KEY (execution_id, node_id, seq)
      );
      CREATE TABLE ${s}.checkpoint_approvals (
        execution_id text NOT NULL REFERENCES ${s}.checkpoint_executions ON DELETE CASCADE,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        answer text NOT NULL,
        PRIMARY KEY (execution_id, seq)
      );
      CREATE TABLE ${s}.execution_log (
        seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        type text NOT NULL,
        execution_id text,
        event text NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: 'the leader lease of high availability',
    // One row, always there, so that taking the lease is one UPDATE whichever server comes
    // first. `epoch` grows with every take: writes of the execution log carry the holder and
    // epoch they were made under, and a server whose lease was taken can no longer match them.
    sql: (s) => `
      CREATE TABLE ${s}.leader_lease (
        name text PRIMARY KEY,
        holder text,
        epoch bigint NOT NULL DEFAULT 0,
        acquired_at timestamptz,
        expires_at timestamptz NOT NULL DEFAULT '-infinity'
      );
      INSERT INTO ${s}.leader_lease (name) VALUES ('leader');
    `,
  },
  {
    version: 3,
    name: 'SESSION_MEMORY histories',
    // A history goes with its session; entries older than svc.session-memory.ttl are deleted
    // by the store, by their time of writing.
    sql: (s) => `
      CREATE TABLE ${s}.session_memory (
        session_id text NOT NULL REFERENCES ${s}.sessions ON DELETE CASCADE,
        key text NOT NULL,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        entry text NOT NULL,
        written_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (session_id, key, seq)
      );
      CREATE INDEX session_memory_written ON ${s}.session_memory (written_at);
    `,
  },
  {
    version: 4,
    name: 'idempotency keys of starts',
    // A key is bound to the execution its first start made until `expires_at` (the database's
    // clock); the servers of a high-availability pair share the bindings.
    sql: (s) => `
      CREATE TABLE ${s}.idempotency_keys (
        key text PRIMARY KEY,
        execution_id text NOT NULL,
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX idempotency_keys_expiry ON ${s}.idempotency_keys (expires_at);
    `,
  },
  {
    version: 5,
    name: 'always-on workflows',
    sql: (s) => `ALTER TABLE ${s}.workflows ADD COLUMN active boolean NOT NULL DEFAULT false;`,
  },
  {
    version: 6,
    name: 'dead letters',
    // The letter is kept whole as JSON text; the columns beside it are what lists filter and
    // order on (docs/dead-letters.md). Letters go with their execution's checkpoints.
    sql: (s) => `
      CREATE TABLE ${s}.dead_letters (
        id text PRIMARY KEY,
        execution_id text NOT NULL,
        session_id text NOT NULL,
        workflow_id text NOT NULL,
        node_id text NOT NULL,
        created_at text NOT NULL,
        letter text NOT NULL
      );
      CREATE INDEX dead_letters_order ON ${s}.dead_letters (created_at DESC, id DESC);
      CREATE INDEX dead_letters_execution ON ${s}.dead_letters (execution_id);
    `,
  },
  {
    version: 7,
    name: 'workflow layouts',
    // The editor's node positions, as JSON text; null while the workflow has none.
    sql: (s) => `ALTER TABLE ${s}.workflows ADD COLUMN layout text;`,
  },
];

export const SCHEMA_VERSION = Math.max(...MIGRATIONS.map((migration) => migration.version));

/** The first key of the advisory lock migrations hold; the second is the schema's hash. */
const MIGRATION_LOCK = 0x5f737663;

export interface MigrationResult {
  /** Versions applied by this call, oldest first. */
  readonly applied: readonly number[];
  /** The account that ran the migrations and owns what they made. */
  readonly owner: string;
}

/** Thrown for a failure the operator has to act on; the caller adds what it was doing. */
export class MigrationProblem extends Error {
  override readonly name = 'MigrationProblem';
}

/**
 * Brings `schema` to the newest version in one transaction, so a failure leaves it as it was,
 * and grants the run-time account what the stores use and nothing more. An advisory lock
 * makes servers starting together migrate one after the other; the later one finds nothing
 * left to do.
 */
export async function migrate(
  client: pg.ClientBase,
  schema: string,
  runtimeRole: string,
): Promise<MigrationResult> {
  const s = client.escapeIdentifier(schema);
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [MIGRATION_LOCK, schema]);
    // CREATE SCHEMA checks the right to create schemas even when the schema exists, so an
    // account given a schema made for it by an administrator must not ask.
    const existing = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
    if (existing.rowCount === 0) await client.query(`CREATE SCHEMA ${s}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${s}.schema_version (
         version integer PRIMARY KEY,
         name text NOT NULL,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const done = await client.query<{ version: number }>(
      `SELECT version FROM ${s}.schema_version ORDER BY version`,
    );
    const known = new Set(done.rows.map((row) => row.version));
    const newest = Math.max(0, ...known);
    if (newest > SCHEMA_VERSION) {
      throw new MigrationProblem(
        `schema '${schema}' is at version ${newest}, newer than the ${SCHEMA_VERSION} this server knows; start a server of that version or newer`,
      );
    }
    const applied: number[] = [];
    for (const migration of MIGRATIONS) {
      if (known.has(migration.version)) continue;
      try {
        await client.query(migration.sql(s));
      } catch (error) {
        throw new MigrationProblem(
          `migration ${migration.version} (${migration.name}) failed: ${messageOf(error)}`,
          { cause: error },
        );
      }
      await client.query(`INSERT INTO ${s}.schema_version (version, name) VALUES ($1, $2)`, [
        migration.version,
        migration.name,
      ]);
      applied.push(migration.version);
    }
    const owner = (await client.query<{ owner: string }>('SELECT current_user AS owner')).rows[0]
      ?.owner;
    if (owner === undefined) throw new MigrationProblem('the database did not name the account');
    if (owner !== runtimeRole) await grantRuntime(client, s, client.escapeIdentifier(runtimeRole));
    await client.query('COMMIT');
    return { applied, owner };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/**
 * Least privilege (SPEC Errors, process-level failures): the run-time account reads and writes
 * rows and may read the schema version; it cannot change the schema. Granted on every start,
 * so tables of a new migration are covered.
 */
async function grantRuntime(client: pg.ClientBase, s: string, role: string): Promise<void> {
  await client.query(`
    GRANT USAGE ON SCHEMA ${s} TO ${role};
    GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${s} TO ${role};
    REVOKE INSERT, UPDATE, DELETE ON ${s}.schema_version FROM ${role};
    GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${s} TO ${role};
  `);
}
