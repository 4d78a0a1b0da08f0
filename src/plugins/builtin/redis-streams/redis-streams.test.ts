// The subtle parts of the Redis Streams plugin that need no server: reading Redis' nested
// replies (deleted entries, blocking reads that timed out, claim cursors), the reconnection
// pause, the payload of an entry, the XADD arguments and the consumer name.
import { describe, expect, it } from 'vitest';
import type { NodeContext } from '../../../plugin-api/index.js';
import { claimReplyOf, readReplyEntries, reconnectDelay } from './redis-connection.js';
import { addArguments, redisStreamAddConfigSchema } from './redis-stream-add.js';
import { consumerNameOf, payloadOf, redisStreamReadConfigSchema } from './redis-stream-read.js';

const readConfig = (extra: Record<string, unknown> = {}) =>
  redisStreamReadConfigSchema.parse({ url: 'redis://r', stream: 's', group: 'g', ...extra });

describe('Redis replies', () => {
  it('reads the entries of an XREADGROUP reply, a deleted pending entry without fields', () => {
    const reply = [
      [
        's',
        [
          ['1-0', ['payload', '{"n":1}', 'messageId', 'm1']],
          ['2-0', null],
        ],
      ],
    ];
    expect(readReplyEntries(reply)).toEqual([
      { id: '1-0', fields: { payload: '{"n":1}', messageId: 'm1' } },
      { id: '2-0', fields: undefined },
    ]);
  });

  it('reads a reply a RESP3 map became, and a blocking read that timed out as no entries', () => {
    expect(readReplyEntries(['s', [['1-0', ['payload', 'a']]]])).toEqual([
      { id: '1-0', fields: { payload: 'a' } },
    ]);
    expect(readReplyEntries(null)).toEqual([]);
  });

  it('takes the cursor of an XAUTOCLAIM reply and drops the entries deleted meanwhile', () => {
    const reply = [
      '5-0',
      [
        ['3-0', ['payload', 'a']],
        ['4-0', null],
      ],
      ['4-0'],
    ];
    expect(claimReplyOf(reply)).toEqual({
      cursor: '5-0',
      entries: [{ id: '3-0', fields: { payload: 'a' } }],
    });
    expect(claimReplyOf(['0-0', [], []]).cursor).toBe('0-0');
  });
});

describe('reconnectDelay', () => {
  it('starts at half a second, doubles, and stays at 30 s however long Redis is away', () => {
    expect([1, 2, 3, 4].map(reconnectDelay)).toEqual([500, 1000, 2000, 4000]);
    expect(reconnectDelay(7)).toBe(30_000);
    expect(reconnectDelay(10_000)).toBe(30_000);
  });
});

describe('REDIS_STREAM_READ', () => {
  it('decodes the body field, or emits every field when the entry has none', () => {
    expect(payloadOf(readConfig(), { payload: '{"n":1}' })).toEqual({ n: 1 });
    expect(payloadOf(readConfig({ decode: 'text' }), { payload: '{"n":1}' })).toBe('{"n":1}');
    expect(payloadOf(readConfig({ field: 'body' }), { body: 'plain' })).toBe('plain');
    expect(payloadOf(readConfig(), { sensor: 't1', value: '3' })).toEqual({
      sensor: 't1',
      value: '3',
    });
  });

  it('names its consumer after the node unless told, so a restart finds its pending entries', () => {
    const ctx = { sessionId: 'a', workflowId: 'w', nodeId: 'in' } as NodeContext;
    expect(consumerNameOf(readConfig(), ctx)).toBe('svc:a:w:in');
    expect(consumerNameOf(readConfig({ consumer: 'box-1' }), ctx)).toBe('box-1');
  });

  it('needs a dead-letter stream for onFailure dead-letter', () => {
    expect(redisStreamReadConfigSchema.safeParse(readConfig({ onFailure: 'leave' })).success).toBe(
      true,
    );
    const parsed = redisStreamReadConfigSchema.safeParse({
      url: 'redis://r',
      stream: 's',
      group: 'g',
      onFailure: 'dead-letter',
    });
    expect(parsed.error?.issues[0]?.path).toEqual(['deadLetterStream']);
  });
});

describe('REDIS_STREAM_ADD', () => {
  const message = { id: 'msg-1', payload: { n: 1 }, headers: { attempt: 1 } };

  it('writes the message id beside the body, and trims approximately when maxLen is set', () => {
    const config = redisStreamAddConfigSchema.parse({ url: 'redis://r', stream: 'o' });
    expect(addArguments(config, message)).toEqual([
      '*',
      'messageId',
      'msg-1',
      'payload',
      '{"n":1}',
    ]);
    const trimmed = redisStreamAddConfigSchema.parse({
      url: 'redis://r',
      stream: 'o',
      maxLen: 1000,
      field: 'body',
      idField: 'id',
    });
    expect(addArguments(trimmed, message)).toEqual([
      'MAXLEN',
      '~',
      1000,
      '*',
      'id',
      'msg-1',
      'body',
      '{"n":1}',
    ]);
  });
});
