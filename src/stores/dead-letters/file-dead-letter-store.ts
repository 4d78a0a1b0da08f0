// Dead letters on the local file system, beside the file checkpoints (`svc.restart.dir`): one
// JSON file per letter in its `dead-letters` directory, replaced atomically, so a crash leaves
// each letter as it was or as it became. The index is loaded by `open()`.
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { AppError, KeyedLock, isAppError, messageOf } from '../../core/index.js';
import { fileNameForId } from '../file/file-name-for-id.js';
import { TEMPORARY_SUFFIX, syncDirectory, writeFileAtomic } from '../file/write-file-atomic.js';
import type { DeadLetter, DeadLetterStore } from './dead-letter-store.js';
import { LetterIndex } from './letter-index.js';

const LETTER_EXTENSION = '.json';

export class FileDeadLetterStore implements DeadLetterStore {
  readonly kind = 'file';
  readonly durable = true;
  readonly #dir: string;
  readonly #index = new LetterIndex();
  readonly #lock = new KeyedLock();

  /** `dir`: the directory of the letters, created by `open()` when missing. */
  constructor(dir: string) {
    this.#dir = path.resolve(dir);
  }

  get size(): number {
    return this.#index.size;
  }

  async open(): Promise<void> {
    try {
      await mkdir(this.#dir, { recursive: true });
      for (const name of await readdir(this.#dir)) {
        const file = path.join(this.#dir, name);
        // A write a crash cut off left its temporary file; the letter is as it was before.
        if (name.endsWith(TEMPORARY_SUFFIX)) await rm(file, { force: true });
        else if (name.endsWith(LETTER_EXTENSION)) this.#index.set(await readLetter(file));
      }
    } catch (error) {
      throw asStoreFailure(error, `cannot load the dead letters in '${this.#dir}'`);
    }
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  /** Listed once durable, so that what a list shows survives a crash. */
  add(letter: DeadLetter): Promise<void> {
    return this.#lock.run(letter.id, () => this.#write(letter));
  }

  get(id: string): Promise<DeadLetter | undefined> {
    return Promise.resolve(this.#index.get(id));
  }

  list(...args: Parameters<LetterIndex['list']>): ReturnType<DeadLetterStore['list']> {
    return Promise.resolve(this.#index.list(...args));
  }

  markRedriven(id: string, executionId: string, at: string): Promise<DeadLetter | undefined> {
    return this.#lock.run(id, async () => {
      const letter = this.#index.get(id);
      if (letter === undefined) return undefined;
      const marked = { ...letter, redrivenAs: executionId, redrivenAt: at };
      await this.#write(marked);
      return marked;
    });
  }

  delete(id: string): Promise<boolean> {
    return this.#lock.run(id, async () => {
      if (this.#index.get(id) === undefined) return false;
      try {
        await rm(this.#fileOf(id), { force: true });
        await syncDirectory(this.#dir);
      } catch (error) {
        throw asStoreFailure(error, `cannot delete dead letter '${id}'`);
      }
      this.#index.delete(id);
      return true;
    });
  }

  async drop(executionId: string): Promise<void> {
    const ids = [...this.#index.all()]
      .filter((letter) => letter.executionId === executionId)
      .map((letter) => letter.id);
    for (const id of ids) await this.delete(id);
  }

  /** Under the letter's lock: writes it, then lists it. */
  async #write(letter: DeadLetter): Promise<void> {
    try {
      await writeFileAtomic(this.#fileOf(letter.id), JSON.stringify(letter));
    } catch (error) {
      throw asStoreFailure(error, `cannot write dead letter '${letter.id}'`);
    }
    this.#index.set(letter);
  }

  #fileOf(id: string): string {
    return path.join(this.#dir, fileNameForId(id) + LETTER_EXTENSION);
  }
}

async function readLetter(file: string): Promise<DeadLetter> {
  const text = await readFile(file, 'utf8');
  try {
    const letter = JSON.parse(text) as DeadLetter;
    if (typeof letter.id !== 'string' || typeof letter.executionId !== 'string') {
      throw new Error('it is not a dead letter');
    }
    return letter;
  } catch (error) {
    throw new AppError('STORE_DAMAGED', { params: { file, detail: messageOf(error) } });
  }
}

function asStoreFailure(error: unknown, action: string): AppError {
  if (isAppError(error)) return error;
  return new AppError('STORE_FAILED', { params: { detail: `${action}: ${messageOf(error)}` } });
}
