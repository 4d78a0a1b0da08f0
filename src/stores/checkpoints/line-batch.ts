// Lines waiting to be written, kept as UTF-8 in fixed-size chunks rather than as one growing
// string. Many writers each holding a concatenated string of tens of KiB keep the garbage
// collector busy copying them; chunks live outside the JS heap and each line dies young.
const CHUNK_BYTES = 16 * 1024;
/** Short lines are joined into a string of about this length before one write into a chunk. */
const TEXT_LENGTH = 4 * 1024;

export class LineBatch {
  /** Chunks filled so far, trimmed to their content. */
  #sealed: Buffer[] = [];
  #chunk: Buffer | undefined;
  #used = 0;
  #bytes = 0;
  /** Lines not yet encoded: one encoding call per few KiB rather than one per line. */
  #text = '';

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

  #appendEncoded(line: string): void {
    const chunk = this.#chunk;
    const room = chunk === undefined ? 0 : chunk.length - this.#used;
    // A UTF-16 code unit takes at most 3 bytes of UTF-8: only a long line needs counting.
    if (chunk !== undefined && (line.length * 3 <= room || Buffer.byteLength(line) <= room)) {
      this.#put(chunk, line);
      return;
    }
    this.#seal();
    const size = Buffer.byteLength(line);
    if (size > CHUNK_BYTES) {
      this.#sealed.push(Buffer.from(line, 'utf8'));
      this.#bytes += size;
      return;
    }
    const fresh = Buffer.allocUnsafe(CHUNK_BYTES);
    this.#chunk = fresh;
    this.#put(fresh, line);
  }

  /** Everything held, as one buffer; the batch is empty afterwards. */
  take(): Buffer {
    const chunks = this.takeChunks();
    return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
  }

  /** Everything held, as the chunks it is kept in, for a gathering write without a copy. */
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

  #put(chunk: Buffer, line: string): void {
    const written = chunk.write(line, this.#used);
    this.#used += written;
    this.#bytes += written;
  }

  #seal(): void {
    if (this.#chunk !== undefined && this.#used > 0) {
      this.#sealed.push(this.#chunk.subarray(0, this.#used));
    }
    this.#chunk = undefined;
    this.#used = 0;
  }
}
