// Helpers of the broker plugins: a consumer's credit follows the graph below it within bounds,
// and bodies become payloads and payloads bodies the same way for every broker.
import { describe, expect, it } from 'vitest';
import { bodyOf, consumerCredit, decodeBody, MAX_CONSUMER_CREDIT } from './broker-messages.js';

describe('consumerCredit', () => {
  it("takes the graph's credit, capped, when the node sets none", () => {
    expect(consumerCredit(undefined, { credit: 196 })).toBe(196);
    expect(consumerCredit(undefined, { credit: 50_000 })).toBe(MAX_CONSUMER_CREDIT);
    expect(consumerCredit(undefined, { credit: undefined })).toBe(MAX_CONSUMER_CREDIT);
    expect(consumerCredit(undefined, { credit: 0 })).toBe(1);
  });

  it('takes what the node sets, above the cap too', () => {
    expect(consumerCredit(5000, { credit: 196 })).toBe(5000);
  });
});

describe('bodies and payloads', () => {
  it('parses a JSON body unless told to keep text, and keeps text that is not JSON', () => {
    expect(decodeBody('{"n":1}', true)).toEqual({ n: 1 });
    expect(decodeBody('{"n":1}', false)).toBe('{"n":1}');
    expect(decodeBody('plain', true)).toBe('plain');
  });

  it('sends a string as it is and anything else as JSON', () => {
    expect(bodyOf('plain')).toBe('plain');
    expect(bodyOf({ n: 1 })).toBe('{"n":1}');
    expect(bodyOf(undefined)).toBe('null');
  });
});
