// What AMQP_CONSUME decides about its deliveries, apart from the broker: the stable key of a
// message (its id in every delivery), the answer a settled message gets, and the inbox
// between the client's delivery callback and the trigger's stream.
import { createHash } from 'node:crypto';
import type { SettlementOutcome } from '../../../plugin-api/index.js';

export const FAILURE_ACTIONS = ['requeue', 'reject', 'dead-letter'] as const;
export type FailureAction = (typeof FAILURE_ACTIONS)[number];

/** What goes back to the broker for a settled message. */
export type Answer = 'ack' | 'requeue' | 'reject' | 'dead-letter';

/** A delivery's properties that the key is made of. */
export interface KeyedDelivery {
  readonly messageId?: string | undefined;
  readonly exchange: string;
  readonly routingKey: string;
  readonly contentType?: string | undefined;
  readonly contentEncoding?: string | undefined;
  readonly correlationId?: string | undefined;
  readonly timestamp?: number | undefined;
  readonly type?: string | undefined;
  readonly appId?: string | undefined;
  readonly headers?: Readonly<Record<string, unknown>> | undefined;
  readonly body: unknown;
}

/**
 * Headers the broker itself changes from one delivery to the next (quorum queues' delivery
 * count, dead-lettering history): a key that read them would change on redelivery.
 */
const DELIVERY_HEADERS = /^x-(delivery-count|death|first-death-.*|last-death-.*)$/;

/**
 * The settlement key of a delivery: `m-` and the publisher's `messageId` when it set one.
 * AMQP has no broker-kept id (a delivery tag counts deliveries on one channel and changes on
 * redelivery), so without one the key is `h-` and a hash of what the publisher sent: the
 * exchange, routing key, properties, headers and body. Two messages alike in all of these
 * share a key, so publishers that send such messages should set `messageId`.
 */
export function messageKey(delivery: KeyedDelivery): string {
  if (delivery.messageId !== undefined && delivery.messageId !== '') {
    return `m-${delivery.messageId}`;
  }
  const headers = Object.entries(delivery.headers ?? {})
    .filter(([name]) => !DELIVERY_HEADERS.test(name))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const hash = createHash('sha256');
  hash.update(
    JSON.stringify([
      delivery.exchange,
      delivery.routingKey,
      delivery.contentType ?? null,
      delivery.contentEncoding ?? null,
      delivery.correlationId ?? null,
      delivery.timestamp ?? null,
      delivery.type ?? null,
      delivery.appId ?? null,
      headers,
    ]),
  );
  const body = delivery.body;
  // The client parses JSON and text bodies; the hash reads what was sent either way.
  hash.update(
    Buffer.isBuffer(body) ? body : typeof body === 'string' ? body : JSON.stringify(body),
  );
  return `h-${hash.digest('base64url').slice(0, 32)}`;
}

/** The answer to a settled message: done acks, cancelled requeues, failed takes `onFailure`. */
export function answerFor(
  outcome: SettlementOutcome,
  onFailure: FailureAction | undefined,
): Answer {
  switch (outcome) {
    case 'done':
      return 'ack';
    case 'cancelled':
      return 'requeue';
    case 'failed':
      return onFailure ?? 'requeue';
  }
}

/**
 * Deliveries waiting to be emitted. Unbounded on purpose: the broker sends no more than the
 * channel's prefetch unacknowledged, so the inbox holds at most that many.
 */
export class Inbox<T> {
  #items: T[] = [];
  #failure: Error | undefined;
  #waiter:
    { readonly resolve: (item: T) => void; readonly reject: (error: Error) => void } | undefined;

  get size(): number {
    return this.#items.length;
  }

  push(item: T): void {
    const waiter = this.#waiter;
    if (waiter === undefined) {
      this.#items.push(item);
      return;
    }
    this.#waiter = undefined;
    waiter.resolve(item);
  }

  /** Ends the stream with `error`: the next `next` throws it. */
  fail(error: Error): void {
    this.#failure ??= error;
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.reject(error);
  }

  /** The next item, waiting for one; throws the failure, or the signal's reason on abort. */
  next(signal: AbortSignal): Promise<T> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    if (this.#items.length > 0) return Promise.resolve(this.#items.shift() as T);
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => {
        this.#waiter = undefined;
        reject(signal.reason instanceof Error ? signal.reason : new Error('Aborted'));
      };
      if (signal.aborted) {
        onAbort();
        return;
      }
      signal.addEventListener('abort', onAbort, { once: true });
      this.#waiter = {
        resolve: (item) => {
          signal.removeEventListener('abort', onAbort);
          resolve(item);
        },
        reject: (error) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
    });
  }
}
