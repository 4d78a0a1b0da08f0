// AMQP_PUBLISH (optional plugin amqp): publishes each message's payload (JSON, or the string
// itself as text) to an exchange with publisher confirms, as a persistent message whose
// `messageId` is the engine's message id, so a consumer can drop a message published again
// after a crash (docs/brokers.md).
import type { Connection, Publisher } from 'rabbitmq-client';
import {
  bodyOf,
  definePlugin,
  messageOf,
  publishConcurrency,
  StepFailure,
  z,
} from '../../../plugin-api/index.js';
import type { Emit, Message, MessageProcessor, NodeContext } from '../../../plugin-api/index.js';
import { amqpConnectionKeys, openConnection } from './amqp-connection.js';

export const AMQP_PUBLISH = 'AMQP_PUBLISH';
/** The `plugin` tag of `svc.plugin.events` for publishes: outcome `published` or `failed`. */
export const PUBLISH_EVENT = 'amqp.publish';

export const amqpPublishConfigSchema = z.looseObject({
  ...amqpConnectionKeys,
  exchange: z
    .string()
    .optional()
    .describe('Exchange to publish to; "" (default) routes by queue name'),
  routingKey: z.string().describe('Routing key (with exchange "", the queue name)'),
  persistent: z
    .boolean()
    .optional()
    .describe('true (default): delivery mode 2, kept by a durable queue across broker restarts'),
  concurrency: publishConcurrency(),
});

export type AmqpPublishConfig = z.output<typeof amqpPublishConfigSchema>;

export const amqpPublishPlugin = definePlugin({
  type: AMQP_PUBLISH,
  kind: 'processor',
  description:
    'Publishes each payload to a RabbitMQ exchange with publisher confirms, the message id as messageId, and emits where it went.',
  configSchema: amqpPublishConfigSchema,
  outputPorts: () => ['out'],
  create: (config) => new AmqpPublisher(config),
});

class AmqpPublisher implements MessageProcessor {
  readonly concurrency: number;
  readonly #config: AmqpPublishConfig;
  #client: { connection: Connection; publisher: Publisher } | undefined;

  constructor(config: AmqpPublishConfig) {
    this.#config = config;
    this.concurrency = config.concurrency ?? 1;
  }

  async process(message: Message, ctx: NodeContext): Promise<Emit> {
    const { publisher } = this.#connect(ctx);
    const exchange = this.#config.exchange ?? '';
    const routingKey = this.#config.routingKey;
    const text = typeof message.payload === 'string';
    try {
      await publisher.send(
        {
          exchange,
          routingKey,
          messageId: message.id,
          durable: this.#config.persistent !== false,
          contentType: text ? 'text/plain' : 'application/json',
        },
        Buffer.from(bodyOf(message.payload), 'utf8'),
      );
      ctx.report(PUBLISH_EVENT, 'published');
      return { payload: { exchange, routingKey, messageId: message.id } };
    } catch (error) {
      ctx.report(PUBLISH_EVENT, 'failed');
      const reason = messageOf(error);
      // The exchange does not exist: no retry helps.
      if (/NOT_FOUND/.test(reason)) {
        throw StepFailure.nonRetryable(`AMQP exchange '${exchange}' does not exist`);
      }
      throw new Error(`AMQP publish to '${exchange}' '${routingKey}' failed: ${reason}`, {
        cause: error,
      });
    }
  }

  /**
   * One connection per node, made on its first message; the client reconnects it, and a
   * publish waits for a channel up to the client's acquire timeout, then fails and is retried
   * by the node's retry policy.
   */
  #connect(ctx: NodeContext): { connection: Connection; publisher: Publisher } {
    if (this.#client === undefined) {
      const connection = openConnection(this.#config, ctx);
      this.#client = {
        connection,
        publisher: connection.createPublisher({ confirm: true, maxAttempts: 1 }),
      };
    }
    return this.#client;
  }

  async close(): Promise<void> {
    const client = this.#client;
    this.#client = undefined;
    await client?.publisher.close().catch(() => undefined);
    await client?.connection.close().catch(() => undefined);
  }
}
