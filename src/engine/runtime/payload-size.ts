// The size of a payload as memory budgets and `svc.limits.max-payload` count it: about the
// length of its JSON, strings in UTF-16 code units. Walking the value costs far less than
// encoding it, and a payload passed on unchanged is measured once (run-emitter.ts).

/** What the engine allows when the server names no limit: the default of the setting. */
export const DEFAULT_MAX_PAYLOAD_BYTES = 16 * 1024 * 1024;

/** A JSON number is 1 to 24 characters; counting each the same keeps the walk cheap. */
const NUMBER_BYTES = 8;
/** Deeper than any JSON a plugin means to make; a cyclic payload reaches it at once. */
const MAX_DEPTH = 1000;

/**
 * About the JSON length of `payload`. Counting stops once it passes `stopAbove`, so a huge
 * object costs at most that many steps; the answer is then "at least" that much. A payload
 * nested deeper than MAX_DEPTH (a cyclic one) counts as just over `stopAbove`.
 */
export function payloadBytes(payload: unknown, stopAbove = DEFAULT_MAX_PAYLOAD_BYTES): number {
  switch (typeof payload) {
    case 'string':
      return payload.length + 2;
    case 'number':
      return NUMBER_BYTES;
    case 'boolean':
      return payload ? 4 : 5;
    case 'object':
      if (payload === null) return 4;
      if (ArrayBuffer.isView(payload)) return payload.byteLength;
      return objectBytes(payload, stopAbove, 0, 0);
    case 'undefined':
    case 'function':
    case 'symbol':
    case 'bigint':
      // Left out of JSON, or (a BigInt) not JSON at all.
      return 0;
  }
}

function objectBytes(value: object, stopAbove: number, counted: number, depth: number): number {
  if (depth > MAX_DEPTH) return Math.max(counted, stopAbove + 1);
  let total = counted + 2;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length && total <= stopAbove; index++) {
      total = valueBytes(value[index], stopAbove, total + (index === 0 ? 0 : 1), depth);
    }
    return total;
  }
  // The first member has no comma before it: its `"key":` is one character shorter.
  let separator = 3;
  for (const key in value) {
    if (total > stopAbove) break;
    if (!Object.hasOwn(value, key)) continue;
    total = valueBytes(
      (value as Record<string, unknown>)[key],
      stopAbove,
      total + key.length + separator,
      depth,
    );
    separator = 4;
  }
  return total;
}

function valueBytes(value: unknown, stopAbove: number, counted: number, depth: number): number {
  if (typeof value === 'object' && value !== null && !ArrayBuffer.isView(value)) {
    return objectBytes(value, stopAbove, counted, depth + 1);
  }
  return counted + payloadBytes(value, stopAbove);
}
