// SQL_QUERY (optional plugin sql-query): one parameterised query per message against a
// PostgreSQL, MySQL or MariaDB database, emitting `{ rows, rowCount }`. Each node keeps a
// small pool of its own for the run and closes it when the node ends.
import { definePlugin, StepFailure, z } from '../../../plugin-api/index.js';
import type { Emit, Message, MessageProcessor, NodeContext } from '../../../plugin-api/index.js';
import { MysqlDriver } from './mysql-driver.js';
import { PostgresDriver } from './postgres-driver.js';
import type { SqlDriver } from './sql-driver.js';

export type { SqlQueryResult } from './sql-driver.js';

/** The `plugin` tag of `svc.plugin.events` for queries. */
export const QUERY_EVENT = 'sql.query';

export const SQL_DIALECTS = ['postgres', 'mysql', 'mariadb'] as const;
export type SqlDialect = (typeof SQL_DIALECTS)[number];

/** The URL schemes of each dialect; MySQL and MariaDB speak one protocol. */
const SCHEMES: Readonly<Record<SqlDialect, RegExp>> = {
  postgres: /^postgres(ql)?:\/\//i,
  mysql: /^(mysql|mariadb):\/\//i,
  mariadb: /^(mysql|mariadb):\/\//i,
};
/** A secret or a placeholder: its value is known only when the node runs. */
const RESOLVED_LATER = /^decrypted:|\$\{/;

const configSchema = z
  .looseObject({
    url: z
      .string()
      .min(1)
      .describe(
        'Database URL: postgres://, mysql:// or mariadb://user:password@host:port/database; may be a secret',
      ),
    dialect: z
      .enum(SQL_DIALECTS)
      .optional()
      .describe(
        'postgres (parameters $1, $2, ...) or mysql / mariadb (parameters ?); without it the URL scheme decides',
      ),
    query: z
      .string()
      .min(1)
      .describe('SQL text with positional parameters: $1, $2, ... on PostgreSQL, ? on MySQL'),
    params: z
      .array(z.unknown())
      .optional()
      .describe('Values of the positional parameters; without it an array payload gives them'),
  })
  .superRefine((config, issues) => {
    if (RESOLVED_LATER.test(config.url)) return;
    const problem = urlProblem(config.url, config.dialect);
    if (problem !== undefined) issues.addIssue({ code: 'custom', path: ['url'], message: problem });
  });

type SqlQueryConfig = z.output<typeof configSchema>;

/** Why the URL does not fit, or undefined when it does. */
function urlProblem(url: string, dialect: SqlDialect | undefined): string | undefined {
  if (dialect !== undefined) {
    return SCHEMES[dialect].test(url) ? undefined : `Must be a ${schemesOf(dialect)} URL`;
  }
  return dialectOf(url) === undefined
    ? 'Must be a postgres://, mysql:// or mariadb:// URL'
    : undefined;
}

function schemesOf(dialect: SqlDialect): string {
  return dialect === 'postgres' ? 'postgres://' : 'mysql:// or mariadb://';
}

function dialectOf(url: string): SqlDialect | undefined {
  return SQL_DIALECTS.find((dialect) => SCHEMES[dialect].test(url));
}

export const sqlQueryPlugin = definePlugin({
  type: 'SQL_QUERY',
  kind: 'processor',
  description:
    'Runs a parameterised SQL query per message against PostgreSQL, MySQL or MariaDB and emits { rows, rowCount }.',
  configSchema,
  outputPorts: () => ['out'],
  defaultTimeoutSeconds: 30,
  create: (config) => {
    // Placeholders and secrets are resolved by now, so the scheme can be checked for real.
    const problem = urlProblem(config.url, config.dialect);
    const dialect = config.dialect ?? dialectOf(config.url);
    if (problem !== undefined || dialect === undefined) {
      const reason = `SQL_QUERY: ${problem ?? 'unknown URL scheme'}`;
      return {
        process: () => {
          throw StepFailure.nonRetryable(reason);
        },
      };
    }
    return new SqlQuery(
      config,
      dialect === 'postgres' ? new PostgresDriver(config.url) : new MysqlDriver(config.url),
    );
  },
});

class SqlQuery implements MessageProcessor {
  readonly #config: SqlQueryConfig;
  readonly #driver: SqlDriver;

  constructor(config: SqlQueryConfig, driver: SqlDriver) {
    this.#config = config;
    this.#driver = driver;
  }

  async process(message: Message, ctx: NodeContext): Promise<Emit> {
    try {
      const payload = await this.#driver.query(
        this.#config.query,
        paramsOf(this.#config, message),
        ctx.signal,
      );
      ctx.report(QUERY_EVENT, 'completed');
      return { payload };
    } catch (error) {
      ctx.report(QUERY_EVENT, ctx.signal.aborted ? 'stopped' : 'failed');
      throw error;
    }
  }

  close(): Promise<void> {
    return this.#driver.close();
  }
}

/** `params` as given; without it an array payload, else no parameters. */
function paramsOf(config: SqlQueryConfig, message: Message): readonly unknown[] {
  if (config.params !== undefined) return config.params;
  return Array.isArray(message.payload) ? message.payload : [];
}
