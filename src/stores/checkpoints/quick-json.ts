// JSON text of the small payloads streaming workflows mostly carry: numbers, short plain
// strings, and small plain objects and arrays of them. V8's JSON.stringify pays a fixed cost
// per call of about 100 ns, which for `{"n":1}` is most of the work; the file checkpoint
// store calls it once per recorded message, millions of times in a long run. Values this
// does not handle exactly like JSON.stringify are left to it (`undefined` answer).

/** Members and elements looked at before leaving a value to JSON.stringify. */
const MAX_MEMBERS = 32;
/** Nesting depth looked at before leaving a value to JSON.stringify. */
const MAX_DEPTH = 4;
/** Longest string written here: the check is one pass over it, as JSON.stringify's escape. */
const MAX_STRING = 256;
/** Keys whose JSON is kept: payloads of one workflow use few distinct keys. */
const MAX_KEYS = 1024;

/** Printable ASCII without `"` and `\`: written between quotes as it is. */
const PLAIN_STRING = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** How a member starts in JSON: first in its object, or after another member. */
interface MemberStart {
  readonly first: string;
  readonly next: string;
}

const memberStarts = new Map<string, MemberStart>();

/** `{"key":` and `,"key":` for a member name, made once per distinct key. */
function memberStart(key: string): MemberStart {
  let start = memberStarts.get(key);
  if (start === undefined) {
    const name = JSON.stringify(key) + ':';
    start = { first: '{' + name, next: ',' + name };
    if (memberStarts.size < MAX_KEYS) memberStarts.set(key, start);
  }
  return start;
}

/**
 * Members and elements the value being written may still have. Only a bound on the work: a
 * getter that writes a value of its own in the middle resets it, and nothing else changes.
 */
let membersLeft = 0;

function write(value: unknown, depth: number): string | undefined {
  switch (typeof value) {
    case 'number':
      // JSON has no NaN or Infinity; String(-0) is "0" as in JSON.
      return Number.isFinite(value) ? String(value) : 'null';
    case 'string':
      return value.length <= MAX_STRING && PLAIN_STRING.test(value) ? '"' + value + '"' : undefined;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (value === null) return 'null';
      if (depth >= MAX_DEPTH) return undefined;
      return Array.isArray(value)
        ? writeArray(value as readonly unknown[], depth)
        : writeObject(value as Readonly<Record<string, unknown>>, depth);
    case 'undefined':
    case 'function':
    case 'symbol':
    case 'bigint':
      // undefined, functions and symbols are left out of objects and become null in arrays;
      // BigInt throws: JSON.stringify says what it does with each.
      return undefined;
  }
}

function writeObject(object: Readonly<Record<string, unknown>>, depth: number): string | undefined {
  const prototype: unknown = Object.getPrototypeOf(object);
  // Class instances, dates, maps and boxed primitives have rules of their own (toJSON above all).
  if (prototype !== Object.prototype && prototype !== null) return undefined;
  if (typeof object.toJSON === 'function') return undefined;
  let json = '';
  // Own enumerable string keys in JSON.stringify's order; a plain object inherits none.
  for (const key in object) {
    if (--membersLeft < 0) return undefined;
    const member = write(object[key], depth + 1);
    if (member === undefined) return undefined;
    const start = memberStart(key);
    json = (json === '' ? start.first : json + start.next) + member;
  }
  return json === '' ? '{}' : json + '}';
}

function writeArray(array: readonly unknown[], depth: number): string | undefined {
  if (Object.getPrototypeOf(array) !== Array.prototype) return undefined;
  const { length } = array;
  membersLeft -= length;
  if (membersLeft < 0) return undefined;
  let json = '[';
  for (let index = 0; index < length; index++) {
    // A hole or undefined element is null in JSON: left to JSON.stringify, as is the rest.
    const element = write(array[index], depth + 1);
    if (element === undefined) return undefined;
    json += index === 0 ? element : ',' + element;
  }
  return json + ']';
}

/**
 * The text `JSON.stringify(value)` gives, for the small plain values written here; undefined
 * for any other value, which the caller then gives to JSON.stringify. Plain means: finite or
 * non-finite numbers, booleans, null, printable-ASCII strings, and objects (of
 * `Object.prototype` or none, without toJSON) and arrays of them, a few levels deep. Reads a
 * getter once, and again in JSON.stringify when a later member makes it give up.
 */
export function quickJson(value: unknown): string | undefined {
  membersLeft = MAX_MEMBERS;
  return write(value, 0);
}

/** JSON.stringify with the quick path first; undefined for undefined, functions and symbols. */
export function toJson(value: unknown): string | undefined {
  return quickJson(value) ?? (JSON.stringify as (value: unknown) => string | undefined)(value);
}
