import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quickJson, toJson } from './quick-json.js';

const stringify = JSON.stringify as (value: unknown) => string | undefined;

describe('quickJson', () => {
  it('writes exactly what JSON.stringify writes, for every JSON value it takes', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const quick = quickJson(value);
        if (quick !== undefined) expect(quick).toBe(stringify(value));
        expect(toJson(value)).toBe(stringify(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('writes exactly what JSON.stringify writes, or leaves the value to it, for any value', () => {
    fc.assert(
      fc.property(fc.anything({ withBoxedValues: true, withMap: true, withSet: true }), (value) => {
        let expected: string | undefined;
        try {
          expected = stringify(value);
        } catch {
          return; // BigInt: JSON.stringify throws, and toJson with it
        }
        const quick = quickJson(value);
        if (quick !== undefined) expect(quick).toBe(expected);
        expect(toJson(value)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('writes the small plain payloads streams mostly carry', () => {
    expect(quickJson({ n: 1 })).toBe('{"n":1}');
    expect(quickJson(-0)).toBe('0');
    expect(quickJson(1e21)).toBe('1e+21');
    expect(quickJson(Number.NaN)).toBe('null');
    expect(quickJson({ a: Number.POSITIVE_INFINITY })).toBe('{"a":null}');
    expect(quickJson(Object.assign(Object.create(null) as object, { x: [true, null, 'y'] }))).toBe(
      '{"x":[true,null,"y"]}',
    );
    expect(quickJson({ 2: 'b', 1: 'a', z: 0 })).toBe('{"1":"a","2":"b","z":0}');
    expect(quickJson({ 'k"ey\u00e9': 1 })).toBe('{"k\\"ey\u00e9":1}');
    expect(quickJson({ [Symbol('skipped')]: 1, a: 1 })).toBe('{"a":1}');
  });

  it('leaves to JSON.stringify what it does not write exactly like it', () => {
    const leftAlone: unknown[] = [
      'needs "escapes"',
      'line\nbreak',
      'caf\u00e9',
      '\ud800',
      'x'.repeat(257),
      new Date(0),
      { toJSON: () => 'mine' },
      new Map([[1, 2]]),
      new (class Point {
        x = 1;
      })(),
      Object.assign(Object.create({ inherited: 1 }) as object, { own: 2 }),
      [1, undefined, 3],
      // eslint-disable-next-line no-sparse-arrays
      [1, , 3],
      { skipped: undefined },
      { fn: () => 1 },
      new Uint8Array([1, 2]),
      { a: { b: { c: { d: { e: 1 } } } } },
      Array.from({ length: 33 }, (_, index) => index),
      Object.fromEntries(Array.from({ length: 33 }, (_, index) => [`k${index}`, index])),
      undefined,
      () => 1,
      Symbol('s'),
      10n,
    ];
    for (const value of leftAlone) expect(quickJson(value)).toBeUndefined();
    for (const value of leftAlone.slice(0, -1)) expect(toJson(value)).toBe(stringify(value));
    expect(() => toJson(10n)).toThrow(TypeError);
  });

  it('leaves a cyclic value to JSON.stringify, which refuses it', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(quickJson(cyclic)).toBeUndefined();
    expect(() => toJson(cyclic)).toThrow(TypeError);
  });

  it('reads a getter as JSON.stringify does', () => {
    let reads = 0;
    const value = {
      get computed(): number {
        reads++;
        return 7;
      },
    };
    expect(toJson(value)).toBe('{"computed":7}');
    expect(reads).toBe(1);
  });
});
