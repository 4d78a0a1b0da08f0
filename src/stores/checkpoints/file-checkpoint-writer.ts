// Writing one execution's checkpoint file: records are buffered and written in batches by a
// pump; an end marker or approval is forced to storage with fsync, one fsync serving every
// marker that waits.
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import type { AppError } from '../../core/index.js';
import type {
  CheckpointWriter,
  NodeRecorder,
  RecordedApproval,
  RecordingMessage,
} from '../../engine/index.js';
import { syncDirectory } from '../file/write-file-atomic.js';
import { writeAll } from '../file/write-all.js';
import { checkpointFailure } from './checkpoint-errors.js';
import {
  approvalLine,
  beginLine,
  endLine,
  headerLine,
  messageLine,
  messageLinePrefix,
  nodeLineHead,
} from './checkpoint-lines.js';
import { LineBatch } from './line-batch.js';
import type { ChunkPool } from './line-batch.js';
import { RoundPump } from './round-pump.js';
import { intactLength } from './checkpoint-file-ends.js';

/** Buffered lines are handed to the file system once they reach this many bytes. */
const BATCH_BYTES = 64 * 1024;
/**
 * Lines waiting for the pump beyond this make the recording node wait (back-pressure): a run
 * that never yields to the event loop would otherwise hold its whole output in memory.
 */
const HIGH_WATER_BYTES = 4 * 1024 * 1024;
/** Bytes written without a sync after which a round forces them to storage. */
const SYNC_AFTER_BYTES = 16 * 1024 * 1024;
/** Written batch chunks kept for reuse by all writers of a store. */
export const POOL_BYTES = 2 * HIGH_WATER_BYTES;
/** What the store knows of one execution's file. */
export interface ExecutionFile {
  readonly executionId: string;
  readonly path: string;
  /** Bytes in the file, as found by `open()` and grown by this process's writes. */
  size: number;
  /** The writer recording into the file, until it closes. */
  writer: FileCheckpointWriter | undefined;
}

/** The store's byte total (`svc.checkpoint.bytes`) and syncs, kept up to date by its writers. */
export interface ByteTally {
  bytes: number;
  syncs: number;
}

/**
 * Records one execution into its file through one open handle. A pump writes the buffer in
 * rounds, one at a time: a round takes every line and every waiter present when it starts,
 * so markers arriving while a write and fsync are under way share the single next round.
 * After a failed round the writer takes nothing more: the file could hold a torn line, and
 * on Linux a failed fsync may have lost earlier pages, so later markers could not be trusted.
 */
export class FileCheckpointWriter extends RoundPump<Buffer[]> implements CheckpointWriter {
  readonly #file: ExecutionFile;
  readonly #tally: ByteTally;
  readonly #dir: string;
  readonly #pool: ChunkPool;
  /** Lines recorded and not yet handed to the file system. */
  readonly #batch: LineBatch;
  #handle: FileHandle | undefined;
  /** Bytes written since the last sync. */
  #unsynced = 0;
  /** A group-commit sync under way beside the writes; it never rejects (see `#fail`). */
  #syncing: Promise<void> | undefined;
  /** Set once the handle is closed for good; a late flush must not open the file again. */
  #released = false;

  constructor(file: ExecutionFile, tally: ByteTally, dir: string, pool: ChunkPool) {
    super({ batchBytes: BATCH_BYTES, highWaterBytes: HIGH_WATER_BYTES }, file.executionId);
    this.#file = file;
    this.#tally = tally;
    this.#dir = dir;
    this.#batch = new LineBatch(pool);
    this.#pool = pool;
  }

  /** Writes a begin line: a node recorded again by a resumed run starts afresh on reading. */
  node(nodeId: string): NodeRecorder {
    const head = nodeLineHead(nodeId);
    void this.append(beginLine(head));
    return new FileNodeRecorder(this, head, messageLinePrefix(head));
  }

  approval(answer: RecordedApproval): Promise<void> {
    let line: string;
    try {
      line = approvalLine(answer);
    } catch (error) {
      const action = `cannot store the approval of message '${answer.messageId}' as JSON`;
      return Promise.reject(checkpointFailure(action, error));
    }
    return this.commit(line);
  }

  append(line: string): Promise<void> | undefined {
    if (!this.taking) return undefined;
    this.#batch.append(line);
    return this.afterAppend(this.#batch.pending);
  }

  /** Appends a line and resolves once it and everything before it is forced to storage. */
  commit(line: string): Promise<void> {
    const refused = this.refusal();
    if (refused !== undefined) return Promise.reject(refused);
    this.#batch.append(line);
    return this.request(true);
  }

  /** Resolves once everything recorded so far is in the file, not necessarily forced. */
  flush(): Promise<void> {
    return this.request(false);
  }

  protected async release(): Promise<void> {
    // The file is not closed under a sync still using it.
    await this.#syncing;
    const handle = this.#handle;
    this.#handle = undefined;
    this.#released = true;
    await handle?.close().catch(() => undefined);
    if (this.#file.writer === this) this.#file.writer = undefined;
  }

  protected get pendingBytes(): number {
    return this.#batch.pending;
  }

  protected takeRound(): Buffer[] {
    return this.#batch.takeChunks();
  }

  protected clearBuffer(): void {
    this.#batch.clear();
  }

  protected override roundDone(chunks: Buffer[]): void {
    this.#pool.give(chunks);
  }

  /** One round; answers the failure that ends the writer, if any. */
  protected async writeRound(
    data: readonly Buffer[],
    sync: boolean,
  ): Promise<AppError | undefined> {
    // Nothing is taken after the close, so the last round before it wrote everything.
    if (this.#released) return undefined;
    let before: number | undefined;
    try {
      const handle = this.#handle ?? (await this.#open());
      before = this.#file.size;
      const size = data.reduce((total, chunk) => total + chunk.length, 0);
      if (size > 0) {
        await writeAll(handle, data);
        this.#grow(size);
      }
      this.#unsynced += size;
      if (sync) {
        this.#unsynced = 0;
        this.#tally.syncs++;
        // A marker is durable only once a group-commit sync under way has succeeded too:
        // after a failed one, pages written before this marker may be lost.
        await Promise.all([handle.sync(), this.#syncing]);
        return this.failure;
      }
      if (this.#unsynced >= SYNC_AFTER_BYTES && this.#syncing === undefined) {
        // A group-commit point: the writes of a long run reach the disk beside the next
        // rounds, instead of all at once when its first end marker has to wait for them.
        this.#unsynced = 0;
        this.#tally.syncs++;
        this.#syncing = handle.datasync().then(
          () => {
            this.#syncing = undefined;
          },
          (error: unknown) => {
            this.#syncing = undefined;
            this.#fail(error);
          },
        );
      }
      return undefined;
    } catch (error) {
      const failure = this.#fail(error);
      if (before !== undefined) await this.#cutBack(before);
      return failure;
    }
  }

  /** Ends the writer: the file may hold a torn line or have lost pages. */
  #fail(error: unknown): AppError {
    return this.fail(checkpointFailure(`cannot write checkpoints to '${this.#file.path}'`, error));
  }

  /**
   * Cuts off what a failed round may have left, so that none of its lines, its end markers
   * above all, reads back as saved. Best effort: the round has failed either way.
   */
  async #cutBack(size: number): Promise<void> {
    try {
      await this.#handle?.truncate(size);
      this.#grow(size - this.#file.size);
    } catch {
      // The rejection of the round's markers already tells the engine they are not saved.
    }
  }

  /** Opens the file for appending: a new file gets its header, a torn tail is cut off. */
  async #open(): Promise<FileHandle> {
    const handle = await open(this.#file.path, 'a+');
    try {
      const { size } = await handle.stat();
      const intact = size === 0 ? 0 : await intactLength(handle, size);
      if (intact < size) await handle.truncate(intact);
      this.#grow(intact - this.#file.size);
      if (intact === 0) {
        const header = Buffer.from(headerLine(this.#file.executionId), 'utf8');
        await writeAll(handle, header);
        this.#grow(header.length);
        // A new directory entry must be durable before the file's first fsync counts.
        await syncDirectory(this.#dir);
      }
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
    this.#handle = handle;
    return handle;
  }

  #grow(bytes: number): void {
    this.#file.size += bytes;
    this.#tally.bytes += bytes;
  }
}

/**
 * Records one node. A message that cannot be JSON fails the node rather than the caller:
 * record() never throws, nothing more of the node is written and its end() rejects.
 */
class FileNodeRecorder implements NodeRecorder {
  readonly #writer: FileCheckpointWriter;
  /** The start of every line of this node, made once. */
  readonly #head: string;
  /** The start of every message line of this node, made once. */
  readonly #prefix: string;
  #failure: AppError | undefined;

  constructor(writer: FileCheckpointWriter, head: string, prefix: string) {
    this.#writer = writer;
    this.#head = head;
    this.#prefix = prefix;
  }

  record(message: RecordingMessage): Promise<void> | undefined {
    if (this.#failure !== undefined) return undefined;
    let line: string;
    try {
      line = messageLine(this.#prefix, message);
    } catch (error) {
      this.#failure = checkpointFailure(`cannot store message '${message.id}' as JSON`, error);
      return undefined;
    }
    return this.#writer.append(line);
  }

  end(): Promise<void> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    return this.#writer.commit(endLine(this.#head));
  }
}
