import type { IPublishPacket } from 'mqtt';
import { describe, expect, it } from 'vitest';
import { Deliveries } from './mqtt-deliveries.js';
import type { Delivery } from './mqtt-deliveries.js';

const packet = (messageId: number): IPublishPacket => ({
  cmd: 'publish',
  topic: 't',
  payload: Buffer.from(String(messageId)),
  qos: 1,
  dup: false,
  retain: false,
  messageId,
});

function emitted(deliveries: Deliveries, id: number): Delivery {
  const received = deliveries.receive(packet(id));
  if (received.kind !== 'emit') throw new Error(`packet ${id} was ${received.kind}`);
  return received.delivery;
}

describe('Deliveries', () => {
  it('acknowledges a settled message on the connection it arrived on', () => {
    const deliveries = new Deliveries();
    deliveries.connected(false);
    const delivery = emitted(deliveries, 1);
    expect(deliveries.size).toBe(1);
    expect(deliveries.holds(delivery)).toBe(true);
    expect(deliveries.acknowledge(delivery, true)).toBe(true);
    expect(deliveries.size).toBe(0);
    expect(deliveries.holds(delivery)).toBe(false);
  });

  it('takes over a message the broker sends again while the run still works on it', () => {
    const deliveries = new Deliveries();
    deliveries.connected(false);
    const delivery = emitted(deliveries, 7);
    deliveries.connected(true);
    expect(deliveries.receive(packet(7)).kind).toBe('taken-over');
    // Acknowledged on the new connection, where the broker waits for it.
    expect(deliveries.acknowledge(delivery, true)).toBe(true);
  });

  it('keeps an acknowledgement due while disconnected for when the broker sends the message again', () => {
    const deliveries = new Deliveries();
    deliveries.connected(false);
    const delivery = emitted(deliveries, 3);
    expect(deliveries.acknowledge(delivery, false)).toBe(false);
    deliveries.connected(true);
    expect(deliveries.receive(packet(3)).kind).toBe('ack');
    // The id is free again: a new message with it is emitted.
    expect(deliveries.receive(packet(3)).kind).toBe('emit');
  });

  it('does not acknowledge on a later connection what arrived on an earlier one', () => {
    const deliveries = new Deliveries();
    deliveries.connected(false);
    const delivery = emitted(deliveries, 4);
    deliveries.connected(true);
    // The broker has not sent it again yet: an acknowledgement now could name another message.
    expect(deliveries.acknowledge(delivery, true)).toBe(false);
    expect(deliveries.receive(packet(4)).kind).toBe('ack');
  });

  it('emits anew a released message the broker sends again', () => {
    const deliveries = new Deliveries();
    deliveries.connected(false);
    const delivery = emitted(deliveries, 5);
    deliveries.release(delivery);
    expect(deliveries.holds(delivery)).toBe(false);
    expect(deliveries.size).toBe(1);
    deliveries.connected(true);
    const again = emitted(deliveries, 5);
    expect(again).not.toBe(delivery);
    expect(deliveries.holds(again)).toBe(true);
  });

  it('forgets everything when the broker did not keep the session', () => {
    const deliveries = new Deliveries();
    deliveries.connected(false);
    const held = emitted(deliveries, 1);
    deliveries.acknowledge(emitted(deliveries, 2), false);
    deliveries.connected(false);
    expect(deliveries.size).toBe(0);
    expect(deliveries.holds(held)).toBe(false);
    expect(deliveries.receive(packet(2)).kind).toBe('emit');
  });
});
