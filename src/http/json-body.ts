// The one JSON body parser: says what is wrong with a body (malformed, a key that would reach
// an object's prototype, nesting deeper than the limit) instead of one generic refusal.
import { AppError } from '../core/index.js';
import type { FieldError } from '../core/index.js';

/**
 * Deepest nesting of arrays and objects a body may have. Far beyond any workflow or payload,
 * and far below the depth at which copying or serialising a value overflows the stack.
 */
export const MAX_JSON_DEPTH = 100;

/** Parses a request body; throws INVALID_REQUEST_BODY naming what is wrong. */
export function parseJsonBody(text: string): unknown {
  // A byte-order mark is not JSON but some clients send one.
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (source.trim() === '') {
    throw refused({ field: 'body', message: 'Request body is empty but declared as JSON' });
  }
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (error) {
    throw refused({ field: 'body', message: `Malformed JSON: ${(error as Error).message}` });
  }
  if (!certainlySafe(source)) {
    const problem = inspect(value);
    if (problem !== undefined) throw refused(problem);
  }
  return value;
}

/**
 * Whether the text alone shows the parsed value needs no walk: no key can reach a prototype
 * without the letters `proto` (`__proto__`, `prototype`) unless escapes spell them, and no value
 * nests deeper than the limit with fewer opening brackets than the limit. Most bodies are small
 * and pass, and are spared a walk of every object they hold; the rest are walked.
 */
function certainlySafe(source: string): boolean {
  if (source.includes('proto') || source.includes('\\u')) return false;
  // Brackets inside strings are counted too, which only sends a body to the walk.
  let openings = 0;
  for (const bracket of ['{', '[']) {
    for (let at = source.indexOf(bracket); at !== -1; at = source.indexOf(bracket, at + 1)) {
      if (++openings > MAX_JSON_DEPTH) return false;
    }
  }
  return true;
}

function refused(problem: FieldError): AppError {
  return new AppError('INVALID_REQUEST_BODY', { fieldErrors: [problem] });
}

/**
 * Walks the value without recursion, so a deep body cannot overflow the stack here. Refuses
 * `__proto__` keys and `constructor.prototype`, which would change an object's prototype once
 * the value is merged or copied into another object (prototype pollution).
 */
function inspect(root: unknown): FieldError | undefined {
  const pending: { value: unknown; path: string; depth: number }[] = [
    { value: root, path: '', depth: 0 },
  ];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, path, depth } = next;
    if (!isObject(value)) continue;
    if (depth >= MAX_JSON_DEPTH) {
      return {
        field: path === '' ? 'body' : path,
        message: `Request body is nested deeper than ${MAX_JSON_DEPTH} levels`,
      };
    }
    if (Array.isArray(value)) {
      value.forEach((item: unknown, index) => {
        if (isObject(item))
          pending.push({ value: item, path: `${path}[${index}]`, depth: depth + 1 });
      });
      continue;
    }
    for (const [key, item] of Object.entries(value)) {
      const field = path === '' ? key : `${path}.${key}`;
      if (key === '__proto__' || (key === 'constructor' && hasPrototypeKey(item))) {
        return {
          field,
          message: `Field '${key}' is not allowed: it could change the prototype of objects`,
        };
      }
      if (isObject(item)) pending.push({ value: item, path: field, depth: depth + 1 });
    }
  }
  return undefined;
}

function hasPrototypeKey(value: unknown): boolean {
  return isObject(value) && Object.hasOwn(value, 'prototype');
}

function isObject(value: unknown): value is object {
  return value !== null && typeof value === 'object';
}
