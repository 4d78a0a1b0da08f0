import { describe, expect, it } from 'vitest';
import { deliveryKey } from './mqtt-message-key.js';

const packet = (
  topic: string,
  payload: string,
  userProperties?: Record<string, string | string[]>,
) => ({
  topic,
  payload: Buffer.from(payload),
  ...(userProperties === undefined ? {} : { properties: { userProperties } }),
});

describe('deliveryKey', () => {
  it('takes the id the publisher set in the message-id user property', () => {
    expect(deliveryKey(packet('a/b', '{}', { 'message-id': 'm1' }))).toBe('id:m1');
    expect(deliveryKey(packet('a/b', '{}', { 'message-id': ['m1', 'm2'] }))).toBe('id:m1');
  });

  it('reads the user property a node names in idProperty', () => {
    expect(deliveryKey(packet('a/b', '{}', { trace: 't9', 'message-id': 'm1' }), 'trace')).toBe(
      'id:t9',
    );
  });

  it('hashes topic and payload when no id was set, the same for a message sent again', () => {
    const first = deliveryKey(packet('a/b', '{"n":1}'));
    expect(first).toMatch(/^sha256:[0-9a-f]{32}$/);
    expect(deliveryKey(packet('a/b', '{"n":1}', { other: 'x' }))).toBe(first);
    expect(deliveryKey(packet('a/b', '{"n":2}'))).not.toBe(first);
    expect(deliveryKey(packet('a/c', '{"n":1}'))).not.toBe(first);
    // The separator keeps topic and payload apart: 'a' + 'b/x' is not 'a/b' + 'x'.
    expect(deliveryKey(packet('a', 'b/x'))).not.toBe(deliveryKey(packet('a/b', 'x')));
  });

  it('ignores an empty id', () => {
    expect(deliveryKey(packet('a/b', 'x', { 'message-id': '' }))).toMatch(/^sha256:/);
  });
});
