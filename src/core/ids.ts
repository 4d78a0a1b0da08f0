// Identifier generation. Production uses random UUIDs; tests may pass a seeded generator.
import { randomUUID } from 'node:crypto';

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
