import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formatFieldPath, parseFields } from './field-errors.js';

describe('formatFieldPath', () => {
  it('writes indexes in brackets and names with dots (SPEC FieldError)', () => {
    expect(formatFieldPath(['cases', 1, 'name'])).toBe('cases[1].name');
    expect(formatFieldPath(['expression'], 'config')).toBe('config.expression');
    expect(formatFieldPath([], 'config')).toBe('config');
  });

  it('quotes a key that is not a plain name', () => {
    expect(formatFieldPath(['env', 'A.B'])).toBe('env["A.B"]');
    expect(formatFieldPath(['headers', 'x-trace'])).toBe('headers["x-trace"]');
  });
});

describe('parseFields', () => {
  const schema = z.strictObject({
    name: z.string().min(1),
    count: z.number().int().positive().optional(),
    tags: z.array(z.string()).min(1).optional(),
    mode: z.enum(['A', 'B']).optional(),
  });

  it('gives the parsed value when the input is valid', () => {
    expect(parseFields(schema, { name: 'x', count: 2 })).toEqual({
      ok: true,
      value: { name: 'x', count: 2 },
    });
  });

  it('says which key is missing and what a wrong value should be', () => {
    const result = parseFields(schema, { count: 1.5, tags: [], mode: 'C', extra: 1 }, 'config');
    expect(result).toEqual({
      ok: false,
      errors: [
        { field: 'config.name', message: "Missing required key 'name'" },
        { field: 'config.count', message: 'Expected an integer, got a number' },
        { field: 'config.tags', message: 'Must have at least 1 item' },
        { field: 'config.mode', message: 'Must be one of A, B' },
        { field: 'config.extra', message: "Unknown key 'extra'" },
      ],
    });
  });

  it('keeps the message a schema sets itself', () => {
    const custom = z.object({ size: z.number().min(1, 'Size starts at one') });
    expect(parseFields(custom, { size: 0 })).toEqual({
      ok: false,
      errors: [{ field: 'size', message: 'Size starts at one' }],
    });
  });
});
