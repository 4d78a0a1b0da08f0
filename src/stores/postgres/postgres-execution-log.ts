// The durable execution log in the relational database (`svc.execution-log.store-type=postgres`):
// a row per event in `execution_log`, in order of its identity column. Appends are queued and
// written with group commit: one multi-row insert, committed synchronously, serves every
// event queued while the previous one was on its way. One pump does all the writing,
// compactions included, so an event appended during a compaction lands after it.
import { appendFailureType } from '../execution-log/execution-log-events.js';
import type {
  ExecutionLogEvent,
  ExecutionLogStore,
} from '../execution-log/execution-log-events.js';
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

interface Waiter {
  /** Resolved once this many events are settled. */
  readonly target: number;
  readonly resolve: () => void;
}

interface Compaction {
  readonly events: readonly ExecutionLogEvent[];
  /** Events queued when the compaction was asked for: they are part of `events`. */
  readonly covered: number;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/** One server at a time may use a schema: a compaction replaces every row of the log. */
export class PostgresExecutionLog implements ExecutionLogStore {
  readonly durable = true;
  readonly #db: PostgresDatabase;
  readonly #onAppendFailed: (type: 'node' | 'run') => void;
  readonly #sql: ReturnType<typeof statements>;
  #queued: Queued[] = [];
  #compaction: Compaction | undefined;
  #pumping = false;
  #appended = 0;
  #settled = 0;
  #waiters: Waiter[] = [];
  #opened = false;
  #closed = false;

  constructor(options: PostgresExecutionLogOptions) {
    this.#db = options.db;
    this.#onAppendFailed = options.onAppendFailed;
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

  append(event: ExecutionLogEvent): void {
    if (this.#closed) {
      this.#onAppendFailed(appendFailureType(event));
      return;
    }
    this.#queued.push(queued(event));
    this.#appended++;
    this.#pump();
  }

  get pending(): number {
    return this.#appended - this.#settled;
  }

  durableNow(): Promise<void> {
    const target = this.#appended;
    if (this.#settled >= target) return Promise.resolve();
    return new Promise((resolve) => {
      this.#waiters.push({ target, resolve });
    });
  }

  /** `events` stand for everything appended so far, those still queued included. */
  compact(events: readonly ExecutionLogEvent[]): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#compaction?.resolve();
      this.#compaction = { events, covered: this.#queued.length, resolve, reject };
      this.#pump();
    });
  }

  async close(timeoutMs: number): Promise<void> {
    if (this.#closed) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
      timer.unref();
    });
    await Promise.race([this.durableNow(), timeout]);
    clearTimeout(timer);
    this.#closed = true;
  }

  #pump(): void {
    if (this.#pumping) return;
    this.#pumping = true;
    void this.#run().finally(() => {
      this.#pumping = false;
      if (!this.#closed && (this.#queued.length > 0 || this.#compaction !== undefined)) {
        this.#pump();
      }
    });
  }

  /** Writes batches and compactions, one at a time, until nothing waits. */
  async #run(): Promise<void> {
    // Let the current turn of the event loop queue more: they share the batch.
    await new Promise<void>((resolve) => setImmediate(resolve));
    for (;;) {
      if (this.#closed) return;
      const compaction = this.#compaction;
      if (compaction !== undefined) {
        this.#compaction = undefined;
        await this.#replace(compaction);
        continue;
      }
      if (this.#queued.length === 0) return;
      const batch = this.#queued;
      this.#queued = [];
      try {
        if (!this.#opened) throw new Error('The execution log is not open');
        await this.#db.pool.query(this.#sql.insert, columns(batch));
      } catch {
        for (const item of batch) this.#onAppendFailed(appendFailureType(item.event));
      }
      this.#settle(batch.length);
    }
  }

  /**
   * Replaces every row with the compaction's events in one transaction; the queued events it
   * covers are then stored. A failed replacement leaves the old rows, and the queued events go
   * on to them.
   */
  async #replace(compaction: Compaction): Promise<void> {
    try {
      const rows = compaction.events.map(queued);
      await this.#db.transaction(async (client) => {
        await client.query(this.#sql.clear);
        if (rows.length > 0) await client.query(this.#sql.insert, columns(rows));
      });
    } catch (error) {
      compaction.reject(storeFailure('cannot compact the execution log', error));
      return;
    }
    const covered = this.#queued.splice(0, compaction.covered);
    this.#settle(covered.length);
    compaction.resolve();
  }

  #settle(count: number): void {
    this.#settled += count;
    if (this.#waiters.length === 0) return;
    const waiting: Waiter[] = [];
    for (const waiter of this.#waiters) {
      if (this.#settled >= waiter.target) waiter.resolve();
      else waiting.push(waiter);
    }
    this.#waiters = waiting;
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
