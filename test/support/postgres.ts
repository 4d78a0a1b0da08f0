// The PostgreSQL database tests use (CONTRACT 6): SVC_TEST_DB_URL, by default
// postgres://localhost:5432/test. When no database answers, tests that need one are skipped
// with the reason, unless CI is set: then they fail, so a run without the database is noticed.
import { userInfo } from 'node:os';
import pg from 'pg';

export const TEST_DB_URL = process.env.SVC_TEST_DB_URL ?? 'postgres://localhost:5432/test';

/** A client for test fixtures; a URL without a user connects as the OS user, as libpq does. */
export function testDbClient(dbUrl: string = TEST_DB_URL): pg.Client {
  const url = new URL(dbUrl);
  if (url.username === '') url.username = userInfo().username;
  return new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 5000 });
}

/**
 * Why PostgreSQL tests cannot run here, or undefined when the database answers. Throws when
 * CI is set and the database does not answer.
 */
export async function postgresUnavailable(
  dbUrl: string = TEST_DB_URL,
  ci: string | undefined = process.env.CI,
): Promise<string | undefined> {
  const client = testDbClient(dbUrl);
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (error) {
    const reason = `no PostgreSQL answers at SVC_TEST_DB_URL (${error instanceof Error ? error.message : String(error)}); start one, see the README`;
    if (ci !== undefined && ci !== '') throw new Error(reason, { cause: error });
    return reason;
  } finally {
    await client.end().catch(() => undefined);
  }
}
