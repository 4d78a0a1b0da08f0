import { describe, expect, it } from 'vitest';
import { isAppError } from '../core/index.js';
import { MAX_JSON_DEPTH, parseJsonBody } from './json-body.js';

/** The field errors a body is refused with, or undefined when it is accepted. */
function refusal(text: string): { field: string; message: string }[] | undefined {
  try {
    parseJsonBody(text);
    return undefined;
  } catch (error) {
    if (!isAppError(error)) throw error;
    return error.fieldErrors.map(({ field, message }) => ({ field, message }));
  }
}

const nested = (depth: number, inner = '1'): string =>
  '['.repeat(depth) + inner + ']'.repeat(depth);

describe('parseJsonBody', () => {
  it('accepts a small body and gives back its value', () => {
    expect(parseJsonBody('{"sessionId":"s","payload":{"n":[1,2]}}')).toEqual({
      sessionId: 's',
      payload: { n: [1, 2] },
    });
  });

  it('refuses a __proto__ key spelled with escapes', () => {
    expect(refusal('{"a":{"\\u005f_proto__":{}}}')).toEqual([
      {
        field: 'a.__proto__',
        message: "Field '__proto__' is not allowed: it could change the prototype of objects",
      },
    ]);
    expect(refusal('{"constructor":{"pro\\u0074otype":{}}}')?.[0]?.field).toBe('constructor');
  });

  it('accepts nesting up to the limit and refuses one level more', () => {
    expect(refusal(nested(MAX_JSON_DEPTH))).toBeUndefined();
    expect(refusal(nested(MAX_JSON_DEPTH + 1))?.[0]?.message).toBe(
      `Request body is nested deeper than ${MAX_JSON_DEPTH} levels`,
    );
  });

  it('is not misled by brackets inside strings', () => {
    // Closing brackets in a string do not hide nesting below it.
    const hidden = `{"a":"${']'.repeat(200)}","b":${nested(MAX_JSON_DEPTH + 1)}}`;
    expect(refusal(hidden)?.[0]?.message).toBe(
      `Request body is nested deeper than ${MAX_JSON_DEPTH} levels`,
    );
    // Opening brackets in a string are only text.
    expect(refusal(`{"a":"${'['.repeat(500)}"}`)).toBeUndefined();
    // The letters of a forbidden key inside a value are only text.
    expect(refusal('{"note":"__proto__ and prototype"}')).toBeUndefined();
  });
});
