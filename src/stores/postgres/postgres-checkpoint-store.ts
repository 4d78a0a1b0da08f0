// Checkpoint store in the relational database (`svc.restart.store-type=postgres`): a row per
// recorded message, a row per node holding its end marker, a row per answered approval.
// Its writers (postgres-checkpoint-writer.ts) write in rounds, one transaction each; a round
// that carries an end marker or an approval commits synchronously, the others do not wait for
// the disk, and the next synchronous commit makes them durable with it.
import type pg from 'pg';
import type {
  CheckpointStore,
  CheckpointWriter,
  NodeCheckpointSummary,
  RecordedApproval,
  RecordedMessage,
} from '../../engine/index.js';
import type { MessageHeaders } from '../../plugin-api/index.js';
import { isRecordedApproval } from '../checkpoints/recorded-approval.js';
import { rowDamaged, storeFailure } from './pg-errors.js';
import type { PostgresDatabase } from './postgres-database.js';
import {
  FIRST_ATTEMPT,
  PostgresCheckpointWriter,
  RoundWriter,
} from './postgres-checkpoint-writer.js';
import type { ByteTally, ExecutionEntry } from './postgres-checkpoint-writer.js';

type SummaryRow = {
  readonly node_id: string;
  readonly complete: boolean;
  readonly messages: number;
  readonly bytes: string;
};

type OutputRow = {
  readonly complete: boolean;
  readonly seq: number | null;
  readonly message_id: string;
  readonly port: string;
  readonly headers: string | null;
  readonly payload: string | null;
  readonly payload_bytes: Buffer | null;
};

/**
 * Durable checkpoints in the relational database. The store keeps the list of executions it
 * holds and their byte counts in memory, loaded by `open()`; reads go to the database after
 * the writer of a running execution has written what it buffered. One server at a time may
 * use a schema.
 */
export class PostgresCheckpointStore implements CheckpointStore {
  readonly kind = 'postgres';
  readonly durable = true;
  readonly #db: PostgresDatabase;
  readonly #tally: ByteTally = { bytes: 0 };
  readonly #sql: Statements;
  readonly #rounds: RoundWriter;
  #executions: Map<string, ExecutionEntry> | undefined;
  #opening: Promise<void> | undefined;

  constructor(db: PostgresDatabase) {
    this.#db = db;
    this.#sql = statements(db);
    this.#rounds = new RoundWriter(db, this.#sql);
  }

  get bytes(): number {
    return this.#tally.bytes;
  }

  open(): Promise<void> {
    if (this.#executions !== undefined) return Promise.resolve();
    this.#opening ??= this.#load().finally(() => {
      this.#opening = undefined;
    });
    return this.#opening;
  }

  /**
   * Closes every writer. A writer that cannot write its last records does not fail the close:
   * its markers were rejected already, and records without a marker make no node complete.
   */
  async close(): Promise<void> {
    await this.#opening?.catch(() => undefined);
    const executions = this.#executions;
    if (executions === undefined) return;
    this.#executions = undefined;
    await Promise.allSettled(
      [...executions.values()].flatMap((entry) => entry.writer?.close() ?? []),
    );
  }

  /** Appends to the rows of an execution recorded before, e.g. before a restart. */
  writer(executionId: string): CheckpointWriter {
    const executions = this.#open();
    let entry = executions.get(executionId);
    if (entry === undefined) {
      entry = { executionId, bytes: 0, saved: false, writer: undefined };
      executions.set(executionId, entry);
    }
    entry.writer ??= new PostgresCheckpointWriter(this.#rounds, entry, this.#tally);
    return entry.writer;
  }

  async summary(executionId: string): Promise<readonly NodeCheckpointSummary[] | undefined> {
    const entry = await this.#settled(executionId);
    if (entry === undefined) return undefined;
    const rows = await this.#query<SummaryRow>(
      `cannot read the checkpoints of execution '${executionId}'`,
      this.#sql.summary,
      [executionId],
    );
    return rows.map((row) => ({
      nodeId: row.node_id,
      messages: row.messages,
      bytes: Number(row.bytes),
      complete: row.complete,
      truncated: false,
    }));
  }

  async output(
    executionId: string,
    nodeId: string,
  ): Promise<readonly RecordedMessage[] | undefined> {
    const entry = await this.#settled(executionId);
    if (entry === undefined) return undefined;
    const action = `cannot read the output of node '${nodeId}' of execution '${executionId}'`;
    // One statement, one snapshot: the marker and the rows it covers are read together.
    const rows = await this.#query<OutputRow>(action, this.#sql.output, [executionId, nodeId]);
    const [first] = rows;
    if (first?.complete !== true) return undefined;
    // A node without messages is one row of its marker with no message columns.
    return first.seq === null ? [] : rows.map((row) => toMessage(executionId, nodeId, row));
  }

  async approvals(executionId: string): Promise<readonly RecordedApproval[]> {
    const entry = await this.#settled(executionId);
    if (entry === undefined) return [];
    const rows = await this.#query<{ seq: string; answer: string }>(
      `cannot read the approvals of execution '${executionId}'`,
      this.#sql.approvals,
      [executionId],
    );
    return rows.map((row) => toApproval(executionId, row.seq, row.answer));
  }

  async drop(executionId: string): Promise<void> {
    const executions = this.#open();
    const entry = executions.get(executionId);
    if (entry === undefined) return;
    await entry.writer?.discard();
    try {
      await this.#db.transaction(async (client) => {
        await client.query(this.#sql.dropMessages, [executionId]);
        await client.query(this.#sql.dropExecution, [executionId]);
      });
    } catch (error) {
      throw storeFailure(`cannot remove the checkpoints of execution '${executionId}'`, error);
    }
    if (executions.get(executionId) === entry) executions.delete(executionId);
    this.#tally.bytes -= entry.bytes;
    entry.bytes = 0;
  }

  executions(): Promise<readonly string[]> {
    return new Promise((resolve) => {
      resolve([...this.#open().keys()]);
    });
  }

  #open(): Map<string, ExecutionEntry> {
    if (this.#executions === undefined) {
      throw storeFailure(`the checkpoint store in schema '${this.#db.schema}' is not open`);
    }
    return this.#executions;
  }

  /** The execution's entry once its writer has written what it buffered; undefined if unknown. */
  async #settled(executionId: string): Promise<ExecutionEntry | undefined> {
    const entry = this.#open().get(executionId);
    // A broken writer has nothing to hand over; what the database holds is still read.
    await entry?.writer?.flush().catch(() => undefined);
    return entry;
  }

  async #query<TRow extends pg.QueryResultRow>(
    action: string,
    text: string,
    values: readonly unknown[],
  ): Promise<TRow[]> {
    try {
      return (await this.#db.pool.query<TRow>(text, [...values])).rows;
    } catch (error) {
      throw storeFailure(action, error);
    }
  }

  async #load(): Promise<void> {
    let rows: { execution_id: string; bytes: string }[];
    try {
      rows = (await this.#db.pool.query<{ execution_id: string; bytes: string }>(this.#sql.load))
        .rows;
    } catch (error) {
      throw storeFailure(`cannot open the checkpoint store in schema '${this.#db.schema}'`, error);
    }
    const executions = new Map<string, ExecutionEntry>();
    let bytes = 0;
    for (const row of rows) {
      const held = Number(row.bytes);
      executions.set(row.execution_id, {
        executionId: row.execution_id,
        bytes: held,
        saved: true,
        writer: undefined,
      });
      bytes += held;
    }
    this.#tally.bytes = bytes;
    this.#executions = executions;
  }
}

type Statements = ReturnType<typeof statements>;

function statements(db: PostgresDatabase) {
  const executions = db.table('checkpoint_executions');
  const nodes = db.table('checkpoint_nodes');
  const messages = db.table('checkpoint_messages');
  const approvals = db.table('checkpoint_approvals');
  return {
    load: `SELECT execution_id, bytes FROM ${executions}`,
    saveExecution: `INSERT INTO ${executions} (execution_id) VALUES ($1)
      ON CONFLICT (execution_id) DO NOTHING`,
    // A node keeps the place of its first recording; begun again, it loses its rows and marker.
    begin: `WITH reset AS (
        DELETE FROM ${messages} WHERE execution_id = $1 AND node_id = ANY ($2::text[])
        RETURNING bytes
      ), placed AS (
        INSERT INTO ${nodes} (execution_id, node_id, complete)
        SELECT $1, n.node_id, false
          FROM unnest($2::text[]) WITH ORDINALITY AS n (node_id, position) ORDER BY n.position
        ON CONFLICT (execution_id, node_id) DO UPDATE SET complete = false
      )
      SELECT coalesce(sum(bytes), 0)::bigint AS freed FROM reset`,
    insertMessages: `INSERT INTO ${messages}
        (execution_id, node_id, seq, message_id, port, headers, payload, payload_bytes, bytes)
      SELECT $1, m.node_id, m.seq, m.message_id, m.port, m.headers, m.payload, m.payload_bytes,
          m.bytes
        FROM unnest($2::text[], $3::integer[], $4::text[], $5::text[], $6::text[], $7::text[],
          $8::bytea[], $9::integer[])
          AS m (node_id, seq, message_id, port, headers, payload, payload_bytes, bytes)`,
    count: `UPDATE ${executions} SET bytes = bytes + $2 WHERE execution_id = $1`,
    end: `UPDATE ${nodes} SET complete = true
      WHERE execution_id = $1 AND node_id = ANY ($2::text[])`,
    insertApprovals: `INSERT INTO ${approvals} (execution_id, answer)
      SELECT $1, a.answer FROM unnest($2::text[]) WITH ORDINALITY AS a (answer, position)
      ORDER BY a.position`,
    summary: `SELECT n.node_id, n.complete, count(m.seq)::integer AS messages,
        coalesce(sum(m.bytes), 0)::bigint AS bytes
      FROM ${nodes} n LEFT JOIN ${messages} m
        ON m.execution_id = n.execution_id AND m.node_id = n.node_id
      WHERE n.execution_id = $1
      GROUP BY n.node_id, n.complete, n.position ORDER BY n.position`,
    output: `SELECT n.complete, m.seq, m.message_id, m.port, m.headers, m.payload,
        m.payload_bytes
      FROM ${nodes} n LEFT JOIN ${messages} m
        ON m.execution_id = n.execution_id AND m.node_id = n.node_id
      WHERE n.execution_id = $1 AND n.node_id = $2 ORDER BY m.seq`,
    approvals: `SELECT seq, answer FROM ${approvals} WHERE execution_id = $1 ORDER BY seq`,
    dropMessages: `DELETE FROM ${messages} WHERE execution_id = $1`,
    dropExecution: `DELETE FROM ${executions} WHERE execution_id = $1`,
  };
}

function parseJson(text: string, row: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw rowDamaged(row, `the ${what} is not valid JSON`, error);
  }
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function toMessage(executionId: string, nodeId: string, row: OutputRow): RecordedMessage {
  const where = `of table checkpoint_messages (execution '${executionId}', node '${nodeId}', seq ${row.seq})`;
  let headers = FIRST_ATTEMPT;
  if (row.headers !== null) {
    const parsed = parseJson(row.headers, where, 'headers');
    if (!isObject(parsed)) throw rowDamaged(where, 'the headers are not a JSON object');
    headers = parsed as MessageHeaders;
  }
  const payload =
    row.payload_bytes !== null
      ? row.payload_bytes
      : row.payload === null
        ? undefined
        : parseJson(row.payload, where, 'payload');
  return { id: row.message_id, port: row.port, payload, headers };
}

function toApproval(executionId: string, seq: string, answer: string): RecordedApproval {
  const where = `of table checkpoint_approvals (execution '${executionId}', seq ${seq})`;
  const parsed = parseJson(answer, where, 'approval');
  if (!isRecordedApproval(parsed)) throw rowDamaged(where, 'it is not an answered approval');
  return parsed;
}
