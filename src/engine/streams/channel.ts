// A bounded channel between nodes: one reader, any number of writers (a node with several
// parents reads one channel they all write to). `send` and `receive` answer at once when they
// need not wait, so the fast path allocates no promise; a full channel makes writers wait,
// which is the back-pressure of SPEC "What the service does". A channel with several writers
// tags each queued value with its writer, so that each edge's share of it can be reported.

/** Returned by `receive` once every writer has closed and the channel is drained. */
export const END: unique symbol = Symbol('end');
export type End = typeof END;

interface PendingWrite<T> {
  readonly value: T;
  readonly source: number;
  readonly resolve: () => void;
}

export interface Inbox<T> {
  /** The next value, END, or a promise of either when the channel is empty. */
  receive(): T | End | Promise<T | End>;
}

export interface Outbox<T> {
  /**
   * Undefined when the value was taken at once; a promise that settles once it was taken.
   * `source` names the writer (the parent's plan index) for the per-edge counts.
   */
  send(value: T, source?: number): Promise<void> | undefined;
}

/** What one writer (one edge) has in a channel now, and how much the reader took from it. */
export interface EdgeLoad {
  /** Values of this writer queued in the channel. */
  readonly queued: number;
  /** Values of this writer the reader took so far. */
  readonly taken: number;
  /** The writer waits for room to send. */
  readonly writerWaiting: boolean;
}

export class Channel<T> implements Inbox<T>, Outbox<T> {
  readonly capacity: number;
  /**
   * Queued values: a ring of `#size` values from `#head` on, wrapping at the ring's end. The
   * ring doubles only as the channel fills, up to its capacity, and is then reused: an idle
   * edge (most edges of a parked run) costs almost nothing, and a busy one allocates nothing
   * per message.
   */
  #items: (T | undefined)[] = [];
  #head = 0;
  #size = 0;
  #writersOpen: number;
  #cancelled = false;
  #reader: ((value: T | End) => void) | undefined;
  /** Made when a writer first has to wait: most edges of a parked run never fill. */
  #waitingWriters: PendingWrite<T>[] | undefined;
  /**
   * Only with several writers: the writer of each queued value, at the same place in a ring
   * of its own as the value in `#items`, and the values taken by writer. One integer written
   * and read per value, no allocation: a channel with one writer keeps neither, its counts
   * are its size and `#taken`.
   */
  #sources: number[] | undefined;
  #takenBy: number[] | undefined;
  #taken = 0;

  /** `sources`: the writers' numbers (the parents' plan indices), when there are several. */
  constructor(capacity: number, writers = 1, sources: readonly number[] = []) {
    this.capacity = Math.max(1, capacity);
    this.#writersOpen = writers;
    if (writers > 1) {
      this.#sources = [];
      // Filled up front, so that the counts stay a packed array of small integers.
      this.#takenBy = new Array<number>(Math.max(0, ...sources) + 1).fill(0);
    }
  }

  get size(): number {
    return this.#size;
  }

  send(value: T, source = 0): Promise<void> | undefined {
    if (this.#cancelled) return undefined;
    const reader = this.#reader;
    if (reader !== undefined) {
      this.#reader = undefined;
      this.#took(source);
      reader(value);
      return undefined;
    }
    if (this.#size < this.capacity) {
      this.#push(value, source);
      return undefined;
    }
    return new Promise<void>((resolve) => {
      (this.#waitingWriters ??= []).push({ value, source, resolve });
    });
  }

  receive(): T | End | Promise<T | End> {
    if (this.#size > 0) {
      const items = this.#items;
      const head = this.#head;
      const value = items[head] as T;
      items[head] = undefined;
      const sources = this.#sources;
      this.#took(sources === undefined ? 0 : (sources[head] ?? 0));
      this.#head = head + 1 === items.length ? 0 : head + 1;
      this.#size--;
      // Looked at before the shift: a call on the (mostly empty) queue per message costs more
      // than the rest of a receive.
      const waiting = this.#waitingWriters;
      if (waiting !== undefined && waiting.length > 0) {
        const writer = waiting.shift() as PendingWrite<T>;
        this.#push(writer.value, writer.source);
        writer.resolve();
      }
      return value;
    }
    if (this.#writersOpen <= 0 || this.#cancelled) return END;
    return new Promise<T | End>((resolve) => {
      this.#reader = resolve;
    });
  }

  /** Queues `value` at the ring's tail, doubling the ring when it is full. */
  #push(value: T, source: number): void {
    let items = this.#items;
    if (this.#size === items.length) items = this.#grow();
    let tail = this.#head + this.#size;
    if (tail >= items.length) tail -= items.length;
    items[tail] = value;
    const sources = this.#sources;
    if (sources !== undefined) sources[tail] = source;
    this.#size++;
  }

  /** A ring twice as large (at most the capacity), with the queued values from its start. */
  #grow(): (T | undefined)[] {
    const length = Math.min(this.capacity, Math.max(4, this.#items.length * 2));
    this.#items = this.#unrolled(this.#items, length, undefined);
    if (this.#sources !== undefined) this.#sources = this.#unrolled(this.#sources, length, 0);
    this.#head = 0;
    return this.#items;
  }

  #unrolled<V>(ring: readonly V[], length: number, empty: V): V[] {
    const grown = new Array<V>(length).fill(empty);
    for (let index = 0; index < this.#size; index++) {
      let at = this.#head + index;
      if (at >= ring.length) at -= ring.length;
      grown[index] = ring[at] as V;
    }
    return grown;
  }

  /**
   * What writer `source` has in the channel now: read about once a second by a live view, so
   * the scan of the queue (at most `capacity` values) is paid there, not per message.
   */
  loadOf(source: number): EdgeLoad {
    const sources = this.#sources;
    let waiting = false;
    for (const writer of this.#waitingWriters ?? []) {
      if (sources === undefined || writer.source === source) {
        waiting = true;
        break;
      }
    }
    if (sources === undefined) {
      return { queued: this.size, taken: this.#taken, writerWaiting: waiting };
    }
    let queued = 0;
    for (let index = 0; index < this.#size; index++) {
      let at = this.#head + index;
      if (at >= sources.length) at -= sources.length;
      if (sources[at] === source) queued++;
    }
    return { queued, taken: this.#takenBy?.[source] ?? 0, writerWaiting: waiting };
  }

  #took(source: number): void {
    const takenBy = this.#takenBy;
    if (takenBy === undefined) this.#taken++;
    else takenBy[source] = (takenBy[source] ?? 0) + 1;
  }

  /** One writer is done; the reader sees END once all are done and the channel is drained. */
  closeWriter(): void {
    this.#writersOpen--;
    if (this.#writersOpen <= 0 && this.#size === 0) this.#wakeReaderWithEnd();
  }

  /**
   * The reader is gone (cancelled, failed): what is buffered is dropped, waiting writers go
   * on, and later sends are discarded, so no parent ever waits on a dead child.
   */
  cancel(): void {
    this.#cancelled = true;
    this.#items = [];
    if (this.#sources !== undefined) this.#sources = [];
    this.#head = 0;
    this.#size = 0;
    const waiting = this.#waitingWriters ?? [];
    this.#waitingWriters = undefined;
    for (const writer of waiting) writer.resolve();
    this.#wakeReaderWithEnd();
  }

  #wakeReaderWithEnd(): void {
    const reader = this.#reader;
    if (reader !== undefined) {
      this.#reader = undefined;
      reader(END);
    }
  }
}

export type Overflow = 'DROP_OLDEST' | 'DROP_NEWEST';

/**
 * SPEC `engine.edgeBuffer`: a buffer before a node that never makes its parents wait; when
 * full it drops the oldest (or the newest) message and counts it.
 */
export class DroppingChannel<T> implements Inbox<T>, Outbox<T> {
  readonly #inner: Channel<T>;
  readonly #overflow: Overflow;
  readonly #onDrop: () => void;

  constructor(
    size: number,
    overflow: Overflow,
    onDrop: () => void,
    writers = 1,
    sources: readonly number[] = [],
  ) {
    this.#inner = new Channel<T>(size, writers, sources);
    this.#overflow = overflow;
    this.#onDrop = onDrop;
  }

  get size(): number {
    return this.#inner.size;
  }

  get capacity(): number {
    return this.#inner.capacity;
  }

  send(value: T, source = 0): Promise<void> | undefined {
    if (this.#inner.size >= this.#inner.capacity) {
      this.#onDrop();
      if (this.#overflow === 'DROP_NEWEST') return undefined;
      // The oldest leaves to make room; a full buffer hands it over synchronously. It counts
      // as taken: the rate of the edge is what reached the buffer and left it.
      void this.#inner.receive();
    }
    void this.#inner.send(value, source);
    return undefined;
  }

  /** A dropping buffer never makes its writers wait. */
  loadOf(source: number): EdgeLoad {
    return this.#inner.loadOf(source);
  }

  receive(): T | End | Promise<T | End> {
    return this.#inner.receive();
  }

  closeWriter(): void {
    this.#inner.closeWriter();
  }

  cancel(): void {
    this.#inner.cancel();
  }
}

export type NodeInput<T> = Channel<T> | DroppingChannel<T>;
