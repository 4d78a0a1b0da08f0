// SQL_QUERY against the real PostgreSQL of SVC_TEST_DB_URL (CONTRACT 1: url, query, params;
// CONTRACT 6: skipped with the reason only when no database answers and CI is not set).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StepFailure } from '../src/plugin-api/index.js';
import type { MessageProcessor } from '../src/plugin-api/index.js';
import { sqlQueryPlugin } from '../src/plugins/builtin/sql-query/sql-query.js';
import { createTestContext, message, processAll } from '../src/plugins/testing/index.js';
import { TEST_DB_URL, postgresUnavailable, testDbClient } from './support/postgres.js';
import { sqlLookupThroughServer } from './support/sql-workflow.js';
import { eventually } from './support/wait.js';

const unavailable = await postgresUnavailable();
const TABLE = `sql_query_test_${process.pid}`;

function runtimeOf(config: Record<string, unknown>): MessageProcessor {
  const parsed = sqlQueryPlugin.configSchema.parse({ url: TEST_DB_URL, ...config });
  const setup = { nodeId: 'sql', settings: undefined };
  return sqlQueryPlugin.create!(parsed, setup) as MessageProcessor;
}

/** Waits until the database runs the `pg_sleep(30)` query of a test. */
async function sleepingQueryUnderWay(): Promise<void> {
  const client = testDbClient();
  await client.connect();
  try {
    await eventually(
      async () =>
        (
          await client.query<{ n: number }>(
            "select count(*)::integer as n from pg_stat_activity where query = 'select pg_sleep(30)'",
          )
        ).rows[0]?.n ?? 0,
      (running) => running > 0,
    );
  } finally {
    await client.end();
  }
}

async function closed<T>(runtime: MessageProcessor, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } finally {
    await runtime.close?.();
  }
}

describe.skipIf(unavailable !== undefined)(
  `SQL_QUERY on PostgreSQL${unavailable === undefined ? '' : ` (skipped: ${unavailable})`}`,
  () => {
    beforeAll(async () => {
      const client = testDbClient();
      await client.connect();
      await client.query(
        `create table ${TABLE} (id int primary key, name text, doc jsonb, at timestamptz)`,
      );
      await client.query(
        `insert into ${TABLE} values (1, 'one', '{"a":1}', '2026-01-02T03:04:05Z'), (2, 'two', null, null)`,
      );
      await client.end();
    });

    afterAll(async () => {
      const client = testDbClient();
      await client.connect();
      await client.query(`drop table if exists ${TABLE}`);
      await client.end();
    });

    it('runs the query once per message with the configured params and emits { rows, rowCount }', async () => {
      const runtime = runtimeOf({
        query: `select id, name, doc, at from ${TABLE} where id = $1`,
        params: [1],
      });
      const ctx = createTestContext();
      const emitted = await closed(runtime, () =>
        processAll(runtime, [message({}), message({})], ctx),
      );
      const expected = {
        rows: [{ id: 1, name: 'one', doc: { a: 1 }, at: '2026-01-02T03:04:05.000Z' }],
        rowCount: 1,
      };
      expect(emitted).toEqual([{ payload: expected }, { payload: expected }]);
      expect(ctx.reports).toEqual(['sql.query:completed', 'sql.query:completed']);
    });

    it('takes the parameters from an array payload when no params are set', async () => {
      const runtime = runtimeOf({
        query: `select name from ${TABLE} where id = any($1::int[]) order by id`,
      });
      const [emitted] = await closed(runtime, () => processAll(runtime, [message([[1, 2]])]));
      expect(emitted?.payload).toEqual({ rows: [{ name: 'one' }, { name: 'two' }], rowCount: 2 });
    });

    it('reports the rows an insert changed, and sends an object parameter as JSON', async () => {
      const runtime = runtimeOf({
        query: `insert into ${TABLE} (id, name, doc) values ($1, $2, $3)`,
      });
      const [emitted] = await closed(runtime, () =>
        processAll(runtime, [message([3, 'three', { nested: [true] }])]),
      );
      expect(emitted?.payload).toEqual({ rows: [], rowCount: 1 });
      const check = runtimeOf({ query: `select doc from ${TABLE} where id = 3` });
      const [row] = await closed(check, () => processAll(check, [message(null)]));
      expect(row?.payload).toEqual({ rows: [{ doc: { nested: [true] } }], rowCount: 1 });
    });

    it('fails a wrong query without retry, with the database message and SQLSTATE and no password', async () => {
      const url = new URL(TEST_DB_URL);
      url.password = 'not-shown';
      const runtime = runtimeOf({ url: url.toString(), query: `select * from missing_table` });
      const ctx = createTestContext();
      const failing = closed(runtime, () => processAll(runtime, [message({})], ctx));
      await expect(failing).rejects.toThrow(
        'SQL query: query failed: relation "missing_table" does not exist (SQLSTATE 42P01)',
      );
      await expect(failing).rejects.toHaveProperty('retryable', false);
      await expect(failing).rejects.not.toThrow(/not-shown/);
      expect(ctx.reports).toEqual(['sql.query:failed']);
    });

    it('fails as retryable when the database cannot be reached', async () => {
      const runtime = runtimeOf({
        url: 'postgres://user:secret@127.0.0.1:1/none',
        query: 'select 1',
      });
      const failing = closed(runtime, () => processAll(runtime, [message({})]));
      await expect(failing).rejects.toThrow(
        /^SQL query: cannot connect to the database: .*ECONNREFUSED/,
      );
      await expect(failing).rejects.toBeInstanceOf(StepFailure);
      await expect(failing).rejects.toHaveProperty('retryable', true);
      await expect(failing).rejects.not.toThrow(/secret/);
    });

    it('drops the connection of a query under way when the node is stopped', async () => {
      const runtime = runtimeOf({ query: 'select pg_sleep(30)' });
      const ctx = createTestContext();
      const started = Date.now();
      const failing = closed(runtime, () => processAll(runtime, [message({})], ctx));
      await sleepingQueryUnderWay();
      ctx.abort(new Error('stopped by the operator'));
      await expect(failing).rejects.toThrow('stopped by the operator');
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(ctx.reports).toEqual(['sql.query:stopped']);
    });

    it('runs in a workflow with its URL given as a secret, and the rows reach the terminal', async () => {
      const payloads = await sqlLookupThroughServer(
        TEST_DB_URL,
        { query: `select name from ${TABLE} where id = $1` },
        [2],
      );
      expect(payloads).toEqual([{ rows: [{ name: 'two' }], rowCount: 1 }]);
    });
  },
);

describe('SQL_QUERY configuration', () => {
  const check = (config: Record<string, unknown>) =>
    sqlQueryPlugin.configSchema.safeParse({ query: 'select 1', ...config }).success;

  it('takes a postgres://, mysql:// or mariadb:// url, a secret or a placeholder when the workflow is validated', () => {
    expect(check({ url: 'postgres://localhost/db' })).toBe(true);
    expect(check({ url: 'postgresql://u@localhost:5432/db' })).toBe(true);
    expect(check({ url: 'mysql://root@localhost/db' })).toBe(true);
    expect(check({ url: 'mariadb://root@localhost/db' })).toBe(true);
    expect(check({ url: 'decrypted:orders.db' })).toBe(true);
    expect(check({ url: '${env.ORDERS_DB}' })).toBe(true);
    expect(check({ url: 'sqlite://orders.db' })).toBe(false);
  });

  it('refuses a url whose scheme is not that of the dialect', () => {
    expect(check({ url: 'mysql://localhost/db', dialect: 'postgres' })).toBe(false);
    expect(check({ url: 'postgres://localhost/db', dialect: 'mysql' })).toBe(false);
    expect(check({ url: 'mysql://localhost/db', dialect: 'mariadb' })).toBe(true);
    expect(check({ url: 'mariadb://localhost/db', dialect: 'mysql' })).toBe(true);
    expect(check({ url: 'decrypted:orders.db', dialect: 'mysql' })).toBe(true);
    expect(check({ url: 'mysql://localhost/db', dialect: 'oracle' })).toBe(false);
  });
});

describe('PostgreSQL tests (CONTRACT 6: npm test)', () => {
  const nowhere = 'postgres://user@127.0.0.1:1/none';

  it('are skipped with the reason when no database answers and CI is not set', async () => {
    await expect(postgresUnavailable(nowhere, '')).resolves.toMatch(
      /^no PostgreSQL answers at SVC_TEST_DB_URL \(.*ECONNREFUSED.*\); start one, see the README$/,
    );
  });

  it('fail when no database answers and CI is set', async () => {
    await expect(postgresUnavailable(nowhere, 'true')).rejects.toThrow(
      /^no PostgreSQL answers at SVC_TEST_DB_URL/,
    );
  });
});
