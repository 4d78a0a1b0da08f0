// NATS_SUBSCRIBE and NATS_PUBLISH against the real NATS server (docs/brokers.md), on a server
// process with the file stores: 10,000 messages through a saved, activated workflow with a
// slow node stay on the broker (the unacknowledged count bounded by the graph's credit) while
// the server's memory stays flat; a kill -9 mid-stream loses none of them after the restart,
// and a redelivered one keeps its message id; a message that fails after retries is
// dead-lettered. Skipped with the reason when no NATS answers and CI is not set.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokerServers, expectFlat, liveMemory, oddFailing } from './support/brokers.js';
import {
  freshStream,
  natsUnavailable,
  readStream,
  TEST_NATS_URL,
  testNatsConnection,
} from './support/nats.js';
import type { Restartable } from './support/restored-history.js';
import { eventually } from './support/wait.js';

const unavailable = await natsUnavailable();
const ID = `svct${process.pid}${Date.now().toString(36)}`;
const MESSAGES = 10_000;
const PAD = 'x'.repeat(16 * 1024);
/** What the graph below the consumer holds: three nodes of 64 buffered and 1 worked on, + 1. */
const CREDIT = 3 * 65 + 1;

const subscribe = (stream: string, consumer: string, extra: Record<string, unknown> = {}) => ({
  nodeId: 'in',
  type: 'NATS_SUBSCRIBE',
  config: { servers: TEST_NATS_URL, stream, consumer, ackWaitSeconds: 5, ...extra },
});

/** In, cut down to its number, held 1 ms each (the slow node), out to another stream. */
const relay = {
  workflowId: 'relay',
  description: 'NATS to NATS through a slow node',
  nodes: [
    subscribe(`${ID}_in`, 'relay'),
    { nodeId: 'cut', type: 'MAPPER', config: { expression: '{"n": n}' } },
    { nodeId: 'slow', type: 'DELAY', config: { delayMs: 1 } },
    {
      nodeId: 'out',
      type: 'NATS_PUBLISH',
      config: { servers: TEST_NATS_URL, subject: `${ID}.out` },
    },
  ],
  edges: [
    { source: 'in', target: 'cut' },
    { source: 'cut', target: 'slow' },
    { source: 'slow', target: 'out' },
  ],
};

/** Odd numbers fail on both attempts and are dead-lettered; even ones reach the terminal. */
const picky = oddFailing(
  'picky',
  subscribe(`${ID}_odd`, 'picky', { onFailure: 'dead-letter', deadLetterSubject: `${ID}.dead` }),
);

describe.skipIf(unavailable !== undefined)('NATS JetStream consumer and publisher', () => {
  let dir = '';
  let servers: Restartable;
  let nc: NatsConnection;
  let manager: JetStreamManager;

  /** The consumer's state, once the workflow's consumer has made it. */
  const consumer = (stream: string, name: string) =>
    eventually(
      () => manager.consumers.info(stream, name).catch(() => undefined),
      (info) => info !== undefined,
      30_000,
    ).then((info) => info!);

  const stored = async (stream: string): Promise<number> =>
    (await manager.streams.info(stream)).state.messages;

  beforeAll(async () => {
    nc = await testNatsConnection();
    manager = await jetstreamManager(nc);
    await freshStream(manager, `${ID}_in`, [`${ID}.in`]);
    await freshStream(manager, `${ID}_out`, [`${ID}.out`]);
    await freshStream(manager, `${ID}_odd`, [`${ID}.odd`]);
    await freshStream(manager, `${ID}_dead`, [`${ID}.dead`]);
    dir = await mkdtemp(path.join(tmpdir(), 'nats-broker-'));
    servers = brokerServers(dir);
    await servers.boot();
    await servers.define([relay, picky]);
  }, 60_000);

  afterAll(async () => {
    await servers.kill();
    for (const stream of ['in', 'out', 'odd', 'dead']) {
      await manager.streams.delete(`${ID}_${stream}`).catch(() => undefined);
    }
    await nc.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('holds the backlog on the broker, keeps memory flat, and loses nothing to a kill -9', async () => {
    const js = jetstream(nc);
    for (let from = 0; from < MESSAGES; from += 500) {
      const batch = [];
      for (let n = from; n < from + 500; n++) {
        batch.push(js.publish(`${ID}.in`, JSON.stringify({ n, pad: PAD })));
      }
      await Promise.all(batch);
    }
    const activated = await servers.call('POST', '/api/sessions/s/workflows/relay/activate');
    expect(activated.status, JSON.stringify(activated.json)).toBe(200);

    const ackPending: number[] = [];
    const backlog: number[] = [];
    const watch = async (): Promise<number> => {
      const info = await consumer(`${ID}_in`, 'relay');
      ackPending.push(info.num_ack_pending);
      backlog.push(info.num_pending);
      return stored(`${ID}_out`);
    };
    await eventually(watch, (out) => out >= 1000, 120_000);
    const early = await liveMemory(servers.server);
    await eventually(watch, (out) => out >= 4000, 120_000);
    const late = await liveMemory(servers.server);
    // The broker holds the rest: thousands waiting, never more unacknowledged than the credit.
    expect(Math.max(...backlog)).toBeGreaterThan(MESSAGES / 2);
    expect(Math.max(...ackPending)).toBeGreaterThan(0);
    expect(Math.max(...ackPending)).toBeLessThanOrEqual(CREDIT);
    // 160 MB of payloads waited on the broker and 48 MB went through between the samples: the
    // server keeps less than 8 MB more of it live after a full collection, and is still up.
    expectFlat(early, late, 8 * 1024 * 1024);
    expect(servers.server.child.exitCode).toBeNull();

    await servers.crashAndBoot();
    await eventually(
      () => stored(`${ID}_out`),
      (out) => out >= MESSAGES,
      300_000,
    );
    await eventually(
      () => consumer(`${ID}_in`, 'relay'),
      (info) => info.num_ack_pending === 0 && info.num_pending === 0,
      30_000,
    );
    const out = await readStream(nc, `${ID}_out`);
    // Redelivered messages published again had the same id: JetStream kept one of each.
    expect(out).toHaveLength(MESSAGES);
    const numbers = new Set(out.map((message) => message.json<{ n: number }>().n));
    expect(numbers.size).toBe(MESSAGES);
    const ids = new Set(out.map((message) => message.headers?.get('Nats-Msg-Id')));
    expect(ids.size).toBe(MESSAGES);
    const deactivated = await servers.call('POST', '/api/sessions/s/workflows/relay/deactivate');
    expect(deactivated.status, JSON.stringify(deactivated.json)).toBe(200);
  }, 600_000);

  it('dead-letters a message that failed for good, and acknowledges the rest', async () => {
    const js = jetstream(nc);
    for (let n = 0; n < 20; n++) await js.publish(`${ID}.odd`, JSON.stringify({ n }));
    const activated = await servers.call('POST', '/api/sessions/s/workflows/picky/activate');
    expect(activated.status, JSON.stringify(activated.json)).toBe(200);
    await eventually(
      () => consumer(`${ID}_odd`, 'picky'),
      (info) =>
        info.num_ack_pending === 0 && info.num_pending === 0 && info.delivered.stream_seq === 20,
      30_000,
    );
    const dead = await eventually(
      () => readStream(nc, `${ID}_dead`),
      (messages) => messages.length >= 10,
      10_000,
    );
    expect(dead.map((message) => message.json<{ n: number }>().n).sort((a, b) => a - b)).toEqual([
      1, 3, 5, 7, 9, 11, 13, 15, 17, 19,
    ]);
    expect(dead[0]?.headers?.get('Nats-Original-Stream')).toBe(`${ID}_odd`);
    expect(dead[0]?.headers?.get('Failed-Node')).toBe('check');
    expect(dead[0]?.headers?.get('Error')).toContain('odd');
    // Terminated, not redelivered: every message was delivered once.
    const info = await manager.consumers.info(`${ID}_odd`, 'picky');
    expect(info.num_redelivered).toBe(0);
    await servers.call('POST', '/api/sessions/s/workflows/picky/deactivate');
  }, 60_000);
});

describe.skipIf(unavailable === undefined)('NATS JetStream consumer and publisher', () => {
  it.skip(`needs NATS: ${unavailable ?? ''}`, () => undefined);
});
