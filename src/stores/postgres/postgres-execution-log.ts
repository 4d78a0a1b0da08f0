// The durable execution log in the relational database (`svc.execution-log.store-type=postgres`):
// a row per event in `execution_log`, in order of its identity column, appended with group
// commit (GroupCommitLog): one multi-row insert, committed synchronously, serves every event
// queued while the previous one was on its way.
import type { ExecutionLogEvent } from '../execution-log/execution-log-events.js';
import { GroupCommitLog } from '../execution-log/group-commit-log.js';
import { rowDamaged, storeFailure } from './pg-errors.js';
import type { PostgresDatabase } from './postgres-database.js';

export interface PostgresExecutionLogOptions {
  readonly db: PostgresDatabase;
  /** A batch could not be written: each of its events, counted by the caller. */
  readonly onAppendFailed: (type: 'node' | 'run') => void;
}

interface Queued {
  readonly type: string;
  readonly executionId: string | null;
  readonly json: string;
  readonly event: ExecutionLogEvent;
}

/** One server at a time may use a schema: a compaction replaces every row of the log. */
export class PostgresExecutionLog extends GroupCommitLog<Queued> {
  readonly #db: PostgresDatabase;
  readonly #sql: ReturnType<typeof statements>;
  #opened = false;

  constructor(options: PostgresExecutionLogOptions) {
    super(options.onAppendFailed);
    this.#db = options.db;
    this.#sql = statements(options.db);
  }

  async open(): Promise<ExecutionLogEvent[]> {
    let rows: { seq: string; event: string }[];
    try {
      rows = (await this.#db.pool.query<{ seq: string; event: string }>(this.#sql.read)).rows;
    } catch (error) {
      throw storeFailure(`cannot read the execution log in schema '${this.#db.schema}'`, error);
    }
    const events = rows.map((row) => {
      try {
        return JSON.parse(row.event) as ExecutionLogEvent;
      } catch (error) {
        // Rows are written whole by a transaction, so there is no torn last one to forgive.
        throw rowDamaged(`of table execution_log (seq ${row.seq})`, 'not valid JSON', error);
      }
    });
    this.#opened = true;
    return events;
  }

  protected item(event: ExecutionLogEvent): Queued {
    return queued(event);
  }

  /** One multi-row insert, committed synchronously. */
  protected async writeBatch(batch: readonly Queued[]): Promise<void> {
    if (!this.#opened) throw new Error('The execution log is not open');
    await this.#db.pool.query(this.#sql.insert, columns(batch));
  }

  /** Every row replaced in one transaction, or none. */
  protected async replaceAll(events: readonly ExecutionLogEvent[]): Promise<void> {
    const rows = events.map(queued);
    try {
      await this.#db.transaction(async (client) => {
        await client.query(this.#sql.clear);
        if (rows.length > 0) await client.query(this.#sql.insert, columns(rows));
      });
    } catch (error) {
      throw storeFailure('cannot compact the execution log', error);
    }
  }
}

function queued(event: ExecutionLogEvent): Queued {
  return {
    type: event.type,
    executionId: 'executionId' in event ? event.executionId : null,
    json: JSON.stringify(event),
    event,
  };
}

/** The parameters of one multi-row insert. */
function columns(rows: readonly Queued[]): unknown[] {
  return [
    rows.map((row) => row.type),
    rows.map((row) => row.executionId),
    rows.map((row) => row.json),
  ];
}

function statements(db: PostgresDatabase) {
  const log = db.table('execution_log');
  return {
    read: `SELECT seq, event FROM ${log} ORDER BY seq`,
    // The identity values follow the order of the arrays, which is the order of appending.
    insert: `INSERT INTO ${log} (type, execution_id, event)
      SELECT e.type, e.execution_id, e.event
        FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY
          AS e (type, execution_id, event, position)
        ORDER BY e.position`,
    // DELETE rather than TRUNCATE: the run-time account has no right to truncate.
    clear: `DELETE FROM ${log}`,
  };
}
