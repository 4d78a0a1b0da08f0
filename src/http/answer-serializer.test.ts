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
  at: z.string(),
  payload: z.unknown(),
  nodes: z.record(z.string(), z.strictObject({ status: z.enum(['A', 'B']) })),
});

describe('answers', () => {
  it('are written as JSON.stringify writes them: nulls, dates, nested payloads, maps by id', () => {
    const value = {
      id: 'e-1',
      count: 3,
      kind: 'run',
      note: null,
      at: new Date(0),
      payload: { deep: [1, 'two "quoted"\n', { three: true }], none: undefined },
      nodes: { 'a b': { status: 'B' } },
    };
    const written = compile(record)(value);
    expect(written).toBe(JSON.stringify(value));
    expect(JSON.parse(written)).toEqual({
      ...value,
      at: '1970-01-01T00:00:00.000Z',
      payload: { deep: [1, 'two "quoted"\n', { three: true }] },
    });
  });

  it('share one writer whatever the schema, so nothing is compiled per route at start-up', () => {
    expect(compile(record)).toBe(compile(z.array(record)));
  });
});
