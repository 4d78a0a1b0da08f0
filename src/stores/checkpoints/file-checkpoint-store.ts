// Checkpoint store on the local file system (`svc.restart.dir`): one file per execution, one
// JSON line per record, no caps. Its writers (file-checkpoint-writer.ts) buffer records and
// write them in batches; reads go to the files.
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type {
  CheckpointStore,
  CheckpointWriter,
  NodeCheckpointSummary,
  RecordedApproval,
  RecordedMessage,
} from '../../engine/index.js';
import { fileNameForId } from '../file/file-name-for-id.js';
import type { SkippedLinesListener } from '../file/skipped-lines.js';
import { isNotFound, syncDirectory } from '../file/write-file-atomic.js';
import { checkpointDamaged, checkpointFailure } from './checkpoint-errors.js';
import { readFirstLine } from './checkpoint-file-ends.js';
import type { FirstLine } from './checkpoint-file-ends.js';
import {
  damagedLine,
  forEachLine,
  readApproval,
  readHeader,
  readLineHead,
  readMessage,
} from './checkpoint-lines.js';
import { ChunkPool } from './line-batch.js';
import { FileCheckpointWriter, POOL_BYTES } from './file-checkpoint-writer.js';
import type { ByteTally, ExecutionFile } from './file-checkpoint-writer.js';

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
