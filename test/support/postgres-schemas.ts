// A schema of its own for each test file that uses the relational stores, so that files running
// in parallel on the one test database never see each other's rows; dropped afterwards.
import { randomBytes } from 'node:crypto';
import { PostgresDatabase } from '../../src/stores/index.js';
import { TEST_DB_URL, testDbClient } from './postgres.js';

/** A fresh schema name: `svc_test_<pid>_<random>`. */
export function uniqueName(prefix = 'svc_test'): string {
  return `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

/** Runs statements as the test database's own (administrator) account. */
export async function asAdmin<T>(
  work: (client: ReturnType<typeof testDbClient>) => Promise<T>,
): Promise<T> {
  const client = testDbClient();
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export interface TestSchema {
  readonly name: string;
  /** Open, migrated, with both URLs the test database's account. */
  readonly db: PostgresDatabase;
  /** `<schema>.<table>`, for statements of the tests themselves. */
  table(name: string): string;
  /** Empties the given tables, waiting for statements under way on them. */
  truncate(...tables: string[]): Promise<void>;
  /** Closes the database and drops the schema. */
  drop(): Promise<void>;
}

export async function createTestSchema(): Promise<TestSchema> {
  const name = uniqueName();
  const db = new PostgresDatabase({
    url: TEST_DB_URL,
    migrationUrl: TEST_DB_URL,
    schema: name,
    poolSize: 4,
  });
  await db.open();
  return {
    name,
    db,
    table: (table) => `${name}.${table}`,
    truncate: (...tables) =>
      asAdmin(async (client) => {
        await client.query(
          `TRUNCATE ${tables.map((table) => `${name}.${table}`).join(', ')} RESTART IDENTITY CASCADE`,
        );
      }),
    drop: () => dropSchema(name, db),
  };
}

export async function dropSchema(name: string, db?: PostgresDatabase): Promise<void> {
  await db?.close();
  await asAdmin(async (client) => {
    await client.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
  });
}

export interface TestRole {
  readonly name: string;
  /** The test database's URL with this role as the user. */
  readonly url: string;
  readonly drop: () => Promise<void>;
}

/** A login role without any right of its own, as a least-privilege account starts. */
export async function createRole(): Promise<TestRole> {
  const name = uniqueName('svc_test_role');
  await asAdmin(async (client) => {
    await client.query(`CREATE ROLE ${name} LOGIN`);
  });
  const url = new URL(TEST_DB_URL);
  url.username = name;
  return {
    name,
    url: url.toString(),
    drop: () =>
      asAdmin(async (client) => {
        await client.query(`DROP OWNED BY ${name}`);
        await client.query(`DROP ROLE ${name}`);
      }),
  };
}
