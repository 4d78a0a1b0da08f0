// What AMQP_CONSUME decides apart from the broker: a message's key stays the same on every
// delivery, a settlement gets the answer docs/brokers.md promises, and the inbox hands
// deliveries to the stream in order and ends it on a failure.
import { describe, expect, it } from 'vitest';
import { answerFor, Inbox, messageKey } from './amqp-deliveries.js';
import type { KeyedDelivery } from './amqp-deliveries.js';

const published: KeyedDelivery = {
  exchange: 'orders',
  routingKey: 'orders.new',
  contentType: 'application/json',
  timestamp: 1_790_000_000,
  headers: { tenant: 'a', region: 'eu' },
  body: { n: 1 },
};

describe('messageKey', () => {
  it("takes the publisher's messageId when it set one", () => {
    expect(messageKey({ ...published, messageId: 'order-17' })).toBe('m-order-17');
  });

  it('keeps the key of a message without messageId across redeliveries and dead-letter rounds', () => {
    const first = messageKey(published);
    const again = messageKey({
      ...published,
      headers: {
        region: 'eu',
        tenant: 'a',
        'x-delivery-count': 3,
        'x-death': [{ count: 1, queue: 'orders' }],
        'x-first-death-queue': 'orders',
      },
    });
    expect(again).toBe(first);
    expect(first).toMatch(/^h-[A-Za-z0-9_-]{32}$/);
  });

  it('reads a body the same whether it came as bytes, text or parsed JSON', () => {
    const bytes = messageKey({ ...published, body: Buffer.from('{"n":1}') });
    expect(messageKey({ ...published, body: '{"n":1}' })).toBe(bytes);
    expect(messageKey(published)).toBe(bytes);
  });

  it('tells apart messages that differ in body, routing key or a header of the publisher', () => {
    const keys = new Set([
      messageKey(published),
      messageKey({ ...published, body: { n: 2 } }),
      messageKey({ ...published, routingKey: 'orders.old' }),
      messageKey({ ...published, headers: { tenant: 'b', region: 'eu' } }),
      messageKey({ ...published, timestamp: 1_790_000_001 }),
    ]);
    expect(keys.size).toBe(5);
  });
});

describe('answerFor', () => {
  it('acks a done message whatever onFailure says', () => {
    expect(answerFor('done', 'reject')).toBe('ack');
    expect(answerFor('done', undefined)).toBe('ack');
  });

  it('requeues a cancelled message, even when failures are rejected or dead-lettered', () => {
    expect(answerFor('cancelled', 'reject')).toBe('requeue');
    expect(answerFor('cancelled', 'dead-letter')).toBe('requeue');
  });

  it('answers a failed message by onFailure, requeue by default', () => {
    expect(answerFor('failed', undefined)).toBe('requeue');
    expect(answerFor('failed', 'reject')).toBe('reject');
    expect(answerFor('failed', 'dead-letter')).toBe('dead-letter');
  });
});

describe('Inbox', () => {
  it('hands out what was pushed in order, and wakes a waiting reader', async () => {
    const inbox = new Inbox<number>();
    const signal = new AbortController().signal;
    inbox.push(1);
    inbox.push(2);
    expect(await inbox.next(signal)).toBe(1);
    expect(await inbox.next(signal)).toBe(2);
    const third = inbox.next(signal);
    inbox.push(3);
    expect(await third).toBe(3);
    expect(inbox.size).toBe(0);
  });

  it('throws its failure to a waiting reader and to every later one', async () => {
    const inbox = new Inbox<number>();
    const signal = new AbortController().signal;
    const waiting = inbox.next(signal);
    inbox.fail(new Error('queue gone'));
    await expect(waiting).rejects.toThrow('queue gone');
    inbox.push(4);
    await expect(inbox.next(signal)).rejects.toThrow('queue gone');
  });

  it("gives up a wait when the run's signal aborts", async () => {
    const inbox = new Inbox<number>();
    const controller = new AbortController();
    const waiting = inbox.next(controller.signal);
    controller.abort(new Error('run stopped'));
    await expect(waiting).rejects.toThrow('run stopped');
    inbox.push(5);
    expect(await inbox.next(new AbortController().signal)).toBe(5);
  });
});
