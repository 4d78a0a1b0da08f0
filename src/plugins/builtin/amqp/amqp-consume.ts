// AMQP_CONSUME (optional plugin amqp): a trigger on a RabbitMQ queue. Each message is
// acknowledged only when everything it led to in the run is done; a failure after retries
// requeues it, rejects it to the queue's own dead-letter exchange, or publishes it to a named
// exchange; a message still under way when the run ends is requeued. The channel's prefetch
// is the graph's credit (NodeContext.credit, capped), so the broker never has more of the
// queue out than the graph below can hold and the backlog stays on it (docs/brokers.md).
import { AMQPChannelError } from 'rabbitmq-client';
import type { AsyncMessage, Channel, Connection } from 'rabbitmq-client';
import {
  consumerCredit,
  deadLetterReason,
  decodeBody,
  decodeOption,
  definePlugin,
  MAX_CONSUMER_CREDIT,
  messageOf,
  needsDeadLetterTarget,
  positiveInt,
  StepFailure,
  z,
} from '../../../plugin-api/index.js';
import type {
  Emit,
  NodeContext,
  SettlementFailure,
  SettlementOutcome,
} from '../../../plugin-api/index.js';
import {
  amqpConnectionKeys,
  openConnection,
  RETRY_HIGH_MS,
  RETRY_LOW_MS,
} from './amqp-connection.js';
import { answerFor, FAILURE_ACTIONS, Inbox, messageKey } from './amqp-deliveries.js';
import type { Answer } from './amqp-deliveries.js';

export const AMQP_CONSUME = 'AMQP_CONSUME';
/** The `plugin` tag of `svc.plugin.events` for settled messages; outcome is what was sent. */
export const MESSAGE_EVENT = 'amqp.message';

export const amqpConsumeConfigSchema = z
  .looseObject({
    ...amqpConnectionKeys,
    queue: z.string().min(1).max(255).describe('Queue to consume'),
    declare: z
      .boolean()
      .optional()
      .describe(
        'true (default): a durable queue is declared when missing; false: the queue must exist (declared with arguments elsewhere)',
      ),
    prefetch: positiveInt()
      .max(65_535)
      .optional()
      .describe(
        `Most unacknowledged messages held (basic.qos); by default what the graph below can take, at most ${MAX_CONSUMER_CREDIT}`,
      ),
    onFailure: z
      .enum(FAILURE_ACTIONS)
      .optional()
      .describe(
        "A message that failed in the run: requeue (default), reject (to the queue's dead-letter exchange, or dropped), dead-letter (published to deadLetterExchange)",
      ),
    deadLetterExchange: z
      .string()
      .optional()
      .describe('For onFailure dead-letter: the exchange failed messages go to ("" for a queue)'),
    deadLetterRoutingKey: z
      .string()
      .min(1)
      .optional()
      .describe(
        'For onFailure dead-letter: the routing key (a queue name with exchange ""); by default the message\'s own',
      ),
    decode: decodeOption(),
  })
  .superRefine(needsDeadLetterTarget('deadLetterExchange', 'deadLetterRoutingKey'));

export type AmqpConsumeConfig = z.output<typeof amqpConsumeConfigSchema>;

export const amqpConsumePlugin = definePlugin({
  type: AMQP_CONSUME,
  kind: 'trigger',
  description:
    'Consumes a RabbitMQ queue and emits each message; acknowledges it only when everything it led to is done, with a prefetch the workflow can hold.',
  configSchema: amqpConsumeConfigSchema,
  outputPorts: () => ['out'],
  create: (config) => ({ run: (_input, ctx) => consume(config, ctx) }),
});

/** A message and the channel it came on: only that channel can answer it. */
interface Delivery {
  readonly message: AsyncMessage;
  readonly channel: Channel;
}

async function* consume(config: AmqpConsumeConfig, ctx: NodeContext): AsyncGenerator<Emit> {
  const connection = openConnection(config, ctx);
  const inbox = new Inbox<Delivery>();
  const held = new Set<Delivery>();
  const stop = new AbortController();
  const consuming = keepConsuming(config, ctx, connection, inbox, stop.signal);
  const answer = answerer(config, ctx, connection, held);
  const json = config.decode !== 'text';
  try {
    for (;;) {
      const delivery = await inbox.next(ctx.signal);
      // Its channel closed before it was emitted: the broker has requeued it already.
      if (!delivery.channel.active) continue;
      held.add(delivery);
      yield emitOf(config, delivery, json, answer);
    }
  } finally {
    stop.abort();
    // What the run still had under way goes back to the queue at once.
    for (const delivery of held) send(delivery, 'requeue');
    held.clear();
    await answer.close();
    // Closing the connection first ends a wait for a channel at once.
    await connection.close().catch(() => undefined);
    await consuming;
  }
}

/**
 * Keeps one channel consuming the queue with the node's prefetch: when the channel or the
 * connection is lost, opens another after a growing pause. Messages unacknowledged on a lost
 * channel are requeued by the broker and come again on the next. A queue that is missing or
 * declared otherwise ends the stream, since no retry helps.
 */
async function keepConsuming(
  config: AmqpConsumeConfig,
  ctx: NodeContext,
  connection: Connection,
  inbox: Inbox<Delivery>,
  stop: AbortSignal,
): Promise<void> {
  const prefetch = consumerCredit(config.prefetch, ctx);
  // A function, not the property: the compiler would take it for unchanged across awaits.
  const stopped = (): boolean => stop.aborted;
  let pause = RETRY_LOW_MS;
  while (!stopped()) {
    let channel: Channel | undefined;
    try {
      channel = await connection.acquire();
      const closed = closeOf(channel);
      if (config.declare === false) {
        await channel.queueDeclare({ queue: config.queue, passive: true });
      } else {
        await channel.queueDeclare({ queue: config.queue, durable: true });
      }
      await channel.basicQos({ prefetchCount: prefetch });
      const current = channel;
      await channel.basicConsume({ queue: config.queue }, (message) => {
        inbox.push({ message, channel: current });
      });
      pause = RETRY_LOW_MS;
      await Promise.race([closed, abortOf(stop)]);
    } catch (error) {
      if (stopped()) break;
      const fatal = fatalOf(config, error);
      if (fatal !== undefined) {
        inbox.fail(fatal);
        break;
      }
      ctx.log.warn('AMQP consumer not set up; trying again', {
        queue: config.queue,
        error: messageOf(error),
        retryInMs: pause,
      });
    } finally {
      if (channel?.active === true && stopped()) await channel.close().catch(() => undefined);
    }
    if (stopped()) break;
    await ctx.sleep(pause, { signal: stop }).catch(() => undefined);
    pause = Math.min(RETRY_HIGH_MS, pause * 2);
  }
}

function fatalOf(config: AmqpConsumeConfig, error: unknown): Error | undefined {
  if (!(error instanceof AMQPChannelError)) return undefined;
  if (error.code === 'NOT_FOUND') {
    return StepFailure.nonRetryable(`AMQP queue '${config.queue}' does not exist`);
  }
  if (error.code === 'PRECONDITION_FAILED') {
    return StepFailure.nonRetryable(
      `AMQP queue '${config.queue}' exists with other arguments; set declare to false: ${error.message}`,
    );
  }
  return undefined;
}

/**
 * Resolves when the channel closes, or when the broker cancels its consumer (the queue was
 * deleted, a quorum queue's leader moved): that channel gets no more messages, so it is
 * closed, the broker requeues what it had out, and the loop consumes on a new one.
 */
function closeOf(channel: Channel): Promise<void> {
  return new Promise((resolve) => {
    channel.once('close', () => {
      resolve();
    });
    channel.once('basic.cancel', () => {
      void channel.close().catch(() => undefined);
      resolve();
    });
  });
}

function abortOf(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else {
      signal.addEventListener(
        'abort',
        () => {
          resolve();
        },
        { once: true },
      );
    }
  });
}

function emitOf(
  config: AmqpConsumeConfig,
  delivery: Delivery,
  json: boolean,
  answer: Answerer,
): Emit {
  const { message } = delivery;
  return {
    payload: payloadOf(message.body, json),
    headers: {
      amqpQueue: config.queue,
      amqpExchange: message.exchange,
      amqpRoutingKey: message.routingKey,
      amqpRedelivered: message.redelivered,
      ...(message.messageId === undefined ? {} : { amqpMessageId: message.messageId }),
    },
    settlement: {
      key: messageKey(message),
      onSettled: (outcome, failure) => {
        answer.settle(delivery, outcome, failure);
      },
    },
  };
}

/** The client parses JSON and text bodies by content type; any other body is bytes. */
function payloadOf(body: unknown, json: boolean): unknown {
  if (Buffer.isBuffer(body)) return decodeBody(body.toString('utf8'), json);
  if (typeof body === 'string') return decodeBody(body, json);
  return json ? body : JSON.stringify(body);
}

interface Answerer {
  settle(delivery: Delivery, outcome: SettlementOutcome, failure?: SettlementFailure): void;
  close(): Promise<void>;
}

/** Sends `answer` on the delivery's channel; false when the channel is gone. */
function send(delivery: Delivery, answer: 'ack' | 'requeue' | 'reject'): boolean {
  const { channel, message } = delivery;
  if (!channel.active) return false;
  try {
    if (answer === 'ack') channel.basicAck({ deliveryTag: message.deliveryTag });
    else channel.basicNack({ deliveryTag: message.deliveryTag, requeue: answer === 'requeue' });
    return true;
  } catch {
    // The channel closed under us: the broker requeues what it had out.
    return false;
  }
}

const SENT: Readonly<Record<Answer, string>> = {
  ack: 'acked',
  requeue: 'requeued',
  reject: 'rejected',
  'dead-letter': 'dead-lettered',
};

/** What a settled message sends back to the broker. */
function answerer(
  config: AmqpConsumeConfig,
  ctx: NodeContext,
  connection: Connection,
  held: Set<Delivery>,
): Answerer {
  // Made on the first dead letter: confirms make sure it is stored before the original goes.
  const publisher = connection.createPublisher({ confirm: true, maxAttempts: 2 });
  const answer = (delivery: Delivery, sent: 'ack' | 'requeue' | 'reject', as: string): void => {
    ctx.report(MESSAGE_EVENT, send(delivery, sent) ? as : 'lost');
  };
  return {
    settle: (delivery, outcome, failure) => {
      // Requeued when the node ended: nothing more to send.
      if (!held.delete(delivery)) return;
      const chosen = answerFor(outcome, config.onFailure);
      if (chosen !== 'dead-letter') {
        answer(delivery, chosen, SENT[chosen]);
        return;
      }
      const { message } = delivery;
      const reason = deadLetterReason(failure);
      publisher
        .send(
          {
            exchange: config.deadLetterExchange ?? '',
            routingKey: config.deadLetterRoutingKey ?? message.routingKey,
            durable: true,
            ...(message.messageId === undefined ? {} : { messageId: message.messageId }),
            ...(message.contentType === undefined ? {} : { contentType: message.contentType }),
            headers: {
              ...message.headers,
              'x-original-exchange': message.exchange,
              'x-original-routing-key': message.routingKey,
              'x-original-queue': config.queue,
              'x-workflow-node': `${ctx.workflowId}/${ctx.nodeId}`,
              'x-failed-node': reason.failedNode,
              'x-error': reason.error,
            },
          },
          message.body,
        )
        .then(
          () => {
            answer(delivery, 'ack', SENT['dead-letter']);
          },
          (error: unknown) => {
            ctx.log.warn('Dead letter not published; message requeued', {
              error: messageOf(error),
            });
            answer(delivery, 'requeue', SENT.requeue);
          },
        );
    },
    close: () => publisher.close().catch(() => undefined),
  };
}
