// Lines waiting to be written, kept as UTF-8 in fixed-size chunks rather than as one growing
// string. Many writers each holding a concatenated string of tens of KiB keep the garbage
// collector busy copying them; chunks live outside the JS heap and each line dies young.
const CHUNK_BYTES = 16 * 1024;

export class LineBatch {
  /** Chunks filled so far, trimmed to their content. */
  #sealed: Buffer[] = [];
  #chunk: Buffer | undefined;
  #used = 0;
  #bytes = 0;

  /** Bytes held. */
  get bytes(): number {
    return this.#bytes;
  }

  append(line: string): void {
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
    this.#seal();
    const sealed = this.#sealed;
    const data = sealed.length === 1 ? (sealed[0] as Buffer) : Buffer.concat(sealed, this.#bytes);
    this.clear();
    return data;
  }

  clear(): void {
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
