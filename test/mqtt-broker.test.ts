// MQTT_SUBSCRIBE and MQTT_PUBLISH against a real Mosquitto (docs/brokers.md), on a server process
// with the file stores: 10,000 QoS 1 messages through an activated workflow with a slow node,
// the broker holding the backlog while the node never holds more unsettled messages than the
// graph's credit and the server's memory stays flat; a kill -9 mid-stream loses none of them
// and a message sent again keeps its id; failed messages are dead-lettered or sent again as
// documented; QoS 2 messages are acknowledged end to end. Skipped with the reason when no broker
// answers and CI is not set.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokerServers, expectFlat, liveMemory, oddFailing } from './support/brokers.js';
import {
  Collector,
  dropSession,
  mqttUnavailable,
  presetSession,
  TEST_MQTT_URL,
  testMqttClient,
} from './support/mqtt.js';
import type { Restartable } from './support/restored-history.js';
import { eventually } from './support/wait.js';

const unavailable = await mqttUnavailable();
const ID = `svct${process.pid}${Date.now().toString(36)}`;
const MESSAGES = 10_000;
const PAD = 'x'.repeat(16 * 1024);
/** What the graph below the consumer holds: three nodes of 64 buffered and 1 worked on, + 1. */
const CREDIT = 3 * 65 + 1;
/**
 * How far the publisher runs ahead of what came out. Mosquitto queues at most 1000 messages per
 * session by default (max_queued_messages) and drops the rest, so the backlog stays below that.
 */
const AHEAD = 800;

const subscribe = (name: string, topic: string, extra: Record<string, unknown> = {}) => ({
  nodeId: 'in',
  type: 'MQTT_SUBSCRIBE',
  config: { url: TEST_MQTT_URL, clientId: `${ID}-${name}`, topic, ...extra },
});

const publish = (topic: string, extra: Record<string, unknown> = {}) => ({
  nodeId: 'out',
  type: 'MQTT_PUBLISH',
  config: { url: TEST_MQTT_URL, topic, ...extra },
});

const chain = (workflowId: string, nodes: { nodeId: string; [key: string]: unknown }[]) => ({
  workflowId,
  description: workflowId,
  nodes,
  edges: nodes.slice(1).map((node, index) => ({
    source: nodes[index]?.nodeId,
    target: node.nodeId,
  })),
});

/** In, cut down to its number, held 1 ms each (the slow node), out to another topic. */
const relay = chain('relay', [
  subscribe('relay', `${ID}/in`),
  { nodeId: 'cut', type: 'MAPPER', config: { expression: '{"n": n}' } },
  { nodeId: 'slow', type: 'DELAY', config: { delayMs: 1 } },
  // Publishes awaited 64 at a time: one at a time, each a round trip to the broker, would be
  // the slowest node on a busy machine rather than the DELAY.
  publish(`${ID}/out`, { concurrency: 64 }),
]);

const picky = oddFailing(
  'picky',
  subscribe('picky', `${ID}/odd`, { onFailure: 'dead-letter', deadLetterTopic: `${ID}/dead` }),
);

const stubborn = oddFailing(
  'stubborn',
  subscribe('stubborn', `${ID}/again`, { redeliverDelayMs: 100 }),
);

const exact = chain('exact', [
  subscribe('exact', `${ID}/q2`, { qos: 2 }),
  { nodeId: 'cut', type: 'MAPPER', config: { expression: '{"n": n}' } },
  publish(`${ID}/q2out`, { qos: 2 }),
]);

const SESSIONS = ['relay', 'picky', 'stubborn', 'exact'];

describe.skipIf(unavailable !== undefined)('MQTT consumer and publisher', () => {
  let dir = '';
  let servers: Restartable;
  let publisher: MqttClient;

  /** A count of `svc.plugin.events` of the server process running now. */
  const meter = async (plugin: string, outcome?: string): Promise<number> => {
    const tags = `tag=plugin:${plugin}${outcome === undefined ? '' : `&tag=outcome:${outcome}`}`;
    const answer = await servers.call('GET', `/actuator/metrics/svc.plugin.events?${tags}`);
    if (answer.status !== 200) return 0;
    return (answer.json.measurements?.[0]?.value as number | undefined) ?? 0;
  };

  /** Publishes 20 at a time: Mosquitto takes no more unacknowledged ones from a client. */
  const publishNumbers = async (topic: string, from: number, to: number, qos: 1 | 2 = 1) => {
    for (let start = from; start < to; start += 20) {
      const pending = [];
      for (let n = start; n < Math.min(to, start + 20); n++) {
        pending.push(publisher.publishAsync(topic, JSON.stringify({ n, pad: PAD }), { qos }));
      }
      await Promise.all(pending);
    }
  };

  const activate = async (workflowId: string): Promise<void> => {
    const answer = await servers.call('POST', `/api/sessions/s/workflows/${workflowId}/activate`);
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  };

  const deactivate = async (workflowId: string): Promise<void> => {
    const answer = await servers.call('POST', `/api/sessions/s/workflows/${workflowId}/deactivate`);
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  };

  beforeAll(async () => {
    publisher = await testMqttClient();
    dir = await mkdtemp(path.join(tmpdir(), 'mqtt-broker-'));
    servers = brokerServers(dir);
    await servers.boot();
    await servers.define([relay, picky, stubborn, exact]);
  }, 90_000);

  afterAll(async () => {
    await servers.kill();
    for (const name of SESSIONS) await dropSession(`${ID}-${name}`).catch(() => undefined);
    await publisher.endAsync();
    await rm(dir, { recursive: true, force: true });
  });

  it('holds the backlog on the broker, keeps memory flat, and loses nothing to a kill -9', async () => {
    const out = await Collector.of(`${ID}/out`);
    try {
      // The session exists before the workflow runs: the broker keeps the first messages for it.
      await presetSession(`${ID}-relay`, `${ID}/in`, 1);
      await publishNumbers(`${ID}/in`, 0, AHEAD);
      await activate('relay');

      let published = AHEAD;
      const backlog: number[] = [];
      const held: number[] = [];
      const sample = async (): Promise<number> => {
        backlog.push(published - out.numbers.size);
        held.push((await meter('mqtt.delivery')) - (await meter('mqtt.message')));
        return out.numbers.size;
      };
      const feeding = (async () => {
        for (; published < MESSAGES; published += 100) {
          await out.whenAtLeast(published + 100 - AHEAD, 300_000);
          await publishNumbers(`${ID}/in`, published, published + 100);
        }
      })();

      await eventually(sample, (size) => size >= 1000, 240_000);
      const early = await liveMemory(servers.server);
      await eventually(sample, (size) => size >= 5000, 300_000);
      const late = await liveMemory(servers.server);
      // Hundreds waited on the broker; the node never held more unsettled messages than the
      // graph's credit.
      expect(Math.max(...backlog)).toBeGreaterThan(AHEAD / 2);
      expect(Math.max(...held)).toBeGreaterThan(0);
      expect(Math.max(...held)).toBeLessThanOrEqual(CREDIT);
      // 64 MB of payloads went through between the samples: the server keeps less than 8 MB
      // more of it live after a full collection, and is up.
      expectFlat(early, late, 8 * 1024 * 1024);
      expect(servers.server.child.exitCode).toBeNull();

      await servers.crashAndBoot();
      await feeding;
      await out.whenAtLeast(MESSAGES, 420_000);
      // What the dead process had not acknowledged, the broker sent again (DUP set).
      await eventually(() => meter('mqtt.delivery', 'redelivered'));

      // Every number came out; one sent twice (done before the kill, its ack lost) kept its id.
      expect(out.numbers.size).toBe(MESSAGES);
      const idOf = new Map<number, string | undefined>();
      for (const { body, id } of out.messages) {
        expect(id).toBeDefined();
        if (idOf.has(body.n)) expect(id).toBe(idOf.get(body.n));
        idOf.set(body.n, id);
      }
      expect(new Set(idOf.values()).size).toBe(MESSAGES);
    } finally {
      await deactivate('relay');
      await out.close();
    }
  }, 900_000);

  it('dead-letters a message that failed for good, and acknowledges the rest', async () => {
    const dead = await Collector.of(`${ID}/dead`);
    try {
      const acked = await meter('mqtt.message', 'acked');
      const again = await meter('mqtt.delivery', 'redelivered');
      await presetSession(`${ID}-picky`, `${ID}/odd`, 1);
      await publishNumbers(`${ID}/odd`, 0, 20);
      await activate('picky');
      await dead.whenAtLeast(10, 30_000);
      await eventually(
        () => meter('mqtt.message', 'acked'),
        (count) => count >= acked + 10,
      );
      expect([...dead.numbers].sort((a, b) => a - b)).toEqual([1, 3, 5, 7, 9, 11, 13, 15, 17, 19]);
      expect(dead.messages[0]?.properties['original-topic']).toBe(`${ID}/odd`);
      expect(dead.messages[0]?.properties['failed-node']).toBe('check');
      expect(dead.messages[0]?.properties.error).toContain('odd');
      expect(await meter('mqtt.message', 'dead-lettered')).toBe(10);
      // Dead-lettered then acknowledged: none was sent again.
      expect(await meter('mqtt.delivery', 'redelivered')).toBe(again);
    } finally {
      await deactivate('picky');
      await dead.close();
    }
  }, 60_000);

  it('leaves a failed message unacknowledged and has the broker send it again (onFailure redeliver)', async () => {
    const acked = await meter('mqtt.message', 'acked');
    const again = await meter('mqtt.delivery', 'redelivered');
    const reconnected = await meter('mqtt.connection', 'reconnected');
    await presetSession(`${ID}-stubborn`, `${ID}/again`, 1);
    await publishNumbers(`${ID}/again`, 0, 4);
    await activate('stubborn');
    try {
      // 1 and 3 fail every time: each reconnection of the session brings them back.
      await eventually(
        () => meter('mqtt.delivery', 'redelivered'),
        (count) => count >= again + 4,
        30_000,
      );
      expect(await meter('mqtt.message', 'acked')).toBe(acked + 2);
      expect(await meter('mqtt.connection', 'reconnected')).toBeGreaterThanOrEqual(reconnected + 2);
    } finally {
      await deactivate('stubborn');
    }
  }, 60_000);

  it('acknowledges QoS 2 messages end to end (PUBREC when done, then PUBCOMP)', async () => {
    const out = await Collector.of(`${ID}/q2out`, 2);
    try {
      const acked = await meter('mqtt.message', 'acked');
      const released = await meter('mqtt.message', 'released');
      await presetSession(`${ID}-exact`, `${ID}/q2`, 2);
      await publishNumbers(`${ID}/q2`, 0, 200, 2);
      await activate('exact');
      await out.whenAtLeast(200, 60_000);
      await eventually(
        () => meter('mqtt.message', 'acked'),
        (count) => count >= acked + 200,
        30_000,
      );
      expect(out.messages).toHaveLength(200);
      expect(new Set(out.messages.map((message) => message.id)).size).toBe(200);
      // None was left unacknowledged for the broker to send again.
      expect(await meter('mqtt.message', 'released')).toBe(released);
      expect(await meter('mqtt.message', 'acked')).toBe(acked + 200);
    } finally {
      await deactivate('exact');
      await out.close();
    }
  }, 60_000);
});

describe.skipIf(unavailable === undefined)('MQTT consumer and publisher', () => {
  it.skip(`needs MQTT: ${unavailable ?? ''}`, () => undefined);
});
