// One node's output beyond the memory checkpoint store's caps, kept in a file until the
// execution is dropped. Not durable: nothing is fsynced, and the store deletes every spill
// file when it opens or closes, since a restart forgets the memory part of the output anyway.
import { open, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import type { AppError } from '../../core/index.js';
import type { RecordedMessage } from '../../engine/index.js';
import { checkpointDamaged, checkpointFailure } from './checkpoint-errors.js';
import { forEachLine, messageJson, readMessageJson } from './checkpoint-lines.js';
import { LineBatch } from './line-batch.js';
import { writeAll } from '../file/write-all.js';

/** Every spill file's name starts so; the store removes such files as its own leftovers. */
export const SPILL_FILE_PREFIX = 'checkpoint-spill-';

/** Appends are gathered into writes of about this many bytes, not one call a message. */
const BATCH_BYTES = 64 * 1024;

/**
 * One JSON message a line, as the file store writes them: several times faster than a V8
 * serialisation, and a spilled node replays what a durable store would give back.
 */
export class SpillFile {
  readonly path: string;
  readonly #batch = new LineBatch();
  #handle: FileHandle | undefined;
  #writing: Promise<void> | undefined;
  /** Set once a message could not be spilled: the node's output is no longer whole. */
  #failure: AppError | undefined;

  constructor(path: string) {
    this.path = path;
  }

  get failed(): boolean {
    return this.#failure !== undefined;
  }

  /** Never throws: a message that cannot be spilled fails the file, and `finish()` says so. */
  append(message: RecordedMessage): void {
    if (this.#failure !== undefined) return;
    try {
      this.#batch.append(`${messageJson(message)}\n`);
    } catch (error) {
      this.#failure = checkpointFailure(`cannot spill message '${message.id}' as JSON`, error);
      this.#batch.clear();
      return;
    }
    if (this.#batch.pending >= BATCH_BYTES) void this.#startWriting(BATCH_BYTES);
  }

  /** Resolves once everything appended so far is in the file, readable by `read()`. */
  async finish(): Promise<void> {
    while (this.#writing !== undefined || (this.#batch.bytes > 0 && !this.failed)) {
      await this.#startWriting(1);
    }
    if (this.#failure !== undefined) throw this.#failure;
  }

  async read(): Promise<RecordedMessage[]> {
    const messages: RecordedMessage[] = [];
    let found: boolean;
    try {
      found = await forEachLine(this.path, (line, lineNumber) => {
        const message = readMessageJson(line);
        if (message === undefined) {
          throw checkpointDamaged(this.path, `line ${lineNumber} is not a message`);
        }
        messages.push(message);
      });
    } catch (error) {
      throw checkpointFailure(`cannot read the spill file '${this.path}'`, error);
    }
    if (!found) throw checkpointFailure(`the spill file '${this.path}' is gone`);
    return messages;
  }

  /** Stops taking messages, waits for the write under way and deletes the file. */
  async discard(): Promise<void> {
    this.#failure ??= checkpointFailure(`the spill file '${this.path}' was discarded`);
    this.#batch.clear();
    await this.#writing;
    await this.#handle?.close().catch(() => undefined);
    this.#handle = undefined;
    // A file left behind is the store's leftover: its next open() deletes it.
    await rm(this.path, { force: true }).catch(() => undefined);
  }

  /**
   * One drain at a time; it forgets itself only once settled, so a waiter never spins. It
   * goes on while `least` bytes are held: a batch, or on finish() everything.
   */
  #startWriting(least: number): Promise<void> {
    this.#writing ??= this.#drain(least).finally(() => {
      this.#writing = undefined;
    });
    return this.#writing;
  }

  async #drain(least: number): Promise<void> {
    while (this.#batch.bytes >= least && this.#failure === undefined) {
      const data = this.#batch.take();
      try {
        this.#handle ??= await open(this.path, 'w');
        await writeAll(this.#handle, data);
      } catch (error) {
        this.#failure ??= checkpointFailure(`cannot write the spill file '${this.path}'`, error);
      }
    }
  }
}
