// Dead letters in process memory, the default: lost on restart, and capped like the memory
// checkpoint store (docs/dead-letters.md): the letters of the newest executions only, and a
// number of letters per execution, so a node failing every message cannot fill the memory.
import type { DeadLetter, DeadLetterStore } from './dead-letter-store.js';
import { LetterIndex } from './letter-index.js';

export interface MemoryDeadLetterStoreOptions {
  /** `svc.restart.retained-executions`: executions whose letters are kept, newest first. */
  readonly maxExecutions: number;
  /** `svc.restart.messages-per-node`: letters kept per execution; later ones are let go. */
  readonly maxPerExecution: number;
  /** Told of every letter the caps let go (`svc.memory.dropped`). */
  readonly onDrop?: (letters: number) => void;
}

export class MemoryDeadLetterStore implements DeadLetterStore {
  readonly kind = 'memory';
  readonly durable = false;
  readonly #options: MemoryDeadLetterStoreOptions;
  readonly #index = new LetterIndex();
  /** Letter ids by execution, the oldest execution first: where room is made. */
  readonly #executions = new Map<string, Set<string>>();

  constructor(options: MemoryDeadLetterStoreOptions) {
    this.#options = options;
  }

  get size(): number {
    return this.#index.size;
  }

  open(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  add(letter: DeadLetter): Promise<void> {
    const { maxExecutions, maxPerExecution, onDrop } = this.#options;
    let held = this.#executions.get(letter.executionId);
    if (held === undefined) {
      held = new Set();
      this.#executions.set(letter.executionId, held);
      for (const [oldest] of this.#executions) {
        if (this.#executions.size <= maxExecutions) break;
        const dropped = this.#forget(oldest);
        if (dropped > 0) onDrop?.(dropped);
      }
    }
    if (held.size >= maxPerExecution && !held.has(letter.id)) {
      onDrop?.(1);
      return Promise.resolve();
    }
    held.add(letter.id);
    this.#index.set(letter);
    return Promise.resolve();
  }

  get(id: string): Promise<DeadLetter | undefined> {
    return Promise.resolve(this.#index.get(id));
  }

  list(...args: Parameters<LetterIndex['list']>): ReturnType<DeadLetterStore['list']> {
    return Promise.resolve(this.#index.list(...args));
  }

  markRedriven(id: string, executionId: string, at: string): Promise<DeadLetter | undefined> {
    const letter = this.#index.get(id);
    if (letter === undefined) return Promise.resolve(undefined);
    const marked = { ...letter, redrivenAs: executionId, redrivenAt: at };
    this.#index.set(marked);
    return Promise.resolve(marked);
  }

  delete(id: string): Promise<boolean> {
    const letter = this.#index.get(id);
    if (letter === undefined) return Promise.resolve(false);
    this.#index.delete(id);
    this.#executions.get(letter.executionId)?.delete(id);
    return Promise.resolve(true);
  }

  drop(executionId: string): Promise<void> {
    this.#forget(executionId);
    return Promise.resolve();
  }

  #forget(executionId: string): number {
    const held = this.#executions.get(executionId);
    this.#executions.delete(executionId);
    if (held === undefined) return 0;
    for (const id of held) this.#index.delete(id);
    return held.size;
  }
}
