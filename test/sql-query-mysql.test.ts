// SQL_QUERY against the real MySQL or MariaDB of SVC_TEST_MYSQL_URL (the `dialect` key):
// skipped with the reason only when no database answers and CI is not set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StepFailure } from '../src/plugin-api/index.js';
import type { MessageProcessor } from '../src/plugin-api/index.js';
import { sqlQueryPlugin } from '../src/plugins/builtin/sql-query/sql-query.js';
import { createTestContext, message, processAll } from '../src/plugins/testing/index.js';
import { mysqlUnavailable, TEST_MYSQL_URL, testMysqlConnection } from './support/mariadb.js';
import { startTestServer } from './support/server.js';
import { sqlLookupThroughServer } from './support/sql-workflow.js';
import { eventually } from './support/wait.js';

const unavailable = await mysqlUnavailable();
const TABLE = `sql_query_test_${process.pid}`;

function runtimeOf(config: Record<string, unknown>): MessageProcessor {
  const parsed = sqlQueryPlugin.configSchema.parse({ url: TEST_MYSQL_URL, ...config });
  return sqlQueryPlugin.create!(parsed, { nodeId: 'sql', settings: undefined }) as MessageProcessor;
}

async function fixture<T>(
  work: (db: Awaited<ReturnType<typeof testMysqlConnection>>) => Promise<T>,
): Promise<T> {
  const db = await testMysqlConnection();
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}

async function closed<T>(runtime: MessageProcessor, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } finally {
    await runtime.close?.();
  }
}

/** Queries of the test's sleep that the server is running. */
async function sleepingQueries(): Promise<number> {
  return fixture(async (db) => {
    const [rows] = await db.query(
      "select count(*) as n from information_schema.processlist where info = 'select sleep(30)'",
    );
    return (rows as { n: number }[])[0]?.n ?? 0;
  });
}

describe.skipIf(unavailable !== undefined)(
  `SQL_QUERY on MySQL/MariaDB${unavailable === undefined ? '' : ` (skipped: ${unavailable})`}`,
  () => {
    beforeAll(async () => {
      await fixture(async (db) => {
        await db.query(
          `create table ${TABLE} (id int primary key, name text, doc json, at datetime(3))`,
        );
        await db.query(
          `insert into ${TABLE} values (1, 'one', '{"a":1}', '2026-01-02 03:04:05'), (2, 'two', null, null)`,
        );
      });
    });

    afterAll(async () => {
      await fixture((db) => db.query(`drop table if exists ${TABLE}`));
    });

    it('runs the query once per message with ? parameters and emits { rows, rowCount }', async () => {
      const runtime = runtimeOf({
        query: `select id, name, at from ${TABLE} where id = ?`,
        params: [1],
      });
      const ctx = createTestContext();
      const emitted = await closed(runtime, () =>
        processAll(runtime, [message({}), message({})], ctx),
      );
      const expected = {
        rows: [{ id: 1, name: 'one', at: '2026-01-02T03:04:05.000Z' }],
        rowCount: 1,
      };
      expect(emitted).toEqual([{ payload: expected }, { payload: expected }]);
      expect(ctx.reports).toEqual(['sql.query:completed', 'sql.query:completed']);
    });

    it('takes the parameters from an array payload, and counts a count as a number', async () => {
      const runtime = runtimeOf({
        query: `select count(*) as n from ${TABLE} where id in (?, ?)`,
        dialect: 'mariadb',
      });
      const [emitted] = await closed(runtime, () => processAll(runtime, [message([1, 2])]));
      expect(emitted?.payload).toEqual({ rows: [{ n: 2 }], rowCount: 1 });
    });

    it('reports the rows an insert changed, and sends an object parameter as JSON text', async () => {
      const runtime = runtimeOf({ query: `insert into ${TABLE} (id, name, doc) values (?, ?, ?)` });
      const [emitted] = await closed(runtime, () =>
        processAll(runtime, [message([3, 'three', { nested: [true] }])]),
      );
      expect(emitted?.payload).toEqual({ rows: [], rowCount: 1 });
      const check = runtimeOf({
        query: `select json_type(json_extract(doc, '$.nested[0]')) as first from ${TABLE} where id = 3`,
      });
      const [row] = await closed(check, () => processAll(check, [message(null)]));
      expect(row?.payload).toEqual({ rows: [{ first: 'BOOLEAN' }], rowCount: 1 });
    });

    it('fails a wrong query without retry, with the server error and SQLSTATE and no password', async () => {
      const url = new URL(TEST_MYSQL_URL);
      url.password = 'not-shown';
      const runtime = runtimeOf({ query: 'select * from missing_table' });
      const ctx = createTestContext();
      const failing = closed(runtime, () => processAll(runtime, [message({})], ctx));
      await expect(failing).rejects.toThrow(
        /^SQL query: query failed: Table '.*missing_table' doesn't exist \(ER_NO_SUCH_TABLE, SQLSTATE 42S02\)$/,
      );
      await expect(failing).rejects.toHaveProperty('retryable', false);
      expect(ctx.reports).toEqual(['sql.query:failed']);
      const denied = runtimeOf({ url: url.toString(), query: 'select 1' });
      const refused = closed(denied, () => processAll(denied, [message({})]));
      await expect(refused).rejects.toThrow(
        /^SQL query: cannot connect to the database: Access denied/,
      );
      await expect(refused).rejects.not.toThrow(/not-shown/);
    });

    it('fails as retryable when the database cannot be reached', async () => {
      const runtime = runtimeOf({ url: 'mysql://user:secret@127.0.0.1:1/none', query: 'select 1' });
      const failing = closed(runtime, () => processAll(runtime, [message({})]));
      await expect(failing).rejects.toThrow(
        /^SQL query: cannot connect to the database: .*ECONNREFUSED/,
      );
      await expect(failing).rejects.toBeInstanceOf(StepFailure);
      await expect(failing).rejects.toHaveProperty('retryable', true);
      await expect(failing).rejects.not.toThrow(/secret/);
    });

    it('ends the query on the server when the node is stopped', async () => {
      const runtime = runtimeOf({ query: 'select sleep(30)' });
      const ctx = createTestContext();
      const started = Date.now();
      const failing = closed(runtime, () => processAll(runtime, [message({})], ctx));
      await eventually(sleepingQueries, (running) => running > 0);
      ctx.abort(new Error('stopped by the operator'));
      await expect(failing).rejects.toThrow('stopped by the operator');
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(ctx.reports).toEqual(['sql.query:stopped']);
      await eventually(sleepingQueries, (running) => running === 0);
    });

    it('runs in a workflow with its URL given as a secret, and the rows reach the terminal', async () => {
      const payloads = await sqlLookupThroughServer(
        TEST_MYSQL_URL,
        { dialect: 'mysql', query: `select name from ${TABLE} where id = ?` },
        [2],
      );
      expect(payloads).toEqual([{ rows: [{ name: 'two' }], rowCount: 1 }]);
    });

    it('refuses a dialect that does not fit the URL when the workflow is validated', async () => {
      const server = await startTestServer();
      try {
        const answer = await server.call('POST', '/api/sessions/validate', {
          body: {
            workflowId: 'wrong',
            description: 'wrong dialect',
            nodes: [
              { nodeId: 'in', type: 'API_TRIGGER' },
              {
                nodeId: 'sql',
                type: 'SQL_QUERY',
                config: { url: TEST_MYSQL_URL, dialect: 'postgres', query: 'select 1' },
              },
            ],
            edges: [{ source: 'in', target: 'sql' }],
          },
        });
        expect(answer.text).toContain('Must be a postgres:// URL');
      } finally {
        await server.close();
      }
    });
  },
);

describe('MySQL/MariaDB tests', () => {
  const nowhere = 'mysql://root@127.0.0.1:1/none';

  it('are skipped with the reason when no database answers and CI is not set', async () => {
    await expect(mysqlUnavailable(nowhere, '')).resolves.toMatch(
      /^no MySQL or MariaDB answers at SVC_TEST_MYSQL_URL \(.*ECONNREFUSED.*\); start one, see the README$/,
    );
  });

  it('fail when no database answers and CI is set', async () => {
    await expect(mysqlUnavailable(nowhere, 'true')).rejects.toThrow(
      /^no MySQL or MariaDB answers at SVC_TEST_MYSQL_URL/,
    );
  });
});
