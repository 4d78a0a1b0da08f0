// AMQP_CONSUME and AMQP_PUBLISH against a real RabbitMQ (docs/brokers.md), on a server process
// with the file stores: 10,000 messages through a saved, activated workflow with a slow node
// stay on the broker (the unacknowledged count bounded by the graph's credit) while the
// server's memory stays flat; a kill -9 mid-stream loses none of them after the restart, and a
// redelivered one keeps its message id; a message that fails after retries is rejected to the
// queue's dead-letter exchange, or published to a named one. Skipped with the reason when no
// broker answers and CI is not set.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Connection } from 'rabbitmq-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  amqpUnavailable,
  drain,
  publishAll,
  queueCounts,
  readyCount,
  TEST_AMQP_URL,
  testAmqpConnection,
} from './support/amqp.js';
import { brokerServers, expectFlat, liveMemory, oddFailing } from './support/brokers.js';
import type { Restartable } from './support/restored-history.js';
import { eventually } from './support/wait.js';

const unavailable = await amqpUnavailable();
const ID = `svct${process.pid}${Date.now().toString(36)}`;
const QUEUES = ['in', 'out', 'odd', 'odd-dlq', 'odd2', 'dead'].map((name) => `${ID}.${name}`);
const [IN, OUT, ODD, ODD_DLQ, ODD2, DEAD] = QUEUES as [
  string,
  string,
  string,
  string,
  string,
  string,
];
const MESSAGES = 10_000;
const PAD = 'x'.repeat(16 * 1024);
/** What the graph below the consumer holds: three nodes of 64 buffered and 1 worked on, + 1. */
const CREDIT = 3 * 65 + 1;

const consume = (queue: string, extra: Record<string, unknown> = {}) => ({
  nodeId: 'in',
  type: 'AMQP_CONSUME',
  config: { url: TEST_AMQP_URL, queue, ...extra },
});

/** In, cut down to its number, held 1 ms each (the slow node), out to another queue. */
const relay = {
  workflowId: 'relay',
  description: 'RabbitMQ to RabbitMQ through a slow node',
  nodes: [
    consume(IN),
    { nodeId: 'cut', type: 'MAPPER', config: { expression: '{"n": n}' } },
    { nodeId: 'slow', type: 'DELAY', config: { delayMs: 1 } },
    {
      nodeId: 'out',
      type: 'AMQP_PUBLISH',
      // A confirm of a persistent message waits for the broker's disk: several under way.
      config: { url: TEST_AMQP_URL, routingKey: OUT, concurrency: 32 },
    },
  ],
  edges: [
    { source: 'in', target: 'cut' },
    { source: 'cut', target: 'slow' },
    { source: 'slow', target: 'out' },
  ],
};

const numbersOf = (messages: { body: unknown }[]): number[] =>
  messages.map((message) => (message.body as { n: number }).n).sort((a, b) => a - b);

const ODDS = [1, 3, 5, 7, 9, 11, 13, 15, 17, 19];

describe.skipIf(unavailable !== undefined)('AMQP consumer and publisher', () => {
  let dir = '';
  let servers: Restartable;
  let broker: Connection;

  beforeAll(async () => {
    broker = testAmqpConnection();
    for (const queue of [IN, OUT, ODD_DLQ, ODD2, DEAD]) {
      await broker.queueDeclare({ queue, durable: true });
    }
    // Native dead-lettering: a rejected message goes through the default exchange to ODD_DLQ.
    await broker.queueDeclare({
      queue: ODD,
      durable: true,
      arguments: { 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': ODD_DLQ },
    });
    dir = await mkdtemp(path.join(tmpdir(), 'amqp-broker-'));
    servers = brokerServers(dir);
    await servers.boot();
    await servers.define([
      relay,
      // Odd numbers fail on both attempts; even ones reach the terminal.
      oddFailing('picky', consume(ODD, { declare: false, onFailure: 'reject' })),
      oddFailing(
        'picky-named',
        consume(ODD2, {
          onFailure: 'dead-letter',
          deadLetterExchange: '',
          deadLetterRoutingKey: DEAD,
        }),
      ),
    ]);
  }, 120_000);

  afterAll(async () => {
    await servers.kill();
    for (const queue of QUEUES) await broker.queueDelete({ queue }).catch(() => undefined);
    await broker.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('holds the backlog on the broker, keeps memory flat, and loses nothing to a kill -9', async () => {
    await publishAll(
      broker,
      IN,
      Array.from({ length: MESSAGES }, (_, n) => ({ n, pad: PAD })),
    );
    const activated = await servers.call('POST', '/api/sessions/s/workflows/relay/activate');
    expect(activated.status, JSON.stringify(activated.json)).toBe(200);

    const out = () => readyCount(broker, OUT);
    await eventually(out, (count) => count >= 1000, 120_000);
    const early = await liveMemory(servers.server);
    const first = await queueCounts(IN);
    await eventually(out, (count) => count >= 3000, 120_000);
    const late = await liveMemory(servers.server);
    const second = await queueCounts(IN);
    // The broker holds the rest: thousands ready, never more unacknowledged than the credit.
    expect(first.ready, JSON.stringify(first)).toBeGreaterThan(MESSAGES / 2);
    for (const counts of [first, second]) {
      expect(counts.unacknowledged, JSON.stringify(counts)).toBeGreaterThan(0);
      expect(counts.unacknowledged, JSON.stringify(counts)).toBeLessThanOrEqual(CREDIT);
    }
    // 160 MB of payloads waited on the broker and 32 MB went through between the samples: the
    // server keeps less than 8 MB more of it live after a full collection, and is still up.
    expectFlat(early, late, 8 * 1024 * 1024);
    expect(servers.server.child.exitCode).toBeNull();

    // Mid-stream: the crash leaves messages ready and unacknowledged on the broker.
    expect(await out()).toBeLessThan(MESSAGES);
    await servers.crashAndBoot();
    const received = new Map<number, Set<string>>();
    await eventually(
      async () => {
        for (const message of await drain(broker, OUT)) {
          const n = (message.body as { n: number }).n;
          const ids = received.get(n) ?? new Set<string>();
          ids.add(message.messageId ?? '');
          received.set(n, ids);
        }
        return received.size;
      },
      (size) => size >= MESSAGES,
      // Minutes on a loaded machine: the slow node's timer fires late there.
      480_000,
    );
    // Every number arrived; a message published again after the crash had the same id.
    expect([...received.keys()].sort((a, b) => a - b)).toEqual([...Array(MESSAGES).keys()]);
    const ids = new Set<string>();
    for (const each of received.values()) {
      expect(each.size).toBe(1);
      for (const id of each) ids.add(id);
    }
    expect(ids.size).toBe(MESSAGES);
    expect(ids.has('')).toBe(false);
    const settled = await eventually(
      () => queueCounts(IN),
      (counts) => counts.ready === 0 && counts.unacknowledged === 0,
      30_000,
    );
    expect(settled).toEqual({ ready: 0, unacknowledged: 0 });
    const deactivated = await servers.call('POST', '/api/sessions/s/workflows/relay/deactivate');
    expect(deactivated.status, JSON.stringify(deactivated.json)).toBe(200);
  }, 900_000);

  it("rejects a message that failed for good to the queue's dead-letter exchange, and acknowledges the rest", async () => {
    await publishAll(
      broker,
      ODD,
      Array.from({ length: 20 }, (_, n) => ({ n })),
    );
    const activated = await servers.call('POST', '/api/sessions/s/workflows/picky/activate');
    expect(activated.status, JSON.stringify(activated.json)).toBe(200);
    const dead = await eventually(
      () => readyCount(broker, ODD_DLQ),
      (count) => count >= 10,
      30_000,
    );
    expect(dead).toBe(10);
    const counts = await eventually(
      () => queueCounts(ODD),
      (found) => found.ready === 0 && found.unacknowledged === 0,
      30_000,
    );
    expect(counts).toEqual({ ready: 0, unacknowledged: 0 });
    const messages = await drain(broker, ODD_DLQ);
    expect(numbersOf(messages)).toEqual(ODDS);
    // Dead-lettered by the broker itself, once each: rejected, not requeued first.
    const deaths = messages.map(
      (message) => (message.headers?.['x-death'] as { reason: string; count: number }[])[0],
    );
    expect(deaths.every((death) => death?.reason === 'rejected' && death.count === 1)).toBe(true);
    await servers.call('POST', '/api/sessions/s/workflows/picky/deactivate');
  }, 60_000);

  it('publishes a message that failed for good to a named dead-letter queue, and acknowledges the rest', async () => {
    await publishAll(
      broker,
      ODD2,
      Array.from({ length: 20 }, (_, n) => ({ n })),
    );
    const activated = await servers.call('POST', '/api/sessions/s/workflows/picky-named/activate');
    expect(activated.status, JSON.stringify(activated.json)).toBe(200);
    await eventually(
      () => readyCount(broker, DEAD),
      (count) => count >= 10,
      30_000,
    );
    const counts = await eventually(
      () => queueCounts(ODD2),
      (found) => found.ready === 0 && found.unacknowledged === 0,
      30_000,
    );
    expect(counts).toEqual({ ready: 0, unacknowledged: 0 });
    const messages = await drain(broker, DEAD);
    expect(numbersOf(messages)).toEqual(ODDS);
    expect(messages[0]?.headers?.['x-original-queue']).toBe(ODD2);
    expect(messages[0]?.headers?.['x-workflow-node']).toBe('picky-named/in');
    expect(messages[0]?.headers?.['x-failed-node']).toBe('check');
    expect(messages[0]?.headers?.['x-error']).toContain('odd');
    await servers.call('POST', '/api/sessions/s/workflows/picky-named/deactivate');
  }, 60_000);
});

describe.skipIf(unavailable === undefined)('AMQP consumer and publisher', () => {
  it.skip(`needs RabbitMQ: ${unavailable ?? ''}`, () => undefined);
});
