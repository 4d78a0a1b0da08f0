// Lines waiting to be written, kept as UTF-8 in fixed-size chunks rather than as one growing
// string. Many writers each holding a concatenated string of tens of KiB keep the garbage
// collector busy copying them; chunks live outside the JS heap and each line dies young.
// Written chunks go back to a pool the writers of a store share: a fresh chunk for every
// 64 KiB written grows external memory so fast that V8 runs full collections to keep up.

/** Bytes per chunk. */
export const CHUNK_BYTES = 64 * 1024;
/** Short lines are joined into a string of about this length before one write into a chunk. */
const TEXT_LENGTH = 4 * 1024;

/** Written chunks kept for reuse, up to a byte bound; shared by the writers of one store. */
export class ChunkPool {
  readonly #free: Buffer[] = [];
  readonly #max: number;

  constructor(maxBytes: number) {
    this.#max = Math.floor(maxBytes / CHUNK_BYTES);
  }

  /** Chunks held for reuse. */
  get size(): number {
    return this.#free.length;
  }

  take(): Buffer {
    return this.#free.pop() ?? Buffer.allocUnsafe(CHUNK_BYTES);
  }

  /** Takes back chunks `LineBatch.takeChunks` gave out, once nothing reads them any more. */
  give(chunks: readonly Buffer[]): void {
    for (const chunk of chunks) {
      if (this.#free.length >= this.#max) return;
      // A long line got a buffer of its own, and a small one may share a slab: only whole
      // chunks of this pool's size come back.
      if (chunk.byteOffset !== 0 || chunk.buffer.byteLength !== CHUNK_BYTES) continue;
      this.#free.push(Buffer.from(chunk.buffer, 0, CHUNK_BYTES));
    }
  }
}

export class LineBatch {
  readonly #pool: ChunkPool;
  /** Chunks filled so far, trimmed to their content. */
  #sealed: Buffer[] = [];
  #chunk: Buffer | undefined;
  #used = 0;
  #bytes = 0;
  /** Lines not yet encoded: one encoding call per few KiB rather than one per line. */
  #text = '';

  constructor(pool: ChunkPool = new ChunkPool(0)) {
    this.#pool = pool;
  }

  /** Bytes held. */
  get bytes(): number {
    this.#encode();
    return this.#bytes;
  }

  /** At most `bytes`, and cheap: what a writer compares with its batch size after appends. */
  get pending(): number {
    return this.#bytes + this.#text.length;
  }

  append(line: string): void {
    const text = this.#text + line;
    if (text.length < TEXT_LENGTH) {
      this.#text = text;
      return;
    }
    this.#text = '';
    this.#appendEncoded(text);
  }

  #encode(): void {
    const text = this.#text;
    if (text === '') return;
    this.#text = '';
    this.#appendEncoded(text);
  }

  #appendEncoded(text: string): void {
    // A UTF-16 code unit takes at most 3 bytes of UTF-8. Counting the bytes exactly would
    // cost a pass over the text of its own, so a chunk without that much room is sealed,
    // leaving at most a few KiB of it unused.
    const needed = text.length * 3;
    if (this.#chunk === undefined || needed > this.#chunk.length - this.#used) {
      this.#seal();
      if (needed > CHUNK_BYTES) {
        const bytes = Buffer.from(text, 'utf8');
        this.#sealed.push(bytes);
        this.#bytes += bytes.length;
        return;
      }
      this.#chunk = this.#pool.take();
    }
    const written = this.#chunk.write(text, this.#used);
    this.#used += written;
    this.#bytes += written;
  }

  /** Everything held, as one buffer; the batch is empty afterwards. */
  take(): Buffer {
    const chunks = this.takeChunks();
    return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
  }

  /**
   * Everything held, as the chunks it is kept in, for a gathering write without a copy; give
   * them back to the pool once written.
   */
  takeChunks(): Buffer[] {
    this.#encode();
    this.#seal();
    const sealed = this.#sealed;
    this.clear();
    return sealed;
  }

  clear(): void {
    this.#text = '';
    this.#sealed = [];
    this.#chunk = undefined;
    this.#used = 0;
    this.#bytes = 0;
  }

  #seal(): void {
    if (this.#chunk !== undefined && this.#used > 0) {
      this.#sealed.push(this.#chunk.subarray(0, this.#used));
    } else if (this.#chunk !== undefined) {
      this.#pool.give([this.#chunk]);
    }
    this.#chunk = undefined;
    this.#used = 0;
  }
}
