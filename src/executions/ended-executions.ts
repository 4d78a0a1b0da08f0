// The ended executions a registry holds, oldest first: a binary min-heap on the order in which
// they were created. The registry drops the oldest ended executions beyond its limit; taking
// them from here costs a logarithm of the ended ones, where scanning every execution in
// creation order cost as many steps as there were runs still going at every start.
export interface Ordered {
  /** Creation order: lower is older. */
  readonly order: number;
}

export class EndedExecutions<T extends Ordered> {
  readonly #heap: T[] = [];

  get size(): number {
    return this.#heap.length;
  }

  add(item: T): void {
    const heap = this.#heap;
    let index = heap.push(item) - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      const above = heap[parent] as T;
      if (above.order <= item.order) break;
      heap[index] = above;
      index = parent;
    }
    heap[index] = item;
  }

  /** Takes the oldest; undefined when none is held. */
  takeOldest(): T | undefined {
    const heap = this.#heap;
    const oldest = heap[0];
    const last = heap.pop();
    if (oldest === undefined || last === undefined || heap.length === 0) return oldest;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child =
        right < heap.length && (heap[right] as T).order < (heap[left] as T).order ? right : left;
      const below = heap[child] as T;
      if (below.order >= last.order) break;
      heap[index] = below;
      index = child;
    }
    heap[index] = last;
    return oldest;
  }
}
