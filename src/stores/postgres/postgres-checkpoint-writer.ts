// Writing one execution's checkpoints to the relational database: records are buffered and
// written in rounds, one transaction each with one multi-row insert; a round that carries an
// end marker or an approval commits synchronously, the others do not wait for the disk.
import type pg from 'pg';
import type { AppError } from '../../core/index.js';
import type {
  CheckpointWriter,
  NodeRecorder,
  RecordedApproval,
  RecordingMessage,
} from '../../engine/index.js';
import type { MessageHeaders } from '../../plugin-api/index.js';
import { toJson } from '../checkpoints/quick-json.js';
import { RoundPump } from '../checkpoints/round-pump.js';
import { storeFailure } from './pg-errors.js';
import type { PostgresDatabase } from './postgres-database.js';

/** The statements a round runs, made by the store for its tables. */
export interface RoundStatements {
  readonly saveExecution: string;
  readonly begin: string;
  readonly insertMessages: string;
  readonly end: string;
  readonly insertApprovals: string;
  readonly count: string;
}

/** Buffered records are written once they reach this many bytes, without waiting for a marker. */
const BATCH_BYTES = 256 * 1024;
/**
 * Bytes waiting for a round beyond this make the recording node wait (back-pressure): a node
 * that emits faster than the database takes rows would otherwise hold its output in memory.
 */
const HIGH_WATER_BYTES = 4 * 1024 * 1024;
export const FIRST_ATTEMPT: MessageHeaders = Object.freeze({ attempt: 1 });

/** One message as its row holds it. */
export interface MessageRow {
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
export interface ExecutionEntry {
  readonly executionId: string;
  /** Bytes of output the rows of this execution hold, as the store counts them. */
  bytes: number;
  /** Whether its execution row exists. */
  saved: boolean;
  writer: PostgresCheckpointWriter | undefined;
}

export interface ByteTally {
  bytes: number;
}

/** One node being recorded by a writer; a node begun again gets a new one. */
export interface NodeTrack {
  readonly nodeId: string;
  seq: number;
}

/** What one round writes, taken from the writer's buffer at once. */
export interface Round {
  /** In the order the nodes were begun, which is the order summaries list them in. */
  readonly begun: Set<string>;
  readonly rows: MessageRow[];
  readonly ended: Set<string>;
  readonly approvals: string[];
}

export function emptyRound(): Round {
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
export class PostgresCheckpointWriter extends RoundPump<Round> implements CheckpointWriter {
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
/** Writes the rounds of every writer of a store. */
export class RoundWriter {
  readonly #db: PostgresDatabase;
  readonly #sql: RoundStatements;

  constructor(db: PostgresDatabase, sql: RoundStatements) {
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
