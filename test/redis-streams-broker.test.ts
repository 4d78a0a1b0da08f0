// REDIS_STREAM_READ and REDIS_STREAM_ADD against a real Redis (docs/brokers.md), on a server
// process with the file stores: 10,000 entries through a saved, activated workflow with a slow
// node stay in Redis (the group's pending count bounded by the graph's credit, most entries not
// yet delivered) while the server's memory stays flat; a kill -9 mid-stream loses none of them
// after the restart, and a redelivered one keeps its message id; an entry that fails after
// retries is dead-lettered. Skipped with the reason when no Redis answers and CI is not set.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokerServers, expectFlat, liveMemory, oddFailing } from './support/brokers.js';
import {
  groupLag,
  pendingCount,
  readStreamFields,
  redisUnavailable,
  TEST_REDIS_URL,
  testRedisClient,
} from './support/redis.js';
import type { Restartable } from './support/restored-history.js';
import { eventually } from './support/wait.js';

const unavailable = await redisUnavailable();
const ID = `svct:${process.pid}:${Date.now().toString(36)}`;
const MESSAGES = 10_000;
const PAD = 'x'.repeat(16 * 1024);
/** What the graph below the consumer holds: three nodes of 64 buffered and 1 worked on, + 1. */
const CREDIT = 3 * 65 + 1;
const keys = { in: `${ID}:in`, out: `${ID}:out`, odd: `${ID}:odd`, dead: `${ID}:dead` };

const read = (stream: string, group: string, extra: Record<string, unknown> = {}) => ({
  nodeId: 'in',
  type: 'REDIS_STREAM_READ',
  config: { url: TEST_REDIS_URL, stream, group, ...extra },
});

/** In, cut down to its number, held 1 ms each (the slow node), out to another stream. */
const relay = {
  workflowId: 'relay',
  description: 'Redis stream to Redis stream through a slow node',
  nodes: [
    read(keys.in, 'relay'),
    { nodeId: 'cut', type: 'MAPPER', config: { expression: '{"n": n}' } },
    { nodeId: 'slow', type: 'DELAY', config: { delayMs: 1 } },
    { nodeId: 'out', type: 'REDIS_STREAM_ADD', config: { url: TEST_REDIS_URL, stream: keys.out } },
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
  read(keys.odd, 'picky', { onFailure: 'dead-letter', deadLetterStream: keys.dead }),
);

describe.skipIf(unavailable !== undefined)('Redis Streams consumer group and adder', () => {
  let dir = '';
  let servers: Restartable;
  let redis: Redis;

  /** The group's pending count and lag, once the workflow's consumer has made the group. */
  const groupState = (stream: string, group: string) =>
    eventually(
      async () => {
        try {
          return {
            pending: await pendingCount(redis, stream, group),
            lag: await groupLag(redis, stream, group),
          };
        } catch {
          return undefined;
        }
      },
      (state) => state !== undefined,
      30_000,
    ).then((state) => state!);

  beforeAll(async () => {
    redis = testRedisClient();
    await redis.connect();
    await redis.del(...Object.values(keys));
    dir = await mkdtemp(path.join(tmpdir(), 'redis-broker-'));
    servers = brokerServers(dir);
    await servers.boot();
    await servers.define([relay, picky]);
  }, 120_000);

  afterAll(async () => {
    await servers.kill();
    await redis.del(...Object.values(keys));
    redis.disconnect();
    await rm(dir, { recursive: true, force: true });
  });

  it('holds the backlog in Redis, keeps memory flat, and loses nothing to a kill -9', async () => {
    for (let from = 0; from < MESSAGES; from += 500) {
      const batch = redis.pipeline();
      for (let n = from; n < from + 500; n++) {
        batch.xadd(keys.in, '*', 'payload', JSON.stringify({ n, pad: PAD }));
      }
      await batch.exec();
    }
    const activated = await servers.call('POST', '/api/sessions/s/workflows/relay/activate');
    expect(activated.status, JSON.stringify(activated.json)).toBe(200);

    const pending: number[] = [];
    const lag: number[] = [];
    const watch = async (): Promise<number> => {
      const state = await groupState(keys.in, 'relay');
      pending.push(state.pending);
      lag.push(state.lag);
      return redis.xlen(keys.out);
    };
    await eventually(watch, (out) => out >= 1000, 120_000);
    const early = await liveMemory(servers.server);
    await eventually(watch, (out) => out >= 4000, 120_000);
    const late = await liveMemory(servers.server);
    // Redis holds the rest: thousands not yet delivered, never more pending than the credit.
    expect(Math.max(...lag)).toBeGreaterThan(MESSAGES / 2);
    expect(Math.max(...pending)).toBeGreaterThan(0);
    expect(Math.max(...pending)).toBeLessThanOrEqual(CREDIT);
    // 160 MB of payloads waited on the broker and 48 MB went through between the samples: the
    // server keeps less than 8 MB more of it live after a full collection, and is still up.
    expectFlat(early, late, 8 * 1024 * 1024);
    expect(servers.server.child.exitCode).toBeNull();

    // Killed with entries pending in its consumer: the next run reads them again first.
    const before = await redis.xlen(keys.out);
    await servers.crashAndBoot();
    await eventually(
      () => groupState(keys.in, 'relay'),
      (state) => state.pending === 0 && state.lag === 0,
      300_000,
    );
    const out = await readStreamFields(redis, keys.out);
    expect(out.length).toBeGreaterThanOrEqual(MESSAGES);
    const numberOf = new Map<string, number>();
    for (const fields of out) {
      const n = (JSON.parse(fields['payload'] ?? 'null') as { n: number }).n;
      const id = fields['messageId'] ?? '';
      // A redelivered entry was added again under the same message id, with the same number.
      expect(numberOf.get(id) ?? n).toBe(n);
      numberOf.set(id, n);
    }
    expect(numberOf.size).toBe(MESSAGES);
    expect(new Set(numberOf.values()).size).toBe(MESSAGES);
    expect(before).toBeLessThan(MESSAGES);
    const deactivated = await servers.call('POST', '/api/sessions/s/workflows/relay/deactivate');
    expect(deactivated.status, JSON.stringify(deactivated.json)).toBe(200);
  }, 600_000);

  it('dead-letters an entry that failed for good, and acknowledges the rest', async () => {
    for (let n = 0; n < 20; n++) await redis.xadd(keys.odd, '*', 'payload', JSON.stringify({ n }));
    const activated = await servers.call('POST', '/api/sessions/s/workflows/picky/activate');
    expect(activated.status, JSON.stringify(activated.json)).toBe(200);
    await eventually(
      () => groupState(keys.odd, 'picky'),
      (state) => state.pending === 0 && state.lag === 0,
      30_000,
    );
    const dead = await eventually(
      () => readStreamFields(redis, keys.dead),
      (entries) => entries.length >= 10,
      10_000,
    );
    const numbers = dead.map(
      (fields) => (JSON.parse(fields['payload'] ?? 'null') as { n: number }).n,
    );
    expect(numbers.sort((a, b) => a - b)).toEqual([1, 3, 5, 7, 9, 11, 13, 15, 17, 19]);
    const ids = (await redis.xrange(keys.odd, '-', '+')).map(([id]) => id);
    expect(dead[0]?.['originalStream']).toBe(keys.odd);
    expect(ids).toContain(dead[0]?.['originalId']);
    expect(dead[0]?.['workflowNode']).toBe('picky/in');
    // Why: the node where it failed, and its error.
    expect(dead[0]?.['failedNode']).toBe('check');
    expect(dead[0]?.['error']).toContain('odd');
    expect(dead).toHaveLength(10);
    await servers.call('POST', '/api/sessions/s/workflows/picky/deactivate');
  }, 60_000);
});

describe.skipIf(unavailable === undefined)('Redis Streams consumer group and adder', () => {
  it.skip(`needs Redis: ${unavailable ?? ''}`, () => undefined);
});
