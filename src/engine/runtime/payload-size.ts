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
 * nested deeper than MAX_DEPTH (a cyclic one) counts as just over `stopAbove`. Members are
 * the enumerable ones, as `for...in` finds them: JSON takes only own ones, which plain data
 * is made of.
 */
export function payloadBytes(payload: unknown, stopAbove = DEFAULT_MAX_PAYLOAD_BYTES): number {
  return memberBytes(payload, stopAbove, 0);
}

// Small functions with the common case first: the engine measures every new payload, most of
// them objects of a few numbers and short strings.
function memberBytes(value: unknown, budget: number, depth: number): number {
  if (typeof value !== 'object' || value === null) return primitiveBytes(value);
  return ArrayBuffer.isView(value) ? value.byteLength : objectBytes(value, budget, depth);
}

function primitiveBytes(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return value.length + 2;
    case 'number':
      return NUMBER_BYTES;
    case 'boolean':
      return value ? 4 : 5;
    case 'object':
      return 4;
    case 'undefined':
    case 'function':
    case 'symbol':
    case 'bigint':
      // Left out of JSON, or (a BigInt) not JSON at all.
      return 0;
  }
}

/** An array is its brackets and commas, an object its braces and `"key":` and commas. */
function objectBytes(value: object, budget: number, depth: number): number {
  if (depth > MAX_DEPTH) return budget + 1;
  if (Array.isArray(value)) {
    if (value.length === 0) return 2;
    let total = value.length + 1;
    for (let index = 0; index < value.length && total <= budget; index++) {
      total += memberBytes(value[index], budget - total, depth + 1);
    }
    return total;
  }
  // Each member counts its quotes, colon and a comma; the first has no comma, the braces two.
  let total = 1;
  for (const key in value) {
    total +=
      key.length +
      4 +
      memberBytes((value as Record<string, unknown>)[key], budget - total, depth + 1);
    if (total > budget) break;
  }
  return total === 1 ? 2 : total;
}
