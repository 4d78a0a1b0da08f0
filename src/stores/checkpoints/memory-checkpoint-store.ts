// Checkpoint store held in process memory (SPEC "Checkpoint caps and stores"), the default:
// capped per node and execution, lost on restart. With a spill directory, output beyond a cap
// goes to a spill file instead of being dropped, so the node can still be replayed.
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { randomSuffix } from '../file/write-file-atomic.js';
import type {
  CheckpointStore,
  CheckpointWriter,
  NodeCheckpointSummary,
  NodeRecorder,
  RecordedApproval,
  RecordedMessage,
  RecordingMessage,
} from '../../engine/index.js';
import { checkpointFailure } from './checkpoint-errors.js';
import { SPILL_FILE_PREFIX, SpillFile } from './spill-file.js';

const SETTLED: Promise<void> = Promise.resolve();

export const DEFAULT_MESSAGES_PER_NODE = 200;
export const DEFAULT_BYTES_PER_NODE = 4 * 1024 * 1024;
/** What a payload that is neither a string nor a byte array counts (SPEC: 1 KiB each). */
export const OTHER_PAYLOAD_BYTES = 1024;

export interface MemoryCheckpointStoreOptions {
  /** Messages held per node and execution; one more puts the node over its cap. */
  readonly messagesPerNode?: number;
  /** Bytes held per node and execution, as `countedPayloadBytes` counts them. */
  readonly bytesPerNode?: number;
  /**
   * Where output beyond a cap is spilled; the store is then of kind `spill`. Spilled output
   * is kept as JSON lines, so it reads back as the file store's would. One store per
   * directory: `open()` and `close()` delete every spill file in it.
   */
  readonly spillDir?: string | null;
  /**
   * `svc.restart.max-bytes`: output held in memory over all executions, payloads counted by
   * the engine's measure of their JSON length (not SPEC's per-node count, which counts an
   * object 1 KiB however large). Beyond it the oldest executions lose their output first.
   */
  readonly maxBytes?: number;
  /** Told how many held messages the byte budget let go (`svc.memory.dropped`). */
  readonly onBudgetDrop?: (messages: number) => void;
}

/**
 * The size a payload counts against `bytesPerNode`. A string counts its length in UTF-16
 * code units: exact for ASCII, and reading it costs nothing, where a UTF-8 byte count would
 * scan every string on the hot path. Byte arrays count their bytes, anything else 1 KiB.
 */
export function countedPayloadBytes(payload: unknown): number {
  if (typeof payload === 'string') return payload.length;
  if (ArrayBuffer.isView(payload)) return payload.byteLength;
  return OTHER_PAYLOAD_BYTES;
}

/** Caps, the running byte total and the spill files of one store, shared by its nodes. */
class Holdings {
  /** Counted bytes of output held in memory, over every node (`svc.checkpoint.bytes`). */
  bytes = 0;
  readonly messagesPerNode: number;
  readonly bytesPerNode: number;
  readonly spillDir: string | null;
  /** Measured bytes of the output held in memory, over every node, and their budget. */
  measured = 0;
  readonly maxBytes: number;
  readonly onBudgetDrop: ((messages: number) => void) | undefined;
  /** The store's executions, oldest first: where room is made. */
  readonly executions = new Map<string, MemoryExecution>();
  readonly #discarding = new Set<Promise<void>>();
  /** Names spill files uniquely within the directory without asking the file system. */
  readonly #spillPrefix = `${SPILL_FILE_PREFIX}${randomSuffix()}-`;
  #spillCount = 0;

  constructor(options: MemoryCheckpointStoreOptions) {
    this.messagesPerNode = options.messagesPerNode ?? DEFAULT_MESSAGES_PER_NODE;
    this.bytesPerNode = options.bytesPerNode ?? DEFAULT_BYTES_PER_NODE;
    this.spillDir = options.spillDir ?? null;
    this.maxBytes = options.maxBytes ?? Infinity;
    this.onBudgetDrop = options.onBudgetDrop;
  }

  /**
   * Makes room for `size` more measured bytes by letting go of the output of executions
   * older than `current`, oldest first; answers whether it fits then. The current execution
   * keeps what it holds: its node that does not fit goes over its cap instead.
   */
  makeRoom(size: number, current: MemoryExecution): boolean {
    if (this.measured + size <= this.maxBytes) return true;
    let dropped = 0;
    for (const execution of this.executions.values()) {
      if (execution === current) break;
      for (const node of execution.nodes.values()) {
        dropped += node.evict();
        if (this.measured + size <= this.maxBytes) break;
      }
      if (this.measured + size <= this.maxBytes) break;
    }
    if (dropped > 0) this.onBudgetDrop?.(dropped);
    return this.measured + size <= this.maxBytes;
  }

  newSpillFile(spillDir: string): SpillFile {
    return new SpillFile(path.join(spillDir, `${this.#spillPrefix}${++this.#spillCount}`));
  }

  discard(spill: SpillFile): void {
    const discarding = spill.discard().finally(() => {
      this.#discarding.delete(discarding);
    });
    this.#discarding.add(discarding);
  }

  /**
   * Resolves once every spill file discarded so far is gone. Nearly always none is: a run that
   * spilled nothing leaves the archive for the cost of one settled promise, shared.
   */
  discarded(): Promise<void> {
    return this.#discarding.size === 0 ? SETTLED : this.#discardedAll();
  }

  async #discardedAll(): Promise<void> {
    while (this.#discarding.size > 0) await Promise.all(this.#discarding);
  }
}

/** One execution's checkpoints, and the writer recording them. */
class MemoryExecution implements CheckpointWriter {
  readonly holdings: Holdings;
  /** In the order nodes were first recorded; a node recorded again keeps its place. */
  readonly nodes = new Map<string, MemoryNode>();
  readonly approvals: RecordedApproval[] = [];
  /** False once the writer closed or the execution was dropped: nothing more is taken. */
  accepting = true;

  constructor(holdings: Holdings) {
    this.holdings = holdings;
  }

  /**
   * A node recorded again (by the writer of a resumed run) starts afresh: the run emits its
   * whole output again, replayed or computed, so the old output would be doubled.
   */
  node(nodeId: string): NodeRecorder {
    const node = new MemoryNode(this);
    if (!this.accepting) return node;
    this.nodes.get(nodeId)?.release();
    this.nodes.set(nodeId, node);
    return node;
  }

  approval(answer: RecordedApproval): Promise<void> | undefined {
    if (!this.accepting) return Promise.reject(writerClosed());
    this.approvals.push(answer);
    return undefined;
  }

  close(): Promise<void> {
    this.accepting = false;
    return Promise.resolve();
  }

  release(): void {
    this.accepting = false;
    for (const node of this.nodes.values()) node.release();
  }
}

/**
 * One node's output. Held messages are the objects the engine emitted, not copies: copying
 * every message would cost more than recording it, and emitted messages are not changed.
 */
class MemoryNode implements NodeRecorder {
  readonly #execution: MemoryExecution;
  /** Undefined once the node went over a cap (truncated or spilled) or was released. */
  #held: RecordedMessage[] | undefined = [];
  #spill: SpillFile | undefined;
  #messages = 0;
  /** Counted bytes of the output held, in memory or in the spill file. */
  #bytes = 0;
  /** Measured bytes of the output held in memory (`Holdings.maxBytes`). */
  #measured = 0;
  #truncated = false;
  #complete = false;

  constructor(execution: MemoryExecution) {
    this.#execution = execution;
  }

  record(message: RecordingMessage): undefined {
    const execution = this.#execution;
    if (!execution.accepting) return;
    this.#messages++;
    const size = countedPayloadBytes(message.payload);
    const held = this.#held;
    if (held !== undefined) {
      const holdings = execution.holdings;
      const measured = message.size ?? size;
      if (
        held.length < holdings.messagesPerNode &&
        this.#bytes + size <= holdings.bytesPerNode &&
        holdings.makeRoom(measured, execution)
      ) {
        held.push(message);
        this.#bytes += size;
        holdings.bytes += size;
        this.#measured += measured;
        holdings.measured += measured;
      } else {
        this.#overCap(held, message, size);
      }
    } else if (this.#spill !== undefined) {
      this.#spill.append(message);
      this.#bytes += size;
    }
  }

  end(): Promise<void> | undefined {
    if (!this.#execution.accepting) return Promise.reject(writerClosed());
    const spill = this.#spill;
    if (spill === undefined) {
      // A truncated node takes its marker but stays incomplete: its output is not all held.
      this.#complete = !this.#truncated;
      return undefined;
    }
    return spill.finish().then(() => {
      if (this.#spill === spill) this.#complete = true;
    });
  }

  summary(nodeId: string): NodeCheckpointSummary {
    return {
      nodeId,
      messages: this.#messages,
      bytes: this.#bytes,
      complete: this.#complete,
      truncated: this.#truncated || this.#spill?.failed === true,
    };
  }

  output():
    Promise<readonly RecordedMessage[] | undefined> | readonly RecordedMessage[] | undefined {
    if (!this.#complete) return undefined;
    const spill = this.#spill;
    // Output spilled after its end marker (to make room) may still be on its way to the file.
    if (spill !== undefined) return spill.finish().then(() => spill.read());
    return this.#held?.slice();
  }

  /** Lets go of the output: its bytes leave the total and its spill file is deleted. */
  release(): void {
    const holdings = this.#execution.holdings;
    this.#letGoOfHeld();
    if (this.#spill !== undefined) holdings.discard(this.#spill);
    this.#spill = undefined;
    this.#bytes = 0;
    this.#complete = false;
  }

  /**
   * The store's byte budget needs room: output held in memory goes to a spill file, or
   * without a spill directory is dropped and the node is left truncated. Answers how many
   * messages left memory.
   */
  evict(): number {
    const held = this.#held;
    if (held === undefined || held.length === 0) return 0;
    this.#overCap(held, undefined, 0);
    return held.length;
  }

  /** The output held in memory leaves the store's totals. */
  #letGoOfHeld(): void {
    const holdings = this.#execution.holdings;
    if (this.#held !== undefined) holdings.bytes -= this.#bytes;
    holdings.measured -= this.#measured;
    this.#measured = 0;
    this.#held = undefined;
  }

  #overCap(held: RecordedMessage[], message: RecordedMessage | undefined, size: number): void {
    const holdings = this.#execution.holdings;
    this.#letGoOfHeld();
    if (holdings.spillDir === null) {
      this.#truncated = true;
      this.#complete = false;
      this.#bytes = 0;
      return;
    }
    const spill = holdings.newSpillFile(holdings.spillDir);
    for (const earlier of held) spill.append(earlier);
    if (message !== undefined) spill.append(message);
    this.#spill = spill;
    this.#bytes += size;
  }
}

function writerClosed(): Error {
  return checkpointFailure('the checkpoint writer is closed');
}

/** Memory checkpoints (`kind: 'memory'`), or with `spillDir` memory with spill files (`spill`). */
export class MemoryCheckpointStore implements CheckpointStore {
  readonly kind: 'memory' | 'spill';
  readonly durable = false;
  readonly #holdings: Holdings;
  readonly #executions: Map<string, MemoryExecution>;

  constructor(options: MemoryCheckpointStoreOptions = {}) {
    this.#holdings = new Holdings(options);
    this.#executions = this.#holdings.executions;
    this.kind = this.#holdings.spillDir === null ? 'memory' : 'spill';
  }

  get bytes(): number {
    return this.#holdings.bytes;
  }

  /** Creates the spill directory and deletes spill files an earlier process left in it. */
  async open(): Promise<void> {
    const spillDir = this.#holdings.spillDir;
    if (spillDir === null) return;
    let names: string[];
    try {
      await mkdir(spillDir, { recursive: true });
      names = await readdir(spillDir);
    } catch (error) {
      throw checkpointFailure(`cannot open the spill directory '${spillDir}'`, error);
    }
    for (const name of names) {
      if (name.startsWith(SPILL_FILE_PREFIX)) {
        this.#holdings.discard(new SpillFile(path.join(spillDir, name)));
      }
    }
    await this.#holdings.discarded();
  }

  /** Forgets every execution, as a restart would, and deletes the spill files. */
  async close(): Promise<void> {
    for (const execution of this.#executions.values()) execution.release();
    this.#executions.clear();
    await this.#holdings.discarded();
  }

  /** An execution recorded before is continued: its nodes start afresh when recorded again. */
  writer(executionId: string): CheckpointWriter {
    let execution = this.#executions.get(executionId);
    if (execution === undefined) {
      execution = new MemoryExecution(this.#holdings);
      this.#executions.set(executionId, execution);
    }
    execution.accepting = true;
    return execution;
  }

  summary(executionId: string): Promise<readonly NodeCheckpointSummary[] | undefined> {
    const execution = this.#executions.get(executionId);
    if (execution === undefined) return Promise.resolve(undefined);
    return Promise.resolve(Array.from(execution.nodes, ([nodeId, node]) => node.summary(nodeId)));
  }

  async output(
    executionId: string,
    nodeId: string,
  ): Promise<readonly RecordedMessage[] | undefined> {
    return this.#executions.get(executionId)?.nodes.get(nodeId)?.output();
  }

  approvals(executionId: string): Promise<readonly RecordedApproval[]> {
    return Promise.resolve(this.#executions.get(executionId)?.approvals.slice() ?? []);
  }

  drop(executionId: string): Promise<void> {
    const execution = this.#executions.get(executionId);
    if (execution === undefined) return SETTLED;
    this.#executions.delete(executionId);
    execution.release();
    return this.#holdings.discarded();
  }

  executions(): Promise<readonly string[]> {
    return Promise.resolve([...this.#executions.keys()]);
  }
}
