// The MQTT broker the broker tests use: SVC_TEST_MQTT_URL, by default mqtt://127.0.0.1:1883
// (Mosquitto, no authentication). As with the databases, when no broker answers the tests that
// need one are skipped with the reason, unless CI is set: then they fail.
import { connectAsync } from 'mqtt';
import type { IClientOptions, MqttClient } from 'mqtt';
import { noDelay } from '../../src/plugins/builtin/mqtt/mqtt-connection.js';

export const TEST_MQTT_URL = process.env.SVC_TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883';

/** An MQTT 5 client for test fixtures, connected once (no reconnection); the caller ends it. */
export async function testMqttClient(options: IClientOptions = {}): Promise<MqttClient> {
  const client = await connectAsync(
    TEST_MQTT_URL,
    { protocolVersion: 5, connectTimeout: 3000, reconnectPeriod: 0, ...options },
    false,
  );
  noDelay(client);
  return client;
}

/** Why MQTT tests cannot run here, or undefined when a broker answers. */
export async function mqttUnavailable(
  ci: string | undefined = process.env.CI,
): Promise<string | undefined> {
  try {
    const client = await testMqttClient();
    await client.endAsync();
    return undefined;
  } catch (error) {
    const reason = `no MQTT broker answers at SVC_TEST_MQTT_URL (${error instanceof Error ? error.message : String(error)}); start one, see the README`;
    if (ci !== undefined && ci !== '') throw new Error(reason, { cause: error });
    return reason;
  }
}

/**
 * Makes the persistent session `clientId` subscribed to `topic`, as a consumer would: from then
 * on the broker keeps what is published there for the session, before the consumer connects.
 */
export async function presetSession(clientId: string, topic: string, qos: 1 | 2): Promise<void> {
  const client = await testMqttClient({
    clientId,
    clean: false,
    properties: { sessionExpiryInterval: 3600 },
  });
  await client.subscribeAsync(topic, { qos });
  await client.endAsync();
}

/** Ends the session `clientId` and drops what the broker kept for it. */
export async function dropSession(clientId: string): Promise<void> {
  const client = await testMqttClient({
    clientId,
    clean: true,
    properties: { sessionExpiryInterval: 0 },
  });
  await client.endAsync();
}

/** A message read by a `Collector`: its JSON body and its `message-id` user property. */
export interface Collected {
  readonly body: { readonly n: number };
  readonly id: string | undefined;
  readonly properties: Record<string, string | string[]>;
}

/** Reads a topic from now on, and lets a test wait until it has seen enough distinct numbers. */
export class Collector {
  readonly messages: Collected[] = [];
  readonly numbers = new Set<number>();
  #waiters: { readonly count: number; readonly wake: () => void }[] = [];

  private constructor(readonly client: MqttClient) {}

  static async of(topic: string, qos: 0 | 1 | 2 = 1): Promise<Collector> {
    const collector = new Collector(await testMqttClient());
    collector.client.on('message', (_topic, payload, packet) => {
      const properties = packet.properties?.userProperties ?? {};
      const id = properties['message-id'];
      const body = JSON.parse(payload.toString('utf8')) as { n: number };
      collector.messages.push({ body, id: Array.isArray(id) ? id[0] : id, properties });
      collector.numbers.add(body.n);
      collector.#waiters = collector.#waiters.filter((waiter) => {
        if (collector.numbers.size < waiter.count) return true;
        waiter.wake();
        return false;
      });
    });
    await collector.client.subscribeAsync(topic, { qos });
    return collector;
  }

  /** Resolves once `count` distinct numbers were read; fails after `timeoutMs`. */
  whenAtLeast(count: number, timeoutMs: number): Promise<void> {
    if (this.numbers.size >= count) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`read ${this.numbers.size} distinct numbers, waited for ${count}`));
      }, timeoutMs);
      this.#waiters.push({
        count,
        wake: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  close(): Promise<void> {
    return this.client.endAsync();
  }
}
