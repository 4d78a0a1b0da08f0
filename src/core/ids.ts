// Identifier generation. Production uses random UUIDs; tests may pass a seeded generator.
import { randomUUID } from 'node:crypto';

export type IdGenerator = () => string;

export const randomIds: IdGenerator = () => randomUUID();

/** Deterministic ids (`prefix-1`, `prefix-2`, ...) for tests. */
export function createSequentialIds(prefix = 'id'): IdGenerator {
  let next = 0;
  return () => `${prefix}-${++next}`;
}
