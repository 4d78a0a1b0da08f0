// Turns schema issues into FieldErrors with readable paths (`cases[1].name`) and sentences,
// so node settings and plugin configuration report problems the same way.
import type { z } from 'zod';
import type { FieldError } from '../../core/index.js';

export type FieldResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly errors: readonly FieldError[] };

/** `['cases', 1, 'name']` with prefix `config` gives `config.cases[1].name`. */
export function formatFieldPath(path: readonly PropertyKey[], prefix = ''): string {
  let field = prefix;
  for (const segment of path) {
    if (typeof segment === 'number') field += `[${segment}]`;
    else if (typeof segment === 'string' && /^[A-Za-z_$][\w$]*$/.test(segment)) {
      field += field === '' ? segment : `.${segment}`;
    } else field += `[${JSON.stringify(String(segment))}]`;
  }
  return field;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number';
  return `a ${typeof value}`;
}

const EXPECTED: Readonly<Record<string, string>> = {
  int: 'an integer',
  array: 'an array',
  object: 'an object',
  record: 'an object',
};

function lastKey(path: readonly PropertyKey[] | undefined): string {
  const key = path?.at(-1);
  return key === undefined ? 'value' : String(key);
}

/**
 * Sentences for the issues users meet most; anything else keeps zod's own wording.
 * Schemas that set their own message take precedence over this map.
 */
export const issueMessage: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return `Missing required key '${lastKey(issue.path)}'`;
      return `Expected ${EXPECTED[issue.expected] ?? `a ${issue.expected}`}, got ${describeValue(issue.input)}`;
    case 'too_small':
      if (issue.origin === 'string' && issue.minimum === 1) return 'Must not be empty';
      if (issue.origin === 'array' || issue.origin === 'set') {
        return `Must have at least ${issue.minimum} item${issue.minimum === 1 ? '' : 's'}`;
      }
      if (issue.origin === 'string') return `Must have at least ${issue.minimum} characters`;
      return issue.inclusive === true
        ? `Must be at least ${issue.minimum}`
        : `Must be greater than ${issue.minimum}`;
    case 'too_big':
      if (issue.origin === 'array' || issue.origin === 'set') {
        return `Must have at most ${issue.maximum} items`;
      }
      if (issue.origin === 'string') return `Must have at most ${issue.maximum} characters`;
      return issue.inclusive === true
        ? `Must be at most ${issue.maximum}`
        : `Must be less than ${issue.maximum}`;
    case 'invalid_value':
      return `Must be one of ${issue.values.map((value) => String(value)).join(', ')}`;
    case 'custom':
    case 'invalid_element':
    case 'invalid_format':
    case 'invalid_key':
    case 'invalid_union':
    case 'not_multiple_of':
    case 'unrecognized_keys':
      return undefined;
  }
};

/** One FieldError per issue; an unknown-keys issue becomes one error per key. */
export function fieldErrorsOf(issues: readonly z.core.$ZodIssue[], prefix = ''): FieldError[] {
  const errors: FieldError[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        errors.push({
          field: formatFieldPath([...issue.path, key], prefix),
          message: `Unknown key '${key}'`,
        });
      }
    } else {
      errors.push({ field: formatFieldPath(issue.path, prefix), message: issue.message });
    }
  }
  return errors;
}

/** Parses `value`, reporting problems as FieldErrors whose fields start with `prefix`. */
export function parseFields<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  prefix = '',
): FieldResult<z.output<Schema>> {
  const result = schema.safeParse(value, { error: issueMessage });
  return result.success
    ? { ok: true, value: result.data }
    : { ok: false, errors: fieldErrorsOf(result.error.issues, prefix) };
}
