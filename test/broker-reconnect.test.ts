// The broker consumers' reconnection (docs/brokers.md), against the real RabbitMQ, Redis and
// Mosquitto: each consumer reaches its broker through a TCP proxy of the test. Mid-stream the
// proxy drops every connection and then each new one, messages are published meanwhile, and
// when it passes them on again the consumer is back by itself (counted `reconnected`, after
// growing pauses) and every message reaches the other end, none lost, the input left with
// nothing unacknowledged. A broker that forgets the subscription (queue deleted, group
// destroyed, session ended) is subscribed to again; a Redis read whose answer was lost with the
// connection is read again. The AMQP consumer takes its password from a secret
// (`decrypted:amqp.password`). Each broker is skipped with the reason when it does not answer and
// CI is not set.
import type { Redis } from 'ioredis';
import type { Connection } from 'rabbitmq-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  amqpUnavailable,
  drain,
  publishAll,
  queueCounts,
  TEST_AMQP_URL,
  testAmqpConnection,
} from './support/amqp.js';
import {
  Collector,
  dropSession,
  mqttUnavailable,
  presetSession,
  TEST_MQTT_URL,
  testMqttClient,
} from './support/mqtt.js';
import { pluginEvents } from './support/plugin-events.js';
import {
  pendingCount,
  readStreamFields,
  redisUnavailable,
  TEST_REDIS_URL,
  testRedisClient,
} from './support/redis.js';
import { startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';
import { TcpProxy } from './support/tcp-proxy.js';
import { eventually } from './support/wait.js';

const ID = `svcr${process.pid}${Date.now().toString(36)}`;
const BATCH = 30;

/** One broker's side of the test: its nodes, and how the test feeds and reads it. */
interface BrokerCase {
  readonly name: string;
  readonly unavailable: string | undefined;
  /** The `plugin` tag of its connection events, and the outcome counted when it is lost. */
  readonly connectionEvent: string;
  readonly lostOutcome: string;
  /** Its client's pause between attempts: doubling, or random between 0.5 s and a doubling cap. */
  readonly backoff: 'doubling' | 'jittered';
  /**
   * Has the broker forget the consumer's subscription: the AMQP queue deleted (the broker
   * cancels the consumer), the Redis group destroyed, the MQTT session taken over and ended.
   */
  readonly forget: () => Promise<void>;
  readonly target: string;
  setUp(): Promise<void>;
  consumer(url: string): { type: string; config: Record<string, unknown> };
  publisher(): { type: string; config: Record<string, unknown> };
  publish(numbers: readonly number[]): Promise<void>;
  /** The numbers that reached the other end so far. */
  arrived(): Promise<ReadonlySet<number>>;
  /** Messages the broker handed to the consumer and holds unacknowledged, where it tells. */
  readonly handedOut?: () => Promise<number>;
  /** Whether the input holds nothing unacknowledged and nothing ready. */
  settled(server: TestServer): Promise<boolean>;
  tearDown(): Promise<void>;
}

/**
 * The times of a client's attempts, one per round: the attempts of a node's connections that
 * were lost together (Redis has two) come within a few milliseconds of each other.
 */
function roundsOf(times: readonly number[]): number[] {
  const rounds: number[] = [];
  for (const time of times) if (time - (rounds.at(-1) ?? -Infinity) > 200) rounds.push(time);
  return rounds;
}

const range = (from: number, count: number): number[] =>
  Array.from({ length: count }, (_, index) => from + index);

function amqpCase(unavailable: string | undefined): BrokerCase {
  const input = `${ID}.in`;
  const output = `${ID}.out`;
  let broker: Connection | undefined;
  const seen = new Set<number>();
  const connection = (): Connection => (broker ??= testAmqpConnection());
  return {
    name: 'AMQP_CONSUME',
    unavailable,
    connectionEvent: 'amqp.connection',
    lostOutcome: 'failed',
    backoff: 'jittered',
    target: TEST_AMQP_URL,
    setUp: async () => {
      for (const queue of [input, output]) {
        await connection().queueDeclare({ queue, durable: true });
      }
    },
    forget: async () => {
      await connection().queueDelete({ queue: input });
    },
    // The password comes from the secrets mechanism, not the URL.
    consumer: (url) => {
      const bare = new URL(url);
      const username = decodeURIComponent(bare.username) || 'guest';
      bare.username = '';
      bare.password = '';
      return {
        type: 'AMQP_CONSUME',
        config: {
          url: bare.toString(),
          username,
          password: 'decrypted:amqp.password',
          queue: input,
          prefetch: 4,
        },
      };
    },
    publisher: () => ({ type: 'AMQP_PUBLISH', config: { url: TEST_AMQP_URL, routingKey: output } }),
    publish: (numbers) =>
      publishAll(
        connection(),
        input,
        numbers.map((n) => ({ n })),
      ),
    arrived: async () => {
      for (const message of await drain(connection(), output)) {
        seen.add((message.body as { n: number }).n);
      }
      return seen;
    },
    settled: async () => {
      const counts = await queueCounts(input);
      return counts.ready === 0 && counts.unacknowledged === 0;
    },
    tearDown: async () => {
      if (broker === undefined) return;
      for (const queue of [input, output]) {
        await broker.queueDelete({ queue }).catch(() => undefined);
      }
      await broker.close();
    },
  };
}

function redisCase(unavailable: string | undefined): BrokerCase {
  const input = `${ID}:in`;
  const output = `${ID}:out`;
  let client: Redis | undefined;
  const redis = async (): Promise<Redis> => {
    if (client === undefined) {
      client = testRedisClient();
      await client.connect();
    }
    return client;
  };
  return {
    name: 'REDIS_STREAM_READ',
    unavailable,
    connectionEvent: 'redis.connection',
    lostOutcome: 'failed',
    backoff: 'doubling',
    target: TEST_REDIS_URL,
    setUp: () => Promise.resolve(),
    forget: async () => {
      await (await redis()).xgroup('DESTROY', input, 'relay');
    },
    consumer: (url) => ({
      type: 'REDIS_STREAM_READ',
      // Idle entries are claimed only after 10 minutes: what comes back here, the consumer's
      // own re-read brought.
      config: { url, stream: input, group: 'relay', maxInFlight: 4, claimIdleMs: 600_000 },
    }),
    publisher: () => ({
      type: 'REDIS_STREAM_ADD',
      config: { url: TEST_REDIS_URL, stream: output },
    }),
    publish: async (numbers) => {
      const redis_ = await redis();
      for (const n of numbers) await redis_.xadd(input, '*', 'payload', JSON.stringify({ n }));
    },
    arrived: async () => {
      const entries = await readStreamFields(await redis(), output);
      return new Set(
        entries.map((fields) => (JSON.parse(fields.payload ?? '{}') as { n: number }).n),
      );
    },
    handedOut: async () => pendingCount(await redis(), input, 'relay'),
    settled: async () => {
      const redis_ = await redis();
      const groups = (await redis_.xinfo('GROUPS', input)) as unknown[][];
      const lag = groups[0]?.[groups[0].indexOf('lag') + 1];
      return (await pendingCount(redis_, input, 'relay')) === 0 && Number(lag) === 0;
    },
    tearDown: async () => {
      if (client === undefined) return;
      await client.del(input, output);
      client.disconnect();
    },
  };
}

function mqttCase(unavailable: string | undefined): BrokerCase {
  const input = `${ID}/in`;
  const output = `${ID}/out`;
  let collector: Collector | undefined;
  return {
    name: 'MQTT_SUBSCRIBE',
    unavailable,
    connectionEvent: 'mqtt.connection',
    lostOutcome: 'disconnected',
    backoff: 'doubling',
    target: TEST_MQTT_URL,
    setUp: async () => {
      // The session exists before the run: what is published ahead waits for it.
      await presetSession(`${ID}-in`, input, 1);
      collector = await Collector.of(output);
    },
    // A client of the same id takes the session over, and ends it for good as it leaves.
    forget: () => dropSession(`${ID}-in`),
    consumer: (url) => ({
      type: 'MQTT_SUBSCRIBE',
      config: { url, topic: input, clientId: `${ID}-in`, maxInFlight: 4 },
    }),
    publisher: () => ({ type: 'MQTT_PUBLISH', config: { url: TEST_MQTT_URL, topic: output } }),
    publish: async (numbers) => {
      const client = await testMqttClient();
      for (const n of numbers) await client.publishAsync(input, JSON.stringify({ n }), { qos: 1 });
      await client.endAsync();
    },
    arrived: () => Promise.resolve(collector?.numbers ?? new Set<number>()),
    // The session's queue is not visible from outside while the consumer holds the session:
    // every message acknowledged at least once tells it.
    settled: async (server) =>
      ((await pluginEvents(server, 'mqtt.message')).acked ?? 0) >= 2 * BATCH,
    tearDown: async () => {
      await collector?.close();
      await dropSession(`${ID}-in`);
    },
  };
}

const cases = [
  amqpCase(await amqpUnavailable()),
  redisCase(await redisUnavailable()),
  mqttCase(await mqttUnavailable()),
];

for (const broker of cases) {
  describe.skipIf(broker.unavailable !== undefined)(`${broker.name} reconnection`, () => {
    let server: TestServer;
    let proxy: TcpProxy;

    beforeAll(async () => {
      const target = new URL(broker.target);
      proxy = await TcpProxy.to(target.hostname, Number(target.port));
      await broker.setUp();
      server = await startTestServer({
        env: {
          SVC_SECRET_AMQP_PASSWORD: decodeURIComponent(new URL(TEST_AMQP_URL).password) || 'guest',
        },
      });
      const created = await server.call('POST', '/api/sessions', {
        body: {
          sessionId: 's',
          name: 's',
          initiator: 'tests',
          workflows: [
            {
              workflowId: 'relay',
              description: `${broker.name} through a proxy that goes away`,
              nodes: [
                { nodeId: 'in', ...broker.consumer(proxy.urlFor(broker.target)) },
                { nodeId: 'cut', type: 'MAPPER', config: { expression: '{"n": n}' } },
                { nodeId: 'slow', type: 'DELAY', config: { delayMs: 5 } },
                { nodeId: 'out', ...broker.publisher() },
              ],
              edges: [
                { source: 'in', target: 'cut' },
                { source: 'cut', target: 'slow' },
                { source: 'slow', target: 'out' },
              ],
            },
          ],
        },
      });
      expect(created.status, created.text).toBe(201);
    }, 60_000);

    afterAll(async () => {
      await server.call('POST', '/api/sessions/s/workflows/relay/deactivate');
      await server.close();
      await proxy.close();
      await broker.tearDown();
    });

    it('is back by itself after its connection is lost, and loses no message', async () => {
      await broker.publish(range(0, BATCH));
      const activated = await server.call('POST', '/api/sessions/s/workflows/relay/activate');
      expect(activated.status, activated.text).toBe(200);
      await eventually(
        () => broker.arrived(),
        (numbers) => numbers.size >= BATCH / 3,
        30_000,
      );

      // Mid-stream: the network goes; the broker takes more meanwhile.
      await proxy.drop();
      await eventually(
        () => pluginEvents(server, broker.connectionEvent),
        (counts) => (counts[broker.lostOutcome] ?? 0) >= 1,
        30_000,
      );
      await broker.publish(range(BATCH, BATCH));
      // The client tries again and again, pausing longer each time (0.5 s, 1 s, 2 s, ...).
      const rounds = await eventually(
        () => Promise.resolve(roundsOf(proxy.dropped)),
        (found) => found.length >= 3,
        30_000,
      );
      const pauses = rounds.slice(1).map((time, index) => time - (rounds[index] ?? 0));
      if (broker.backoff === 'doubling') {
        expect(pauses[1], JSON.stringify(pauses)).toBeGreaterThan(1.5 * (pauses[0] ?? 0));
      }
      for (const pause of pauses) expect(pause, JSON.stringify(pauses)).toBeGreaterThan(400);
      const acceptedBefore = proxy.accepted;
      await proxy.restore();

      const arrived = await eventually(
        () => broker.arrived(),
        (numbers) => numbers.size >= 2 * BATCH,
        60_000,
      );
      expect([...arrived].sort((a, b) => a - b)).toEqual(range(0, 2 * BATCH));
      expect(proxy.accepted).toBeGreaterThan(acceptedBefore);
      const events = await eventually(
        () => pluginEvents(server, broker.connectionEvent),
        (counts) => (counts.reconnected ?? 0) >= 1,
        30_000,
      );
      expect(events.reconnected, JSON.stringify(events)).toBeGreaterThanOrEqual(1);
      expect(await eventually(() => broker.settled(server), Boolean, 30_000)).toBe(true);
      // The run went on through it all: the one started by the activation is still running.
      const run = await server.call(
        'GET',
        `/api/executions/${String(activated.json.data.executionId)}`,
      );
      expect(run.json.data.status, run.text).toBe('RUNNING');
    }, 180_000);

    it('takes up again when the broker forgot its subscription', async () => {
      const before = (await broker.arrived()).size;
      await broker.forget();
      // Published until one arrives: what the broker takes before the consumer is back (a
      // deleted queue, a session gone) may go nowhere.
      let probe = 1000;
      await eventually(
        async () => {
          await broker.publish([probe++]);
          return broker.arrived();
        },
        (numbers) => [...numbers].some((n) => n >= 1000),
        60_000,
      );
      await broker.publish(range(500, 10));
      const arrived = await eventually(
        () => broker.arrived(),
        (numbers) => range(500, 10).every((n) => numbers.has(n)),
        60_000,
      );
      expect(arrived.size).toBeGreaterThan(before);
    }, 120_000);

    it.runIf(broker.handedOut !== undefined)(
      'reads again what a read brought when its answer was lost with the connection',
      async () => {
        const handedOut = broker.handedOut ?? (() => Promise.resolve(0));
        // The consumer waits on a read for new messages; its answer will not reach it.
        proxy.mute();
        await broker.publish(range(700, 10));
        await eventually(handedOut, (count) => count >= 1, 30_000);
        await proxy.drop();
        await eventually(
          () => Promise.resolve(proxy.dropped.length),
          (count) => count >= 1,
          30_000,
        );
        await proxy.restore();
        await eventually(
          () => broker.arrived(),
          (numbers) => range(700, 10).every((n) => numbers.has(n)),
          60_000,
        );
        expect(await eventually(() => broker.settled(server), Boolean, 30_000)).toBe(true);
      },
      120_000,
    );
  });

  describe.skipIf(broker.unavailable === undefined)(`${broker.name} reconnection`, () => {
    it.skip(`needs its broker: ${broker.unavailable ?? ''}`, () => undefined);
  });
}

const mqttUnreachable = cases[2]?.unavailable;

/**
 * A consumer with its credit used up stops reading its connection (docs/brokers.md "MQTT"), so
 * the broker's ping answers wait too: when the workflow is held up longer than the keep-alive,
 * the client takes the connection for dead and makes it again. The session keeps what the run
 * holds, the broker sends it again, and the run goes on with it: each message once downstream.
 */
describe.skipIf(mqttUnreachable !== undefined)('MQTT_SUBSCRIBE held up past its keep-alive', () => {
  const input = `${ID}/held/in`;
  const output = `${ID}/held/out`;
  const clientId = `${ID}-held`;
  let server: TestServer;
  let collector: Collector;

  beforeAll(async () => {
    await presetSession(clientId, input, 1);
    collector = await Collector.of(output);
    server = await startTestServer();
    const created = await server.call('POST', '/api/sessions', {
      body: {
        sessionId: 's',
        name: 's',
        initiator: 'tests',
        workflows: [
          {
            workflowId: 'held',
            description: 'a node slower than the keep-alive',
            nodes: [
              {
                nodeId: 'in',
                type: 'MQTT_SUBSCRIBE',
                config: {
                  url: TEST_MQTT_URL,
                  topic: input,
                  clientId,
                  maxInFlight: 2,
                  keepaliveSeconds: 1,
                },
              },
              { nodeId: 'slow', type: 'DELAY', config: { delayMs: 2500 } },
              {
                nodeId: 'out',
                type: 'MQTT_PUBLISH',
                config: { url: TEST_MQTT_URL, topic: output },
              },
            ],
            edges: [
              { source: 'in', target: 'slow' },
              { source: 'slow', target: 'out' },
            ],
          },
          {
            workflowId: 'refused',
            description: 'a topic filter no broker takes',
            nodes: [
              {
                nodeId: 'in',
                type: 'MQTT_SUBSCRIBE',
                config: { url: TEST_MQTT_URL, topic: `${ID}/#/in`, clientId: `${ID}-refused` },
              },
              { nodeId: 'end', type: 'CONSOLE_TERMINAL' },
            ],
            edges: [{ source: 'in', target: 'end' }],
          },
        ],
      },
    });
    expect(created.status, created.text).toBe(201);
  }, 60_000);

  afterAll(async () => {
    await server.call('POST', '/api/sessions/s/workflows/held/deactivate');
    await server.close();
    await collector.close();
    await dropSession(clientId);
    await dropSession(`${ID}-refused`);
  });

  it('fails the run when the subscription is refused, rather than asking again', async () => {
    const started = await server.call('POST', '/api/workflow/start', {
      body: { sessionId: 's', workflowId: 'refused' },
    });
    expect(started.status, started.text).toBe(202);
    const id = String(started.json.data.executionId);
    const run = await eventually(
      () => server.call('GET', `/api/executions/${id}`),
      (answer) => answer.json.data.status !== 'RUNNING' && answer.json.data.status !== 'PENDING',
      30_000,
    );
    expect(run.json.data.status, run.text).toBe('FAILED');
    expect(run.json.data.error, run.text).toContain(`MQTT subscription to '${ID}/#/in' failed`);
  }, 60_000);

  it('makes its connection again, takes over what the broker sends again, and loses nothing', async () => {
    const client = await testMqttClient();
    for (const n of range(0, 4))
      await client.publishAsync(input, JSON.stringify({ n }), { qos: 1 });
    await client.endAsync();
    const activated = await server.call('POST', '/api/sessions/s/workflows/held/activate');
    expect(activated.status, activated.text).toBe(200);
    await collector.whenAtLeast(4, 60_000);
    const events = await pluginEvents(server, 'mqtt.connection');
    expect(events.reconnected ?? 0, JSON.stringify(events)).toBeGreaterThanOrEqual(1);
    // Sent again by the broker after a reconnect, and not emitted twice.
    const deliveries = await pluginEvents(server, 'mqtt.delivery');
    expect(deliveries.redelivered ?? 0, JSON.stringify(deliveries)).toBeGreaterThanOrEqual(1);
    expect(collector.messages.map((message) => message.body.n).sort()).toEqual(range(0, 4));
    const settled = await eventually(
      () => pluginEvents(server, 'mqtt.message'),
      (counts) => (counts.acked ?? 0) >= 4,
      30_000,
    );
    expect(settled.acked).toBe(4);
  }, 120_000);
});
