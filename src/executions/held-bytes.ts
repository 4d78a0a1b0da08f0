// What an entry of an in-memory history counts against its byte budget, kept on the entry
// under a symbol: answers and event frames are JSON, which leaves symbol keys out.

export const HELD_BYTES: unique symbol = Symbol('held bytes');

/** The bytes an entry was counted at when it was kept; 0 for one that was never counted. */
export function heldBytesOf(value: object): number {
  return (value as { readonly [HELD_BYTES]?: number })[HELD_BYTES] ?? 0;
}

/** How many of the oldest entries (first in `held`) free at least `excess` bytes; all at most. */
export function oldestCovering(held: readonly object[], excess: number): number {
  let count = 0;
  let bytes = 0;
  while (count < held.length && bytes < excess) {
    bytes += heldBytesOf(held[count] ?? {});
    count++;
  }
  return count;
}

export function totalHeldBytes(held: readonly object[]): number {
  let bytes = 0;
  for (const entry of held) bytes += heldBytesOf(entry);
  return bytes;
}
