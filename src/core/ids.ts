// Identifier generation. Production uses random UUIDs; tests may pass a seeded generator.
import { randomBytes, randomUUID } from 'node:crypto';

export type IdGenerator = () => string;

/**
 * Random UUIDs. Node assembles them from many small strings; copying them into one flat
 * string keeps each id at 36 bytes instead of a chain of parts (ids live as long as runs).
 */
export const randomIds: IdGenerator = () => Buffer.from(randomUUID(), 'latin1').toString('latin1');

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
    const random = randomBytes(8);
    const time = lastMs.toString(16).padStart(12, '0');
    const randA = (0x7000 | counter).toString(16);
    // The variant bits 10, then 62 random bits.
    random[0] = ((random[0] ?? 0) & 0x3f) | 0x80;
    const randB = random.toString('hex');
    return `${time.slice(0, 8)}-${time.slice(8)}-${randA}-${randB.slice(0, 4)}-${randB.slice(4)}`;
  };
}
