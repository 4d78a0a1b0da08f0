// The relational stores on the real PostgreSQL of SVC_TEST_DB_URL: the shared conformance suites
// of every session, checkpoint and execution log adapter, and what only the database adds
// (migrations, least privilege, damaged rows, batched writes). CONTRACT 6: skipped with the
// reason only when no database answers and CI is not set.
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '../src/core/index.js';
import type { NodeRecorder } from '../src/engine/index.js';
import {
  describeCheckpointStoreConformance,
  recordedMessage,
} from '../src/stores/checkpoints/checkpoint-store.conformance.js';
import {
  describeSessionStoreConformance,
  sessionRecord,
  workflowRecord,
} from '../src/stores/conformance/session-store.conformance.js';
import {
  describeExecutionLogStoreConformance,
  runStarted,
} from '../src/stores/execution-log/execution-log-store.conformance.js';
import { describeIdempotencyStoreConformance } from '../src/stores/idempotency/idempotency-store.conformance.js';
import { describeDeadLetterStoreConformance } from '../src/stores/dead-letters/dead-letter-store.conformance.js';
import {
  MIGRATIONS,
  PostgresCheckpointStore,
  PostgresDatabase,
  PostgresDeadLetterStore,
  PostgresExecutionLog,
  PostgresIdempotencyStore,
  PostgresSessionStore,
  SCHEMA_VERSION,
} from '../src/stores/index.js';
import { TEST_DB_URL, postgresUnavailable, testDbClient } from './support/postgres.js';
import { eventually } from './support/wait.js';
import {
  asAdmin,
  createRole,
  createTestSchema,
  dropSchema,
  uniqueName,
} from './support/postgres-schemas.js';
import type { TestSchema } from './support/postgres-schemas.js';

const unavailable = await postgresUnavailable();

const CHECKPOINT_TABLES = [
  'checkpoint_executions',
  'checkpoint_nodes',
  'checkpoint_messages',
  'checkpoint_approvals',
];

describe.skipIf(unavailable !== undefined)(
  `relational stores on PostgreSQL${unavailable === undefined ? '' : ` (skipped: ${unavailable})`}`,
  () => {
    let schema: TestSchema;

    beforeAll(async () => {
      schema = await createTestSchema();
    });

    afterAll(async () => {
      await schema.drop();
    });

    describeSessionStoreConformance('postgres', async () => {
      await schema.truncate('sessions');
      return {
        store: new PostgresSessionStore(schema.db),
        reopen: () => Promise.resolve(new PostgresSessionStore(schema.db)),
        cleanup: () => Promise.resolve(),
      };
    });

    describeCheckpointStoreConformance('postgres', async () => {
      await schema.truncate(...CHECKPOINT_TABLES);
      return {
        store: new PostgresCheckpointStore(schema.db),
        reopen: () => Promise.resolve(new PostgresCheckpointStore(schema.db)),
        unsavablePayloads: [1, 2n, 3],
        // A crash in the middle of a round: its transaction never commits.
        tear: (executionId) =>
          asAdmin(async (client) => {
            await client.query('BEGIN');
            await client.query(
              `INSERT INTO ${schema.table('checkpoint_messages')}
                 (execution_id, node_id, seq, message_id, port, payload, bytes)
               VALUES ($1, 'done', 99, 'torn', 'out', '"torn"', 6)`,
              [executionId],
            );
            await client.query(
              `INSERT INTO ${schema.table('checkpoint_approvals')} (execution_id, answer)
               VALUES ($1, '{"nodeId":"wait","messageId":"torn","approved":true}')`,
              [executionId],
            );
          }),
        cleanup: () => Promise.resolve(),
      };
    });

    describeDeadLetterStoreConformance('postgres', async () => {
      await schema.truncate('dead_letters');
      return {
        store: new PostgresDeadLetterStore(schema.db),
        reopen: () => Promise.resolve(new PostgresDeadLetterStore(schema.db)),
        cleanup: () => Promise.resolve(),
      };
    });

    describeIdempotencyStoreConformance('postgres', async () => {
      await schema.truncate('idempotency_keys');
      return {
        // Two servers of a pair: each has a store of its own on the one table.
        store: new PostgresIdempotencyStore(schema.db),
        other: new PostgresIdempotencyStore(schema.db),
        // Windows are the database's clock: real time has to pass.
        pass: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
        cleanup: () => Promise.resolve(),
      };
    });

    describeExecutionLogStoreConformance('postgres', async () => {
      // TRUNCATE waits for an insert a held write of the last test let go of.
      await schema.truncate('execution_log');
      const log = schema.table('execution_log');
      return {
        create: (onAppendFailed) => new PostgresExecutionLog({ db: schema.db, onAppendFailed }),
        // A lock that conflicts with inserts holds the next batch inside the database.
        holdNextWrite: async () => {
          const client = testDbClient();
          await client.connect();
          await client.query('BEGIN');
          await client.query(`LOCK TABLE ${log} IN EXCLUSIVE MODE`);
          return {
            blocked: () =>
              vi.waitFor(
                async () => {
                  const waiting = await client.query<{ n: number }>(
                    'SELECT count(*)::integer AS n FROM pg_locks WHERE relation = $1::regclass AND NOT granted',
                    [log],
                  );
                  expect(waiting.rows[0]?.n).toBeGreaterThan(0);
                },
                { timeout: 5000, interval: 20 },
              ),
            release: async () => {
              await client.query('COMMIT');
              await client.end();
            },
          };
        },
        breakWrites: async () => {
          await asAdmin((client) =>
            client.query(`ALTER TABLE ${log} ADD CONSTRAINT broken CHECK (false) NOT VALID`),
          );
          return () =>
            asAdmin(async (client) => {
              await client.query(`ALTER TABLE ${log} DROP CONSTRAINT broken`);
            });
        },
        cleanup: () => Promise.resolve(),
      };
    });

    describe('PostgresSessionStore', () => {
      afterEach(async () => {
        await schema.truncate('sessions');
      });

      it('is of kind postgres and rejects calls with STORE_FAILED before open() and after close()', async () => {
        const store = new PostgresSessionStore(schema.db);
        expect(store.kind).toBe('postgres');
        await expect(store.listSessions()).rejects.toMatchObject({ code: 'STORE_FAILED' });
        await expect(store.putSession(sessionRecord('s1'))).rejects.toMatchObject({
          code: 'STORE_FAILED',
        });
        await store.open();
        await store.putSession(sessionRecord('s1'));
        await store.close();
        await expect(store.getSession('s1')).rejects.toMatchObject({ code: 'STORE_FAILED' });
        await store.open();
        expect(await store.getSession('s1')).toEqual(sessionRecord('s1'));
        await store.close();
      });

      it('keeps a session, its workflow and every saved version as rows', async () => {
        const store = new PostgresSessionStore(schema.db);
        await store.open();
        await store.putSession(sessionRecord('s1'));
        await store.putWorkflow(workflowRecord('s1', 'w1', 3));
        await store.close();
        const rows = await asAdmin(async (client) => {
          const versions = await client.query<{ version: number; definition: string }>(
            `SELECT version, definition FROM ${schema.table('workflow_versions')} ORDER BY version`,
          );
          return versions.rows;
        });
        expect(rows.map((row) => row.version)).toEqual([1, 2, 3]);
        expect(JSON.parse(rows[2]?.definition ?? '')).toEqual(
          workflowRecord('s1', 'w1', 3).versions[2]?.definition,
        );
      });

      it('fails a read naming the table and row when a saved version is damaged', async () => {
        const store = new PostgresSessionStore(schema.db);
        await store.open();
        await store.putSession(sessionRecord('s1'));
        await store.putWorkflow(workflowRecord('s1', 'w1', 2));
        await asAdmin((client) =>
          client.query(
            `UPDATE ${schema.table('workflow_versions')} SET definition = '{"workflowId":' WHERE version = 2`,
          ),
        );
        const failure: unknown = await store
          .getWorkflow('s1', 'w1')
          .catch((error: unknown) => error);
        expect(failure).toBeInstanceOf(AppError);
        expect(failure).toMatchObject({ code: 'STORE_ROW_DAMAGED' });
        expect((failure as AppError).message).toBe(
          "Stored row of table workflow_versions (session 's1', workflow 'w1', version 2) is damaged: the definition is not valid JSON",
        );
        await store.close();
      });

      it('fails a read naming the table and row when a layout is damaged', async () => {
        const store = new PostgresSessionStore(schema.db);
        await store.open();
        await store.putSession(sessionRecord('s1'));
        await store.putWorkflow({ ...workflowRecord('s1', 'w1'), layout: { in: { x: 1, y: 2 } } });
        const readFailure = async (layout: string): Promise<string> => {
          await asAdmin((client) =>
            client.query(`UPDATE ${schema.table('workflows')} SET layout = $1`, [layout]),
          );
          const failure: unknown = await store
            .getWorkflow('s1', 'w1')
            .catch((error: unknown) => error);
          expect(failure).toMatchObject({ code: 'STORE_ROW_DAMAGED' });
          return (failure as AppError).message;
        };
        const where = "Stored row of table workflows (session 's1', workflow 'w1') is damaged";
        expect(await readFailure('{"in":')).toBe(`${where}: the layout is not valid JSON`);
        expect(await readFailure('{"in":{"x":"1","y":2}}')).toBe(
          `${where}: layout.in.x must be a finite number`,
        );
        await store.close();
      });

      it('answers STORE_FAILED naming the session when the database refuses a write', async () => {
        const store = new PostgresSessionStore(schema.db);
        await store.open();
        // PostgreSQL text cannot hold the NUL character.
        await expect(store.putSession(sessionRecord('nul\u0000'))).rejects.toMatchObject({
          code: 'STORE_FAILED',
          message: expect.stringContaining("cannot save session 'nul"),
        });
        await store.close();
      });
    });

    describe('PostgresCheckpointStore', () => {
      let store: PostgresCheckpointStore;

      afterEach(async () => {
        vi.restoreAllMocks();
        await store.close();
        await schema.truncate(...CHECKPOINT_TABLES);
      });

      async function openStore(): Promise<PostgresCheckpointStore> {
        store = new PostgresCheckpointStore(schema.db);
        await store.open();
        return store;
      }

      /** Every statement the pool's connections are sent while `work` runs. */
      async function statementsDuring(work: () => Promise<void>): Promise<string[]> {
        const sent: string[] = [];
        const original = Reflect.get(pg.Client.prototype, 'query') as (
          ...args: unknown[]
        ) => unknown;
        const query = vi.spyOn(pg.Client.prototype, 'query');
        query.mockImplementation(function (this: pg.Client, ...args: unknown[]) {
          const [text] = args;
          sent.push(typeof text === 'string' ? text : String((text as { text?: unknown }).text));
          return Reflect.apply(original, this, args) as never;
        });
        try {
          await work();
        } finally {
          query.mockRestore();
        }
        return sent;
      }

      it('is a durable store of kind postgres (SPEC Recover conditions)', async () => {
        await openStore();
        expect(store.kind).toBe('postgres');
        expect(store.durable).toBe(true);
      });

      it('writes many messages of a node in a few multi-row inserts, not one statement each', async () => {
        await openStore();
        const statements = await statementsDuring(async () => {
          const recorder = store.writer('e1').node('node');
          for (let index = 0; index < 5000; index++) {
            void recorder.record(recordedMessage(`m${index}`, { index, text: 'x'.repeat(40) }));
          }
          await recorder.end();
        });
        const inserts = statements.filter(
          (text) => text.includes('checkpoint_messages') && text.includes('INSERT'),
        );
        expect(inserts.length).toBeGreaterThan(0);
        expect(inserts.length).toBeLessThanOrEqual(3);
        expect(statements.filter((text) => text === 'COMMIT').length).toBeLessThanOrEqual(3);
        expect((await store.summary('e1'))?.[0]).toMatchObject({ messages: 5000, complete: true });
      });

      it('commits a round without an end marker without waiting for the disk, and a marker round durably', async () => {
        await openStore();
        const recorder = store.writer('e1').node('node');
        const statements = await statementsDuring(async () => {
          // Over one batch: a round starts without a marker waiting.
          for (let index = 0; index < 3000; index++) {
            void recorder.record(recordedMessage(`m${index}`, 'y'.repeat(100)));
          }
          // The pump takes that batch before the close below asks for a durable round.
          await new Promise<void>((resolve) => setImmediate(resolve));
          await store.writer('e1').close();
        });
        const begins = statements.filter((text) => text.startsWith('BEGIN'));
        expect(begins.length).toBeGreaterThanOrEqual(2);
        expect(begins[0]).toBe('BEGIN; SET LOCAL synchronous_commit TO OFF');
        expect(begins.at(-1)).toBe('BEGIN');
      });

      it('makes a recording node wait once 4 MiB wait to be written, and lets it go on after (back-pressure)', async () => {
        await openStore();
        const recorder: NodeRecorder = store.writer('e1').node('node');
        const payload = 'z'.repeat(64 * 1024);
        let waited: Promise<void> | undefined;
        let recorded = 0;
        while (waited === undefined && recorded < 200) {
          waited = recorder.record(recordedMessage(`m${recorded}`, payload)) ?? undefined;
          recorded++;
        }
        expect(waited).toBeInstanceOf(Promise);
        expect(recorded * payload.length).toBeGreaterThanOrEqual(4 * 1024 * 1024);
        await waited;
        await recorder.end();
        expect((await store.summary('e1'))?.[0]).toMatchObject({
          messages: recorded,
          complete: true,
        });
      });

      it('rejects the end marker and every later one once a round fails, leaving the node unmarked (SPEC Checkpoint)', async () => {
        await openStore();
        const writer = store.writer('e1');
        const first = writer.node('first');
        void first.record(recordedMessage('m1', 1));
        await first.end();
        const second = writer.node('second');
        void second.record(recordedMessage('m2', 2));
        await asAdmin((client) =>
          client.query(
            `ALTER TABLE ${schema.table('checkpoint_messages')} ADD CONSTRAINT broken CHECK (false) NOT VALID`,
          ),
        );
        try {
          await expect(second.end()).rejects.toMatchObject({ code: 'STORE_FAILED' });
        } finally {
          await asAdmin((client) =>
            client.query(
              `ALTER TABLE ${schema.table('checkpoint_messages')} DROP CONSTRAINT broken`,
            ),
          );
        }
        const third = writer.node('third');
        await expect(Promise.resolve().then(() => third.end())).rejects.toMatchObject({
          code: 'STORE_FAILED',
        });
        const summary = await store.summary('e1');
        expect(summary?.map((node) => [node.nodeId, node.complete])).toEqual([['first', true]]);
      });

      it('fails a read naming the table and row when a recorded message is damaged', async () => {
        await openStore();
        const recorder = store.writer('e1').node('node');
        void recorder.record(recordedMessage('m1', { ok: true }));
        await recorder.end();
        await asAdmin((client) =>
          client.query(`UPDATE ${schema.table('checkpoint_messages')} SET payload = '{'`),
        );
        await expect(store.output('e1', 'node')).rejects.toMatchObject({
          code: 'STORE_ROW_DAMAGED',
          message:
            "Stored row of table checkpoint_messages (execution 'e1', node 'node', seq 0) is damaged: the payload is not valid JSON",
        });
      });

      it('counts the bytes held by executions written before it opened (svc.checkpoint.bytes)', async () => {
        await openStore();
        const recorder = store.writer('e1').node('node');
        for (let index = 0; index < 10; index++)
          void recorder.record(recordedMessage(`m${index}`, index));
        await recorder.end();
        const bytes = store.bytes;
        await store.close();
        const reopened = await openStore();
        expect(reopened.bytes).toBe(bytes);
        expect((await reopened.summary('e1'))?.[0]?.bytes).toBe(bytes);
      });
    });

    describe('PostgresExecutionLog', () => {
      it('refuses to open a log with a damaged row, naming it', async () => {
        await schema.truncate('execution_log');
        await asAdmin((client) =>
          client.query(
            `INSERT INTO ${schema.table('execution_log')} (type, event) VALUES ('run.started', 'garbage')`,
          ),
        );
        const log = new PostgresExecutionLog({ db: schema.db, onAppendFailed: () => undefined });
        await expect(log.open()).rejects.toMatchObject({
          code: 'STORE_ROW_DAMAGED',
          message: 'Stored row of table execution_log (seq 1) is damaged: not valid JSON',
        });
        await schema.truncate('execution_log');
      });

      it('keeps each event with its type and execution id in columns of its own', async () => {
        await schema.truncate('execution_log');
        const log = new PostgresExecutionLog({ db: schema.db, onAppendFailed: () => undefined });
        await log.open();
        log.append(runStarted('e1'));
        log.append({ type: 'limits', at: 1, limits: { maxConcurrent: 1 } });
        await log.close(5000);
        const rows = await asAdmin(
          async (client) =>
            (
              await client.query<{ type: string; execution_id: string | null }>(
                `SELECT type, execution_id FROM ${schema.table('execution_log')} ORDER BY seq`,
              )
            ).rows,
        );
        expect(rows).toEqual([
          { type: 'run.started', execution_id: 'e1' },
          { type: 'limits', execution_id: null },
        ]);
        await schema.truncate('execution_log');
      });
    });
  },
);

describe.skipIf(unavailable !== undefined)(
  `schema migrations on PostgreSQL${unavailable === undefined ? '' : ` (skipped: ${unavailable})`}`,
  () => {
    const cleanups: (() => Promise<void>)[] = [];

    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    function database(options: { url?: string; migrationUrl?: string; schema?: string } = {}) {
      const name = options.schema ?? uniqueName();
      const db = new PostgresDatabase({
        url: options.url ?? TEST_DB_URL,
        migrationUrl: options.migrationUrl ?? TEST_DB_URL,
        schema: name,
        poolSize: 2,
      });
      cleanups.push(() => dropSchema(name, db));
      return { db, name };
    }

    async function schemaExists(name: string): Promise<boolean> {
      return asAdmin(async (client) => {
        const found = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [name]);
        return found.rowCount === 1;
      });
    }

    it('creates the schema, applies every migration in order and records each version', async () => {
      const { db, name } = database();
      const report = await db.open();
      const every = MIGRATIONS.map((migration) => migration.version);
      expect(report.migrated).toEqual(every);
      expect(report.schemaVersion).toBe(SCHEMA_VERSION);
      const versions = await asAdmin(
        async (client) =>
          (
            await client.query<{ version: number }>(
              `SELECT version FROM ${name}.schema_version ORDER BY version`,
            )
          ).rows,
      );
      expect(versions).toEqual(every.map((version) => ({ version })));
    });

    it('applies nothing to a schema that is up to date', async () => {
      const { db, name } = database();
      await db.open();
      await db.close();
      const again = database({ schema: name }).db;
      expect((await again.open()).migrated).toEqual([]);
    });

    it('lets one of two servers starting together migrate, the other finding it done (advisory lock)', async () => {
      const name = uniqueName();
      const reports = await Promise.all([
        database({ schema: name }).db.open(),
        database({ schema: name }).db.open(),
      ]);
      expect(reports.map((report) => report.migrated).sort()).toEqual([
        [],
        MIGRATIONS.map((migration) => migration.version),
      ]);
    });

    it('refuses a schema newer than this server knows', async () => {
      const { db, name } = database();
      await db.open();
      await db.close();
      await asAdmin((client) =>
        client.query(`INSERT INTO ${name}.schema_version (version, name) VALUES (999, 'future')`),
      );
      await expect(database({ schema: name }).db.open()).rejects.toMatchObject({
        code: 'DATABASE_SETUP_FAILED',
        message: expect.stringContaining(
          `schema '${name}' is at version 999, newer than the ${SCHEMA_VERSION} this server knows`,
        ),
      });
    });

    it('grants the run-time account rights on rows only: it works with the stores and cannot change the schema (least privilege)', async () => {
      const role = await createRole();
      cleanups.push(role.drop);
      const { db, name } = database({ url: role.url });
      const report = await db.open();
      expect(report.runtimeRole).toBe(role.name);
      const store = new PostgresSessionStore(db);
      await store.open();
      await store.putSession(sessionRecord('s1'));
      await store.putWorkflow(workflowRecord('s1', 'w1', 2));
      expect(await store.getWorkflow('s1', 'w1')).toEqual(workflowRecord('s1', 'w1', 2));
      await store.close();
      await expect(db.pool.query(`CREATE TABLE ${name}.intruder (x int)`)).rejects.toThrow(
        /permission denied/,
      );
      await expect(
        db.pool.query(`INSERT INTO ${name}.schema_version (version, name) VALUES (2, 'x')`),
      ).rejects.toThrow(/permission denied/);
    });

    it('closes every connection of its pool on close (graceful shutdown)', async () => {
      const role = await createRole();
      cleanups.push(role.drop);
      const { db } = database({ url: role.url });
      await db.open();
      await Promise.all([db.pool.query('SELECT pg_sleep(0.05)'), db.pool.query('SELECT 1')]);
      const connections = () =>
        asAdmin(async (client) => {
          const found = await client.query<{ n: number }>(
            'SELECT count(*)::integer AS n FROM pg_stat_activity WHERE usename = $1',
            [role.name],
          );
          return found.rows[0]?.n ?? 0;
        });
      expect(await connections()).toBe(2);
      await db.close();
      expect(await eventually(connections, (count) => count === 0)).toBe(0);
    });

    it('warns when the run-time account may change the schema', async () => {
      const warnings: string[] = [];
      const name = uniqueName();
      const db = new PostgresDatabase({
        url: TEST_DB_URL,
        migrationUrl: TEST_DB_URL,
        schema: name,
        onWarning: (warning) => warnings.push(warning),
      });
      cleanups.push(() => dropSchema(name, db));
      await db.open();
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/svc\.db\.url connects as '.+', which may change schema/);
    });

    it('fails with DATABASE_SETUP_FAILED and leaves nothing behind when the migration account cannot change the schema (SPEC Errors)', async () => {
      const role = await createRole();
      cleanups.push(role.drop);
      const { db, name } = database({ migrationUrl: role.url });
      const failure: unknown = await db.open().catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(AppError);
      expect(failure).toMatchObject({ code: 'DATABASE_SETUP_FAILED' });
      expect((failure as AppError).message).toBe(
        `The relational database cannot be prepared: schema migration to version ${SCHEMA_VERSION} failed: permission denied for database test (svc.db.migration-url, account '${role.name}'; it must be able to create and change schema '${name}')`,
      );
      expect(await schemaExists(name)).toBe(false);
      expect(() => db.pool).toThrow(/not open/);
    });

    it('fails naming the setting when a URL does not answer', async () => {
      const nowhere = 'postgres://user@127.0.0.1:1/none';
      await expect(database({ migrationUrl: nowhere }).db.open()).rejects.toMatchObject({
        code: 'DATABASE_SETUP_FAILED',
        message: expect.stringMatching(
          /^The relational database cannot be prepared: cannot connect with svc\.db\.migration-url: .*ECONNREFUSED/,
        ),
      });
      await expect(database({ url: nowhere }).db.open()).rejects.toMatchObject({
        code: 'DATABASE_SETUP_FAILED',
        message: expect.stringMatching(/cannot connect with svc\.db\.url: .*ECONNREFUSED/),
      });
    });
  },
);
