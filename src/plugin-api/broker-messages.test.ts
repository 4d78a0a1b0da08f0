// Helpers of the broker plugins: a consumer's credit follows the graph below it within bounds,
// and bodies become payloads and payloads bodies the same way for every broker; dead letters
// say why on one line; a dead-letter action needs its target; a settled message's credit comes
// back once the broker took the answer, or did not.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  answerWhenTaken,
  bodyOf,
  consumerCredit,
  deadLetterReason,
  decodeBody,
  MAX_CONSUMER_CREDIT,
  needsDeadLetterTarget,
} from './broker-messages.js';

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

describe('dead letters', () => {
  it('says where and why on one line, cut short', () => {
    expect(deadLetterReason({ nodeId: 'check', error: 'odd\n  at line 2' })).toEqual({
      failedNode: 'check',
      error: 'odd at line 2',
    });
    const long = deadLetterReason({ nodeId: 'n', error: 'x'.repeat(5000) });
    expect(long.error).toHaveLength(1024);
    expect(long.error.endsWith('…')).toBe(true);
    expect(deadLetterReason(undefined).error).toBe('failed after its retries and onError');
  });

  it('refuses onFailure dead-letter without a target, naming every key that would do', () => {
    const schema = z
      .object({
        onFailure: z.enum(['nak', 'dead-letter']).optional(),
        exchange: z.string().optional(),
        routingKey: z.string().optional(),
      })
      .superRefine(needsDeadLetterTarget('exchange', 'routingKey'));
    expect(schema.safeParse({ onFailure: 'nak' }).success).toBe(true);
    expect(schema.safeParse({ onFailure: 'dead-letter', routingKey: 'q' }).success).toBe(true);
    const refused = schema.safeParse({ onFailure: 'dead-letter' });
    expect(refused.error?.issues[0]).toMatchObject({
      path: ['exchange'],
      message: 'onFailure dead-letter needs exchange or routingKey',
    });
  });
});

describe('answerWhenTaken', () => {
  it('gives the credit back once the broker took the answer, counting it, or lost, logging it', async () => {
    const reported: string[] = [];
    const warned: string[] = [];
    let settled = 0;
    const finish = answerWhenTaken(
      {
        report: (event, outcome) => reported.push(`${event}:${outcome}`),
        log: { warn: (text: string) => warned.push(text) } as never,
      },
      {
        settled: () => {
          settled++;
        },
      },
      'x.message',
    );
    let confirm: () => void = () => undefined;
    finish('acked', new Promise<void>((resolve) => (confirm = resolve)));
    await Promise.resolve();
    expect(settled).toBe(0);
    confirm();
    await new Promise((resolve) => setImmediate(resolve));
    expect(reported).toEqual(['x.message:acked']);
    finish('nakked', Promise.reject(new Error('gone')));
    await new Promise((resolve) => setImmediate(resolve));
    expect(reported).toEqual(['x.message:acked', 'x.message:lost']);
    expect(warned).toHaveLength(1);
    expect(settled).toBe(2);
  });
});
