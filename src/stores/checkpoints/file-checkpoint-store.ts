// Checkpoint store on the local file system (`svc.restart.dir`): one file per execution, one
// JSON line per record, no caps. Records are buffered and written in batches; an end marker
// or approval is forced to storage with fsync, one fsync serving every marker that waits.
import { mkdir, open, readdir, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
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
import { fileNameForId } from '../file/file-name-for-id.js';
import { isNotFound, syncDirectory } from '../file/write-file-atomic.js';
import { checkpointDamaged, checkpointFailure } from './checkpoint-errors.js';
import {
  approvalLine,
  beginLine,
  damagedLine,
  endLine,
  forEachLine,
  headerLine,
  messageLine,
  messageLinePrefix,
  nodeLineHead,
  readApproval,
  readHeader,
  readLineHead,
  readMessage,
} from './checkpoint-lines.js';
import { ChunkPool, LineBatch } from './line-batch.js';
import { RoundPump } from './round-pump.js';
import { writeAll } from '../file/write-all.js';
import type { SkippedLinesListener } from '../file/skipped-lines.js';

export interface FileCheckpointStoreOptions {
  /** Created by `open()` when missing; resolved against the working directory. */
  readonly dir: string;
  /**
   * Files whose last line a crash tore were found at open: a torn header (the file is
   * removed: nothing in it was acknowledged) or a torn tail (skipped when read, cut off when
   * the file is written again).
   */
  readonly onSkippedLines?: SkippedLinesListener;
}

export const CHECKPOINT_FILE_EXTENSION = '.jsonl';

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
const POOL_BYTES = 2 * HIGH_WATER_BYTES;
const READ_CHUNK_BYTES = 64 * 1024;
const NEWLINE = 0x0a;

/** What the store knows of one execution's file. */
interface ExecutionFile {
  readonly executionId: string;
  readonly path: string;
  /** Bytes in the file, as found by `open()` and grown by this process's writes. */
  size: number;
  /** The writer recording into the file, until it closes. */
  writer: FileCheckpointWriter | undefined;
}

/** The store's byte total (`svc.checkpoint.bytes`) and syncs, kept up to date by its writers. */
interface ByteTally {
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
class FileCheckpointWriter extends RoundPump<Buffer[]> implements CheckpointWriter {
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

/** Per node while reading a file. */
interface NodeTally {
  messages: number;
  bytes: number;
  complete: boolean;
}

/**
 * Durable checkpoints, one `<fileNameForId(execution)>.jsonl` per execution in `dir`. Reads
 * go to the file, after the writer of a running execution has handed it what it buffered.
 * One process at a time may use a directory.
 */
export class FileCheckpointStore implements CheckpointStore {
  readonly kind = 'file';
  readonly durable = true;
  readonly #dir: string;
  readonly #onSkippedLines: SkippedLinesListener | undefined;
  readonly #tally: ByteTally = { bytes: 0, syncs: 0 };
  readonly #pool = new ChunkPool(POOL_BYTES);
  #files: Map<string, ExecutionFile> | undefined;
  #opening: Promise<void> | undefined;

  constructor(options: FileCheckpointStoreOptions) {
    this.#dir = path.resolve(options.dir);
    this.#onSkippedLines = options.onSkippedLines;
  }

  get dir(): string {
    return this.#dir;
  }

  get bytes(): number {
    return this.#tally.bytes;
  }

  /** File syncs done so far, for the benchmarks' fsyncs per second. */
  get syncs(): number {
    return this.#tally.syncs;
  }

  open(): Promise<void> {
    if (this.#files !== undefined) return Promise.resolve();
    this.#opening ??= this.#load().finally(() => {
      this.#opening = undefined;
    });
    return this.#opening;
  }

  /**
   * Closes every writer. A writer that cannot write its last lines does not fail the close:
   * its markers were rejected already, and lines without a marker make no node complete.
   */
  async close(): Promise<void> {
    await this.#opening?.catch(() => undefined);
    const files = this.#files;
    if (files === undefined) return;
    this.#files = undefined;
    await Promise.allSettled([...files.values()].flatMap((file) => file.writer?.close() ?? []));
  }

  /** Appends to the file of an execution recorded before, e.g. before a restart. */
  writer(executionId: string): CheckpointWriter {
    const files = this.#openFiles();
    let file = files.get(executionId);
    if (file === undefined) {
      file = {
        executionId,
        path: path.join(this.#dir, fileNameForId(executionId) + CHECKPOINT_FILE_EXTENSION),
        size: 0,
        writer: undefined,
      };
      files.set(executionId, file);
    }
    file.writer ??= new FileCheckpointWriter(file, this.#tally, this.#dir, this.#pool);
    return file.writer;
  }

  async summary(executionId: string): Promise<readonly NodeCheckpointSummary[] | undefined> {
    const file = this.#openFiles().get(executionId);
    if (file === undefined) return undefined;
    const nodes = new Map<string, NodeTally>();
    const found = await this.#readLines(file, (line, lineNumber) => {
      const head = readLineHead(line);
      if (head === undefined) throw damagedLine(file.path, lineNumber);
      if (head.kind === 'header' || head.kind === 'approval') return;
      let node = nodes.get(head.nodeId);
      if (node === undefined || head.kind === 'begin') {
        // Setting an existing key keeps its place: the order is that of first recording.
        node = { messages: 0, bytes: 0, complete: false };
        nodes.set(head.nodeId, node);
      }
      if (head.kind === 'message') {
        node.messages++;
        node.bytes += line.length + 1;
      } else if (head.kind === 'end') {
        node.complete = true;
      }
    });
    if (!found) return undefined;
    return Array.from(nodes, ([nodeId, node]) => ({ nodeId, ...node, truncated: false }));
  }

  async output(
    executionId: string,
    nodeId: string,
  ): Promise<readonly RecordedMessage[] | undefined> {
    const file = this.#openFiles().get(executionId);
    if (file === undefined) return undefined;
    const node = { messages: [] as RecordedMessage[], complete: false };
    await this.#readLines(file, (line, lineNumber) => {
      const head = readLineHead(line);
      if (head === undefined) throw damagedLine(file.path, lineNumber);
      if (head.kind === 'header' || head.kind === 'approval' || head.nodeId !== nodeId) return;
      if (head.kind === 'begin') {
        node.messages = [];
        node.complete = false;
      } else if (head.kind === 'end') {
        node.complete = true;
      } else {
        const message = readMessage(line);
        if (message === undefined) throw damagedLine(file.path, lineNumber);
        node.messages.push(message);
      }
    });
    return node.complete ? node.messages : undefined;
  }

  async approvals(executionId: string): Promise<readonly RecordedApproval[]> {
    const file = this.#openFiles().get(executionId);
    if (file === undefined) return [];
    const approvals: RecordedApproval[] = [];
    await this.#readLines(file, (line, lineNumber) => {
      const head = readLineHead(line);
      if (head === undefined) throw damagedLine(file.path, lineNumber);
      if (head.kind !== 'approval') return;
      const approval = readApproval(line);
      if (approval === undefined) throw damagedLine(file.path, lineNumber);
      approvals.push(approval);
    });
    return approvals;
  }

  async drop(executionId: string): Promise<void> {
    const files = this.#openFiles();
    const file = files.get(executionId);
    if (file === undefined) return;
    await file.writer?.discard();
    try {
      await rm(file.path, { force: true });
      await syncDirectory(this.#dir);
    } catch (error) {
      throw checkpointFailure(`cannot remove the checkpoint file '${file.path}'`, error);
    }
    if (files.get(executionId) === file) files.delete(executionId);
    this.#tally.bytes -= file.size;
    file.size = 0;
  }

  executions(): Promise<readonly string[]> {
    return new Promise((resolve) => {
      resolve([...this.#openFiles().keys()]);
    });
  }

  #openFiles(): Map<string, ExecutionFile> {
    if (this.#files === undefined) {
      throw checkpointFailure(`the checkpoint store at '${this.#dir}' is not open`);
    }
    return this.#files;
  }

  /** Visits the complete lines of an execution's file; false when the file is gone. */
  async #readLines(
    file: ExecutionFile,
    visit: (line: Buffer, lineNumber: number) => void,
  ): Promise<boolean> {
    // A broken writer has nothing to hand over; what the file holds is still read.
    await file.writer?.flush().catch(() => undefined);
    try {
      return await forEachLine(file.path, visit);
    } catch (error) {
      throw checkpointFailure(`cannot read the checkpoint file '${file.path}'`, error);
    }
  }

  async #load(): Promise<void> {
    let names: string[];
    try {
      await mkdir(this.#dir, { recursive: true });
      names = await readdir(this.#dir);
    } catch (error) {
      throw checkpointFailure(`cannot open the checkpoint directory '${this.#dir}'`, error);
    }
    const files = new Map<string, ExecutionFile>();
    const torn: string[] = [];
    let bytes = 0;
    // One file at a time: bounded open files, and the same damaged file named on every try.
    for (const name of names.sort()) {
      if (!name.endsWith(CHECKPOINT_FILE_EXTENSION)) continue;
      const file = await this.#loadFile(name, torn);
      if (file === undefined) continue;
      files.set(file.executionId, file);
      bytes += file.size;
    }
    this.#tally.bytes = bytes;
    this.#files = files;
    if (torn.length > 0) this.#onSkippedLines?.({ lines: torn.length, files: torn });
  }

  /** Reads a file's header; adds its path to `torn` when a crash tore its last line. */
  async #loadFile(name: string, torn: string[]): Promise<ExecutionFile | undefined> {
    const filePath = path.join(this.#dir, name);
    let first: FirstLine;
    try {
      first = await readFirstLine(filePath);
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw checkpointFailure(`cannot read the checkpoint file '${filePath}'`, error);
    }
    if (first.line === undefined || first.torn) torn.push(filePath);
    if (first.line === undefined) {
      // The header is torn: the process died creating the file, before anything in it was
      // acknowledged.
      try {
        await rm(filePath, { force: true });
      } catch (error) {
        throw checkpointFailure(`cannot remove the leftover '${filePath}'`, error);
      }
      return undefined;
    }
    const executionId = readHeader(first.line);
    if (executionId === undefined) {
      throw checkpointDamaged(filePath, 'the first line is not a checkpoint file header');
    }
    if (fileNameForId(executionId) + CHECKPOINT_FILE_EXTENSION !== name) {
      throw checkpointDamaged(filePath, `execution id '${executionId}' does not belong in it`);
    }
    return { executionId, path: filePath, size: first.size, writer: undefined };
  }
}

interface FirstLine {
  /** Without its newline; undefined when the file has no complete line. */
  readonly line: Buffer | undefined;
  readonly size: number;
  /** The file does not end on a newline: its last line was torn by a crash mid-write. */
  readonly torn: boolean;
}

async function readFirstLine(file: string): Promise<FirstLine> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const pieces: Buffer[] = [];
    let position = 0;
    while (position < size) {
      const chunk = Buffer.allocUnsafe(Math.min(READ_CHUNK_BYTES, size - position));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
      if (bytesRead === 0) break;
      const piece = chunk.subarray(0, bytesRead);
      const newline = piece.indexOf(NEWLINE);
      if (newline !== -1) {
        pieces.push(piece.subarray(0, newline));
        return { line: Buffer.concat(pieces), size, torn: await tornAtEnd(handle, size) };
      }
      pieces.push(piece);
      position += bytesRead;
    }
    return { line: undefined, size, torn: size > 0 };
  } finally {
    await handle.close();
  }
}

/** Whether the file's last byte is not a newline: every write ends on one. */
async function tornAtEnd(handle: FileHandle, size: number): Promise<boolean> {
  const last = Buffer.alloc(1);
  const { bytesRead } = await handle.read(last, 0, 1, size - 1);
  return bytesRead === 1 && last[0] !== NEWLINE;
}

/** The length of the file up to and including its last newline: without a torn tail. */
async function intactLength(handle: FileHandle, size: number): Promise<number> {
  const chunk = Buffer.allocUnsafe(Math.min(READ_CHUNK_BYTES, size));
  let end = size;
  while (end > 0) {
    const length = Math.min(chunk.length, end);
    const start = end - length;
    const { bytesRead } = await handle.read(chunk, 0, length, start);
    const newline = chunk.subarray(0, bytesRead).lastIndexOf(NEWLINE);
    if (newline !== -1) return start + newline + 1;
    end = start;
  }
  return 0;
}
