// Identifier generation. Production uses random UUIDs; tests may pass a seeded generator.
import { randomFillSync } from 'node:crypto';

export type IdGenerator = () => string;

const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1');
/** Where the text of an id is written before it is read out as one string. */
const text = Buffer.allocUnsafe(36);

/**
 * The text of the 16 bytes at `offset` as a UUID (8-4-4-4-12 hexadecimal digits), read out of
 * one buffer as one flat string: ids live as long as runs, and text joined from parts (as
 * `crypto.randomUUID` makes it) is held as a chain of those parts.
 */
function uuidText(bytes: Uint8Array, offset: number): string {
  let at = 0;
  for (let index = 0; index < 16; index++) {
    if (index === 4 || index === 6 || index === 8 || index === 10) text[at++] = 0x2d;
    const byte = bytes[offset + index] ?? 0;
    text[at++] = HEX_DIGITS[byte >> 4] ?? 0;
    text[at++] = HEX_DIGITS[byte & 0x0f] ?? 0;
  }
  return text.toString('latin1', 0, 36);
}

/** Random bytes drawn 4 KB at a time: one call into the system's generator per 256 ids. */
const entropy = Buffer.allocUnsafe(4096);
let drawn = entropy.length;

function randomBytesOf(length: number): number {
  if (drawn + length > entropy.length) {
    randomFillSync(entropy);
    drawn = 0;
  }
  const offset = drawn;
  drawn += length;
  return offset;
}

/** Random UUIDs of version 4 (RFC 9562). */
export const randomIds: IdGenerator = () => {
  const offset = randomBytesOf(16);
  entropy[offset + 6] = ((entropy[offset + 6] ?? 0) & 0x0f) | 0x40;
  entropy[offset + 8] = ((entropy[offset + 8] ?? 0) & 0x3f) | 0x80;
  return uuidText(entropy, offset);
};

/** Deterministic ids (`prefix-1`, `prefix-2`, ...) for tests. */
export function createSequentialIds(prefix = 'id'): IdGenerator {
  let next = 0;
  return () => `${prefix}-${++next}`;
}

/**
 * UUIDs of version 7 (RFC 9562) that sort as they were made: the millisecond first, then a
 * counter within it (the 12 bits of `rand_a`), then random bits. For records listed newest
 * first whose times can tie within a millisecond, such as dead letters: the id breaks the tie
 * in the order they came. A clock that stands still or steps back keeps the order too.
 */
export function createOrderedIds(now: () => number): IdGenerator {
  let lastMs = -1;
  let counter = 0;
  return () => {
    const ms = Math.floor(now());
    if (ms > lastMs) {
      lastMs = ms;
      counter = 0;
    } else if (++counter > 0xfff) {
      // 4,096 ids in one millisecond: the next ones borrow the following millisecond.
      lastMs++;
      counter = 0;
    }
    const bytes = Buffer.allocUnsafe(16);
    bytes.writeUIntBE(lastMs, 0, 6);
    bytes.writeUInt16BE(0x7000 | counter, 6);
    // The variant bits 10, then 62 random bits.
    const random = randomBytesOf(8);
    entropy.copy(bytes, 8, random, random + 8);
    bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
    return uuidText(bytes, 0);
  };
}
