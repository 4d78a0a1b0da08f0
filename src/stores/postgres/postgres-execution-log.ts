// The durable execution log in the relational database (`svc.execution-log.store-type=postgres`):
// a row per event in `execution_log`, in order of its identity column, appended with group
// commit (GroupCommitLog): one multi-row insert, committed synchronously, serves every event
// queued while the previous one was on its way.
import type pg from 'pg';
import type { ExecutionLogEvent } from '../execution-log/execution-log-events.js';
import { GroupCommitLog } from '../execution-log/group-commit-log.js';
import { rowDamaged, storeFailure } from './pg-errors.js';
import type { PostgresDatabase } from './postgres-database.js';
import { fenceCondition } from './postgres-leader-lease.js';
import type { LeaseFence } from './postgres-leader-lease.js';

export interface PostgresExecutionLogOptions {
  readonly db: PostgresDatabase;
  /** A batch could not be written: each of its events, counted by the caller. */
  readonly onAppendFailed: (type: 'node' | 'run') => void;
  /**
   * With high availability: every write carries this server's leader lease and lands only
   * while no other server has taken it, so a server that lost its lease cannot write into the
   * log of the one that leads now.
   */
  readonly fence?: LeaseFence | undefined;
}

interface Queued {
  readonly type: string;
  readonly executionId: string | null;
  readonly json: string;
  readonly event: ExecutionLogEvent;
}

/**
 * One server at a time may write a schema's log, since a compaction replaces every row; with
 * high availability that server is the holder of the leader lease, which every write checks.
 */
export class PostgresExecutionLog extends GroupCommitLog<Queued> {
  readonly #db: PostgresDatabase;
  readonly #fence: LeaseFence | undefined;
  readonly #sql: ReturnType<typeof statements>;
  #opened = false;

  constructor(options: PostgresExecutionLogOptions) {
    super(options.onAppendFailed);
    this.#db = options.db;
    this.#fence = options.fence;
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
    await this.#insert(this.#db.pool, batch);
  }

  /** Every row replaced in one transaction, or none. */
  protected async replaceAll(events: readonly ExecutionLogEvent[]): Promise<void> {
    const rows = events.map(queued);
    try {
      await this.#db.transaction(async (client) => {
        const fence = this.#fence;
        if (fence !== undefined) {
          const held = fence.current();
          const kept =
            held === undefined
              ? 0
              : ((await client.query(this.#sql.fenced, [held.holder, held.epoch])).rowCount ?? 0);
          if (kept === 0) this.#lost(fence);
        }
        await client.query(this.#sql.clear);
        if (rows.length > 0) await this.#insert(client, rows);
      });
    } catch (error) {
      throw storeFailure('cannot compact the execution log', error);
    }
  }

  /**
   * One multi-row insert. Under a fence it lands only while this server holds the leader
   * lease: the fence locks the lease row, so a take by another server waits until the insert
   * has committed and the new leader reads the log with it; an insert after the take is
   * refused.
   */
  async #insert(client: pg.Pool | pg.ClientBase, rows: readonly Queued[]): Promise<void> {
    const fence = this.#fence;
    if (fence === undefined) {
      await client.query(this.#sql.insert, columns(rows));
      return;
    }
    const held = fence.current();
    if (held === undefined) this.#lost(fence);
    const result = await client.query(this.#sql.fencedInsert, [
      ...columns(rows),
      held.holder,
      held.epoch,
    ]);
    if (result.rowCount !== rows.length) this.#lost(fence);
  }

  #lost(fence: LeaseFence): never {
    fence.lost();
    throw new Error('another server holds the leader lease');
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
    fencedInsert: `INSERT INTO ${log} (type, execution_id, event)
      SELECT e.type, e.execution_id, e.event
        FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY
          AS e (type, execution_id, event, position)
        WHERE ${fenceCondition(db, '$4', '$5')}
        ORDER BY e.position`,
    fenced: `SELECT 1 WHERE ${fenceCondition(db, '$1', '$2')}`,
    // DELETE rather than TRUNCATE: the run-time account has no right to truncate.
    clear: `DELETE FROM ${log}`,
  };
}
