// A bounded channel between nodes: one reader, any number of writers (a node with several
// parents reads one channel they all write to). `send` and `receive` answer at once when they
// need not wait, so the fast path allocates no promise; a full channel makes writers wait,
// which is the back-pressure of SPEC "What the service does".

/** Returned by `receive` once every writer has closed and the channel is drained. */
export const END: unique symbol = Symbol('end');
export type End = typeof END;

interface PendingWrite<T> {
  readonly value: T;
  readonly resolve: () => void;
}

export interface Inbox<T> {
  /** The next value, END, or a promise of either when the channel is empty. */
  receive(): T | End | Promise<T | End>;
}

export interface Outbox<T> {
  /** Undefined when the value was taken at once; a promise that settles once it was taken. */
  send(value: T): Promise<void> | undefined;
}

export class Channel<T> implements Inbox<T>, Outbox<T> {
  readonly capacity: number;
  /**
   * Queued values from `#head` on. The array grows only as far as the channel fills, so an
   * idle edge (most edges of a parked run) costs almost nothing.
   */
  #items: (T | undefined)[] = [];
  #head = 0;
  #writersOpen: number;
  #cancelled = false;
  #reader: ((value: T | End) => void) | undefined;
  readonly #waitingWriters: PendingWrite<T>[] = [];

  constructor(capacity: number, writers = 1) {
    this.capacity = Math.max(1, capacity);
    this.#writersOpen = writers;
  }

  get size(): number {
    return this.#items.length - this.#head;
  }

  send(value: T): Promise<void> | undefined {
    if (this.#cancelled) return undefined;
    const reader = this.#reader;
    if (reader !== undefined) {
      this.#reader = undefined;
      reader(value);
      return undefined;
    }
    if (this.size < this.capacity) {
      this.#items.push(value);
      return undefined;
    }
    return new Promise<void>((resolve) => {
      this.#waitingWriters.push({ value, resolve });
    });
  }

  receive(): T | End | Promise<T | End> {
    if (this.#head < this.#items.length) {
      const value = this.#items[this.#head] as T;
      this.#items[this.#head] = undefined;
      this.#head++;
      if (this.#head === this.#items.length) {
        this.#items.length = 0;
        this.#head = 0;
      } else if (this.#head >= 1024) {
        this.#items = this.#items.slice(this.#head);
        this.#head = 0;
      }
      const writer = this.#waitingWriters.shift();
      if (writer !== undefined) {
        this.#items.push(writer.value);
        writer.resolve();
      }
      return value;
    }
    if (this.#writersOpen <= 0 || this.#cancelled) return END;
    return new Promise<T | End>((resolve) => {
      this.#reader = resolve;
    });
  }

  /** One writer is done; the reader sees END once all are done and the channel is drained. */
  closeWriter(): void {
    this.#writersOpen--;
    if (this.#writersOpen <= 0 && this.size === 0) this.#wakeReaderWithEnd();
  }

  /**
   * The reader is gone (cancelled, failed): what is buffered is dropped, waiting writers go
   * on, and later sends are discarded, so no parent ever waits on a dead child.
   */
  cancel(): void {
    this.#cancelled = true;
    this.#items = [];
    this.#head = 0;
    for (const writer of this.#waitingWriters.splice(0)) writer.resolve();
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

  constructor(size: number, overflow: Overflow, onDrop: () => void, writers = 1) {
    this.#inner = new Channel<T>(size, writers);
    this.#overflow = overflow;
    this.#onDrop = onDrop;
  }

  get size(): number {
    return this.#inner.size;
  }

  send(value: T): Promise<void> | undefined {
    if (this.#inner.size >= this.#inner.capacity) {
      this.#onDrop();
      if (this.#overflow === 'DROP_NEWEST') return undefined;
      // The oldest leaves to make room; a full buffer hands it over synchronously.
      void this.#inner.receive();
    }
    void this.#inner.send(value);
    return undefined;
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
