// Checkpoint store in the relational database (`svc.restart.store-type=postgres`): a row per
// recorded message, a row per node holding its end marker, a row per answered approval.
// Records are buffered and written in rounds, one transaction each with one multi-row insert;
// a round that carries an end marker or an approval commits synchronously, the others do not
// wait for the disk, and the next synchronous commit makes them durable with it.
import type pg from 'pg';
import type { AppError } from '../../core/index.js';
import type {
  CheckpointStore,
  CheckpointWriter,
  NodeCheckpointSummary,
  NodeRecorder,
  RecordedApproval,
  RecordedMessage,
  RecordingMessage,
} from '../../engine/index.js';
import type { MessageHeaders } from '../../plugin-api/index.js';
import { toJson } from '../checkpoints/quick-json.js';
import { isRecordedApproval } from '../checkpoints/recorded-approval.js';
import { RoundPump } from '../checkpoints/round-pump.js';
import { rowDamaged, storeFailure } from './pg-errors.js';
import type { PostgresDatabase } from './postgres-database.js';

/** Buffered records are written once they reach this many bytes, without waiting for a marker. */
const BATCH_BYTES = 256 * 1024;
/**
 * Bytes waiting for a round beyond this make the recording node wait (back-pressure): a node
 * that emits faster than the database takes rows would otherwise hold its output in memory.
 */
const HIGH_WATER_BYTES = 4 * 1024 * 1024;
const FIRST_ATTEMPT: MessageHeaders = Object.freeze({ attempt: 1 });

/** One message as its row holds it. */
interface MessageRow {
  readonly nodeId: string;
  readonly seq: number;
  readonly messageId: string;
  readonly port: string;
  /** JSON of the headers; null for those of a first attempt, which nearly every message has. */
  readonly headers: string | null;
  /** JSON of the payload; null for a byte array or undefined. */
  readonly payload: string | null;
  readonly payloadBytes: Buffer | null;
  readonly bytes: number;
}

/** What the store knows of one execution. */
interface ExecutionEntry {
  readonly executionId: string;
  /** Bytes of output the rows of this execution hold, as the store counts them. */
  bytes: number;
  /** Whether its execution row exists. */
  saved: boolean;
  writer: PostgresCheckpointWriter | undefined;
}

interface ByteTally {
  bytes: number;
}

/** One node being recorded by a writer; a node begun again gets a new one. */
interface NodeTrack {
  readonly nodeId: string;
  seq: number;
}

/** What one round writes, taken from the writer's buffer at once. */
interface Round {
  /** In the order the nodes were begun, which is the order summaries list them in. */
  readonly begun: Set<string>;
  readonly rows: MessageRow[];
  readonly ended: Set<string>;
  readonly approvals: string[];
}

function emptyRound(): Round {
  return { begun: new Set(), rows: [], ended: new Set(), approvals: [] };
}

function isEmpty(round: Round): boolean {
  return (
    round.begun.size === 0 &&
    round.rows.length === 0 &&
    round.ended.size === 0 &&
    round.approvals.length === 0
  );
}

/**
 * Records one execution. A pump writes the buffer in rounds, one at a time: a round takes
 * every record and every waiter present when it starts, so markers arriving while a round is
 * under way share the next one. After a failed round the writer takes nothing more: the rows
 * of that round are lost, and a later marker would mark a node whose output has a hole.
 */
class PostgresCheckpointWriter extends RoundPump<Round> implements CheckpointWriter {
  readonly #rounds: RoundWriter;
  readonly #entry: ExecutionEntry;
  readonly #tally: ByteTally;
  #round: Round = emptyRound();
  #pendingBytes = 0;
  /** The node track each node id currently records into. */
  readonly #tracks = new Map<string, NodeTrack>();
  /** The last round committed without waiting for the disk. */
  #unsynced = false;

  constructor(rounds: RoundWriter, entry: ExecutionEntry, tally: ByteTally) {
    super({ batchBytes: BATCH_BYTES, highWaterBytes: HIGH_WATER_BYTES }, entry.executionId);
    this.#rounds = rounds;
    this.#entry = entry;
    this.#tally = tally;
  }

  /** A node recorded again (by a resumed run) starts afresh: its earlier rows go. */
  node(nodeId: string): NodeRecorder {
    const track: NodeTrack = { nodeId, seq: 0 };
    if (this.taking) {
      const round = this.#round;
      if (this.#tracks.has(nodeId)) {
        // Begun again by this writer: what it recorded before and has not written yet is not
        // the node's output any more (what it wrote goes with the begin).
        const kept = round.rows.filter((row) => row.nodeId !== nodeId);
        round.rows.length = 0;
        round.rows.push(...kept);
        round.ended.delete(nodeId);
      }
      this.#tracks.set(nodeId, track);
      round.begun.add(nodeId);
    }
    return new PostgresNodeRecorder(this, track);
  }

  approval(answer: RecordedApproval): Promise<void> {
    let json: string;
    try {
      json = JSON.stringify(answer);
    } catch (error) {
      const action = `cannot store the approval of message '${answer.messageId}' as JSON`;
      return Promise.reject(storeFailure(action, error));
    }
    const refused = this.refusal();
    if (refused !== undefined) return Promise.reject(refused);
    this.#round.approvals.push(json);
    this.#pendingBytes += json.length;
    return this.request(true);
  }

  /** Whether records of `track` are still taken: it is the node's current track. */
  takes(track: NodeTrack): boolean {
    return this.taking && this.#tracks.get(track.nodeId) === track;
  }

  append(row: MessageRow): Promise<void> | undefined {
    this.#round.rows.push(row);
    this.#pendingBytes += row.bytes;
    return this.afterAppend(this.#pendingBytes);
  }

  /** Marks the node complete once everything recorded before is durable. */
  end(track: NodeTrack): Promise<void> {
    const refused = this.refusal();
    if (refused !== undefined) return Promise.reject(refused);
    if (this.#tracks.get(track.nodeId) === track) this.#round.ended.add(track.nodeId);
    return this.request(true);
  }

  /** Resolves once everything recorded so far is in the database, not necessarily durable. */
  flush(): Promise<void> {
    return this.request(false);
  }

  protected clearBuffer(): void {
    this.#round = emptyRound();
    this.#pendingBytes = 0;
  }

  protected release(): void {
    if (this.#entry.writer === this) this.#entry.writer = undefined;
  }

  protected get pendingBytes(): number {
    return this.#pendingBytes;
  }

  protected takeRound(): Round {
    const round = this.#round;
    this.#round = emptyRound();
    this.#pendingBytes = 0;
    return round;
  }

  protected async writeRound(round: Round, sync: boolean): Promise<AppError | undefined> {
    const entry = this.#entry;
    // A read's flush with nothing buffered needs no transaction; a durable one does when
    // rounds committed without waiting for the disk came before it.
    if (isEmpty(round) && entry.saved && !(sync && this.#unsynced)) return undefined;
    try {
      const added = await this.#rounds.write(entry, round, sync);
      this.#unsynced = !sync;
      entry.saved = true;
      entry.bytes += added;
      this.#tally.bytes += added;
      return undefined;
    } catch (error) {
      return this.fail(
        storeFailure(`cannot write the checkpoints of execution '${entry.executionId}'`, error),
      );
    }
  }
}

/**
 * Records one node. A message that cannot be JSON fails the node rather than the caller:
 * record() never throws, nothing more of the node is written and its end() rejects.
 */
class PostgresNodeRecorder implements NodeRecorder {
  readonly #writer: PostgresCheckpointWriter;
  readonly #track: NodeTrack;
  #failure: AppError | undefined;

  constructor(writer: PostgresCheckpointWriter, track: NodeTrack) {
    this.#writer = writer;
    this.#track = track;
  }

  record(message: RecordingMessage): Promise<void> | undefined {
    if (this.#failure !== undefined || !this.#writer.takes(this.#track)) return undefined;
    let row: MessageRow;
    try {
      row = messageRow(this.#track, message);
    } catch (error) {
      this.#failure = storeFailure(`cannot store message '${message.id}' as JSON`, error);
      return undefined;
    }
    this.#track.seq++;
    return this.#writer.append(row);
  }

  end(): Promise<void> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    return this.#writer.end(this.#track);
  }
}

/**
 * The row of a message. A payload's JSON is handed to the engine as the store's encoding, so
 * a node passing the same payload on does not encode it again. Throws when the payload or the
 * headers cannot be JSON (cyclic, BigInt).
 */
function messageRow(track: NodeTrack, message: RecordingMessage): MessageRow {
  const { payload } = message;
  let json: string | null = null;
  let bytes: Buffer | null = null;
  if (typeof message.encoded === 'string') json = message.encoded;
  else if (payload instanceof Uint8Array) {
    bytes = Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
  } else {
    json = toJson(payload) ?? null;
    if (json !== null) message.encoded = json;
  }
  const headers = headersJson(message.headers);
  return {
    nodeId: track.nodeId,
    seq: track.seq,
    messageId: message.id,
    port: message.port,
    headers,
    payload: json,
    payloadBytes: bytes,
    bytes:
      message.id.length +
      (json === null ? (bytes?.length ?? 0) : Buffer.byteLength(json)) +
      (headers?.length ?? 0),
  };
}

let lastHeaders: MessageHeaders | undefined;
let lastHeadersJson: string | null = null;
/** Runs pass the same frozen headers object along a chain, so the last one's JSON is kept. */
function headersJson(headers: MessageHeaders): string | null {
  if (headers === lastHeaders) return lastHeadersJson;
  const json = toJson(headers);
  if (json === undefined) throw new TypeError('the message headers are not a JSON object');
  const column = json === '{"attempt":1}' ? null : json;
  if (Object.isFrozen(headers)) {
    lastHeaders = headers;
    lastHeadersJson = column;
  }
  return column;
}

// Type aliases, not interfaces: pg types a row as an object with an index signature.
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

/** Writes the rounds of every writer of a store. */
class RoundWriter {
  readonly #db: PostgresDatabase;
  readonly #sql: Statements;

  constructor(db: PostgresDatabase, sql: Statements) {
    this.#db = db;
    this.#sql = sql;
  }

  /** One round in one transaction; answers the bytes it added, less those of nodes begun again. */
  write(entry: ExecutionEntry, round: Round, sync: boolean): Promise<number> {
    const { executionId } = entry;
    const sql = this.#sql;
    return this.#db.transaction(
      async (client) => {
        let added = 0;
        if (!entry.saved) await client.query(sql.saveExecution, [executionId]);
        if (round.begun.size > 0) {
          const reset = await client.query<{ freed: string }>(sql.begin, [
            executionId,
            [...round.begun],
          ]);
          added -= Number(reset.rows[0]?.freed ?? 0);
        }
        if (round.rows.length > 0)
          added += await insertRows(client, sql.insertMessages, entry, round);
        if (round.ended.size > 0) await client.query(sql.end, [executionId, [...round.ended]]);
        if (round.approvals.length > 0) {
          await client.query(sql.insertApprovals, [executionId, round.approvals]);
        }
        // Also on an empty round: a transaction that writes nothing has no commit to wait for.
        if (added !== 0 || isEmpty(round)) await client.query(sql.count, [executionId, added]);
        return added;
      },
      { synchronousCommit: sync },
    );
  }
}

/** One multi-row insert of a round's messages, as parallel arrays; answers their bytes. */
async function insertRows(
  client: pg.ClientBase,
  text: string,
  entry: ExecutionEntry,
  round: Round,
): Promise<number> {
  const { rows } = round;
  const count = rows.length;
  const nodes = new Array<string>(count);
  const seqs = new Array<number>(count);
  const ids = new Array<string>(count);
  const ports = new Array<string>(count);
  const headers = new Array<string | null>(count);
  const payloads = new Array<string | null>(count);
  const payloadBytes = new Array<Buffer | null>(count);
  const sizes = new Array<number>(count);
  let added = 0;
  rows.forEach((row, index) => {
    nodes[index] = row.nodeId;
    seqs[index] = row.seq;
    ids[index] = row.messageId;
    ports[index] = row.port;
    headers[index] = row.headers;
    payloads[index] = row.payload;
    payloadBytes[index] = row.payloadBytes;
    sizes[index] = row.bytes;
    added += row.bytes;
  });
  await client.query(text, [
    entry.executionId,
    nodes,
    seqs,
    ids,
    ports,
    headers,
    payloads,
    payloadBytes,
    sizes,
  ]);
  return added;
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
