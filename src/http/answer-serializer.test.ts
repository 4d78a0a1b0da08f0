import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answerSerializerCompiler } from './answer-serializer.js';

const compile = (schema: z.ZodType): ((data: unknown) => string) =>
  answerSerializerCompiler({ schema, method: 'GET', url: '/x', httpStatus: '200' });

const record = z.strictObject({
  id: z.string(),
  count: z.int(),
  kind: z.literal('run'),
  note: z.string().nullable(),
  payload: z.unknown(),
  nodes: z.array(z.strictObject({ nodeId: z.string(), status: z.enum(['A', 'B']) })),
});

describe('answers written from their schema', () => {
  it('writes what JSON.stringify writes for an answer that matches its schema', () => {
    const value = {
      id: 'e-1',
      count: 3,
      kind: 'run',
      note: null,
      payload: { deep: [1, 'two', { three: true }] },
      nodes: [{ nodeId: 'n', status: 'B' }],
    };
    expect(JSON.parse(compile(record)(value))).toEqual(value);
  });

  it('writes a fraction, another constant and a missing field as they are, and only the fields the schema names', () => {
    const value = {
      id: 'e-1',
      count: 2.5,
      kind: 'other',
      extra: { dropped: true },
      nodes: [{ nodeId: 'n', status: 'A' }],
    };
    const { extra: _extra, ...named } = value;
    expect(JSON.parse(compile(record)(value))).toEqual(named);
  });

  it('writes each branch of a union as it is', () => {
    const union = z.discriminatedUnion('kind', [
      z.strictObject({ kind: z.literal('a'), a: z.string() }),
      z.strictObject({ kind: z.literal('b'), b: z.int() }),
    ]);
    for (const value of [
      { kind: 'a', a: 'x' },
      { kind: 'b', b: 1 },
    ]) {
      expect(JSON.parse(compile(z.array(union))([value]))).toEqual([value]);
    }
  });
});
