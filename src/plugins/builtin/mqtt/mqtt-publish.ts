// MQTT_PUBLISH (optional plugin mqtt): publishes each message's payload (JSON, or the string
// itself) to a topic, with the message id in a user property, so a consumer downstream (another
// workflow's MQTT_SUBSCRIBE) keeps the id of a message published again after a crash. At QoS 1
// and 2 the broker's acknowledgement is awaited before the message goes on.
import type { MqttClient } from 'mqtt';
import { bodyOf, definePlugin, messageOf, positiveInt, z } from '../../../plugin-api/index.js';
import type { Emit, Message, MessageProcessor, NodeContext } from '../../../plugin-api/index.js';
import { connectClient, ID_PROPERTY, mqttConnectionKeys } from './mqtt-connection.js';

export const MQTT_PUBLISH = 'MQTT_PUBLISH';
/** The `plugin` tag of `svc.plugin.events` for publishes: outcome `published` or `failed`. */
export const PUBLISH_EVENT = 'mqtt.publish';

export const mqttPublishConfigSchema = z.looseObject({
  ...mqttConnectionKeys,
  topic: z.string().min(1).describe('Topic to publish to'),
  qos: z
    .union([z.literal(0), z.literal(1), z.literal(2)])
    .optional()
    .describe('QoS 0, 1 (default: the broker acknowledges each) or 2'),
  retain: z.boolean().optional().describe('Whether the broker keeps the last message of the topic'),
  concurrency: positiveInt()
    .max(1000)
    .optional()
    .describe('Publishes awaited at once (default 1); above 1 outputs may leave out of order'),
});

export type MqttPublishConfig = z.output<typeof mqttPublishConfigSchema>;

export const mqttPublishPlugin = definePlugin({
  type: MQTT_PUBLISH,
  kind: 'processor',
  description:
    'Publishes each payload to an MQTT topic (QoS 1 by default), with the message id as a user property, and emits where it went.',
  configSchema: mqttPublishConfigSchema,
  outputPorts: () => ['out'],
  create: (config) => new MqttPublisher(config),
});

class MqttPublisher implements MessageProcessor {
  readonly concurrency: number;
  readonly #config: MqttPublishConfig;
  #client: Promise<MqttClient> | undefined;

  constructor(config: MqttPublishConfig) {
    this.#config = config;
    this.concurrency = config.concurrency ?? 1;
  }

  async process(message: Message, ctx: NodeContext): Promise<Emit> {
    const client = await this.#connect(ctx);
    const { topic } = this.#config;
    const qos = this.#config.qos ?? 1;
    try {
      await client.publishAsync(topic, bodyOf(message.payload), {
        qos,
        retain: this.#config.retain ?? false,
        properties: { userProperties: { [this.#config.idProperty ?? ID_PROPERTY]: message.id } },
      });
      ctx.report(PUBLISH_EVENT, 'published');
      return { payload: { topic, qos } };
    } catch (error) {
      ctx.report(PUBLISH_EVENT, 'failed');
      throw new Error(`MQTT publish to '${topic}' failed: ${messageOf(error)}`, { cause: error });
    }
  }

  /**
   * One client per node, connected on its first message. A publisher needs no session kept
   * (what it has not seen acknowledged fails its message, which is retried), so by default its
   * client id is a random one: runs of one workflow side by side do not push each other off.
   */
  #connect(ctx: NodeContext): Promise<MqttClient> {
    const { clientId } = this.#config;
    this.#client ??= connectClient(this.#config, ctx, {
      ...(clientId === undefined ? {} : { clientId }),
      clean: true,
    });
    return this.#client.catch((error: unknown) => {
      this.#client = undefined;
      throw error;
    });
  }

  async close(): Promise<void> {
    const pending = this.#client;
    this.#client = undefined;
    const client = await pending?.catch(() => undefined);
    await client?.endAsync().catch(() => undefined);
  }
}
