// The MySQL/MariaDB database tests use: SVC_TEST_MYSQL_URL, by default
// mysql://root@127.0.0.1:3306/test. As with PostgreSQL (CONTRACT 6), when no database answers
// the tests that need one are skipped with the reason, unless CI is set: then they fail.
import mysql from 'mysql2/promise';

export const TEST_MYSQL_URL = process.env.SVC_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';

/** A connection for test fixtures; the caller ends it. */
export function testMysqlConnection(url: string = TEST_MYSQL_URL): Promise<mysql.Connection> {
  return mysql.createConnection({ uri: url, connectTimeout: 5000, timezone: 'Z' });
}

/**
 * Why MySQL/MariaDB tests cannot run here, or undefined when the database answers. Throws
 * when CI is set and the database does not answer.
 */
export async function mysqlUnavailable(
  url: string = TEST_MYSQL_URL,
  ci: string | undefined = process.env.CI,
): Promise<string | undefined> {
  let connection: mysql.Connection | undefined;
  try {
    connection = await testMysqlConnection(url);
    await connection.query('select 1');
    return undefined;
  } catch (error) {
    const reason = `no MySQL or MariaDB answers at SVC_TEST_MYSQL_URL (${error instanceof Error ? error.message : String(error)}); start one, see the README`;
    if (ci !== undefined && ci !== '') throw new Error(reason, { cause: error });
    return reason;
  } finally {
    await connection?.end().catch(() => undefined);
  }
}
