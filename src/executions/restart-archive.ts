// The archive of SPEC Restart rule 1: the newest executions that can be restarted, with what a
// restart needs of each, bounded by `svc.restart.retained-executions`.
import type { Launch } from './launch.js';

/** What a restart needs of an execution it can restart. */
export interface Archived {
  readonly launch: Launch;
  readonly lineage: string;
  /** The execution whose checkpoints this one's left-out nodes can be found in. */
  readonly source: string | null;
}

export class RestartArchive {
  readonly #retained: number;
  readonly #archived = new Map<string, Archived>();
  /**
   * The executions in the order they came, from `#first` on: the oldest is found here, since
   * iterating the map from its front passes every entry deleted since its last rehash,
   * hundreds of them.
   */
  #order: string[] = [];
  #first = 0;

  constructor(retained: number) {
    this.#retained = retained;
  }

  has(executionId: string): boolean {
    return this.#archived.has(executionId);
  }

  get(executionId: string): Archived | undefined {
    return this.#archived.get(executionId);
  }

  /**
   * Keeps an execution (in its first place when it is kept already); tells `left` of each of
   * the oldest that leave the archive to make room, oldest first.
   */
  add(executionId: string, archived: Archived, left: (executionId: string) => void): void {
    if (!this.#archived.has(executionId)) this.#order.push(executionId);
    this.#archived.set(executionId, archived);
    while (this.#archived.size > this.#retained) {
      const oldest = this.#order[this.#first];
      if (oldest === undefined) break;
      this.#first++;
      this.#archived.delete(oldest);
      left(oldest);
    }
    // The ids already passed go once they are half of the list: a copy now and then.
    if (this.#first > 1024 && this.#first * 2 > this.#order.length) {
      this.#order = this.#order.slice(this.#first);
      this.#first = 0;
    }
  }
}
