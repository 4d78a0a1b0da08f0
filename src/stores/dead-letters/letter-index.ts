// The letters a memory or file dead-letter store holds, in list order, with the paging both
// answer the same way.
import { matchesFilter, newestFirst } from './dead-letter-store.js';
import type {
  DeadLetter,
  DeadLetterFilter,
  DeadLetterPageRequest,
  DeadLetterStoreList,
} from './dead-letter-store.js';

export class LetterIndex {
  readonly #letters = new Map<string, DeadLetter>();

  get size(): number {
    return this.#letters.size;
  }

  get(id: string): DeadLetter | undefined {
    return this.#letters.get(id);
  }

  set(letter: DeadLetter): void {
    this.#letters.set(letter.id, letter);
  }

  delete(id: string): boolean {
    return this.#letters.delete(id);
  }

  /** Every letter, oldest kept first (insertion order). */
  all(): IterableIterator<DeadLetter> {
    return this.#letters.values();
  }

  list(filter: DeadLetterFilter, { limit, after }: DeadLetterPageRequest): DeadLetterStoreList {
    let found = [...this.#letters.values()]
      .filter((letter) => matchesFilter(letter, filter))
      .sort(newestFirst);
    if (after !== undefined) found = found.filter((letter) => newestFirst(after, letter) < 0);
    return { letters: found.slice(0, limit), more: found.length > limit };
  }
}
