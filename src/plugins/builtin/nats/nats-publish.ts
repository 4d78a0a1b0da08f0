// NATS_PUBLISH (optional plugin nats): publishes each message's payload (JSON, or the string
// itself) to a subject. With `jetstream` (the default) the server's acknowledgement is awaited
// and the message id goes as `Nats-Msg-Id`, so a message delivered again after a crash is not
// stored twice within the stream's duplicate window; without it, a core NATS publish, flushed.
import { jetstream } from '@nats-io/jetstream';
import type { JetStreamClient } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  bodyOf,
  definePlugin,
  messageOf,
  publishConcurrency,
  StepFailure,
  z,
} from '../../../plugin-api/index.js';
import type { Emit, Message, MessageProcessor, NodeContext } from '../../../plugin-api/index.js';
import { closeConnection, connectOnce, natsConnectionKeys } from './nats-connection.js';
import type { NatsConnectionConfig } from './nats-connection.js';

export const NATS_PUBLISH = 'NATS_PUBLISH';
/** The `plugin` tag of `svc.plugin.events` for publishes: outcome `published` or `failed`. */
export const PUBLISH_EVENT = 'nats.publish';

export const natsPublishConfigSchema = z.looseObject({
  ...natsConnectionKeys,
  subject: z.string().min(1).describe('Subject to publish to'),
  jetstream: z
    .boolean()
    .optional()
    .describe('true (default): wait for the JetStream acknowledgement, deduplicated by message id'),
  concurrency: publishConcurrency(),
});

export type NatsPublishConfig = z.output<typeof natsPublishConfigSchema>;

export const natsPublishPlugin = definePlugin({
  type: NATS_PUBLISH,
  kind: 'processor',
  description:
    'Publishes each payload to a NATS subject (JetStream by default, deduplicated by message id) and emits where it was stored.',
  configSchema: natsPublishConfigSchema,
  outputPorts: () => ['out'],
  create: (config) => new NatsPublisher(config),
});

class NatsPublisher implements MessageProcessor {
  readonly concurrency: number;
  readonly #config: NatsPublishConfig;
  #connection: Promise<{ nc: NatsConnection; js: JetStreamClient }> | undefined;

  constructor(config: NatsPublishConfig) {
    this.#config = config;
    this.concurrency = config.concurrency ?? 1;
  }

  async process(message: Message, ctx: NodeContext): Promise<Emit> {
    const { nc, js } = await this.#connect(ctx);
    const subject = this.#config.subject;
    const body = bodyOf(message.payload);
    try {
      if (this.#config.jetstream === false) {
        nc.publish(subject, body);
        await nc.flush();
        ctx.report(PUBLISH_EVENT, 'published');
        return { payload: { subject } };
      }
      const ack = await js.publish(subject, body, { msgID: message.id });
      ctx.report(PUBLISH_EVENT, 'published');
      return {
        payload: { subject, stream: ack.stream, seq: ack.seq, duplicate: ack.duplicate },
      };
    } catch (error) {
      ctx.report(PUBLISH_EVENT, 'failed');
      const reason = messageOf(error);
      // No stream takes the subject: no retry helps.
      if (/no responders/i.test(reason)) {
        throw StepFailure.nonRetryable(`No JetStream stream takes subject '${subject}'`);
      }
      throw new Error(`NATS publish to '${subject}' failed: ${reason}`, { cause: error });
    }
  }

  /** One connection per node, made on its first message; a failed attempt is tried again. */
  #connect(ctx: NodeContext): Promise<{ nc: NatsConnection; js: JetStreamClient }> {
    const config: NatsConnectionConfig = this.#config;
    this.#connection ??= connectOnce(config, ctx).then((nc) => ({ nc, js: jetstream(nc) }));
    return this.#connection.catch((error: unknown) => {
      this.#connection = undefined;
      throw new Error(`NATS connection to ${config.servers} failed: ${messageOf(error)}`, {
        cause: error,
      });
    });
  }

  async close(): Promise<void> {
    const pending = this.#connection;
    this.#connection = undefined;
    const connection = await pending?.catch(() => undefined);
    if (connection !== undefined) await closeConnection(connection.nc);
  }
}
