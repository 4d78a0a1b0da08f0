// A Redis connection of one node (optional plugin redis-streams): the settings every Redis
// Streams node takes, a client that reconnects by itself with a growing pause, and the reading
// of stream entries out of Redis' nested array replies.
import type { Redis } from 'ioredis';
import { messageOf, z } from '../../../plugin-api/index.js';
import type { NodeContext } from '../../../plugin-api/index.js';

/** The `plugin` tag of the Redis nodes' `svc.plugin.events` for the connection. */
export const CONNECTION_EVENT = 'redis.connection';

const FIRST_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 30_000;

/** Connection keys shared by REDIS_STREAM_READ and REDIS_STREAM_ADD. */
export const redisConnectionKeys = {
  url: z
    .string()
    .min(1)
    .describe('Redis URL (redis://host:6379/0, rediss:// for TLS); may hold ${env.*} placeholders'),
  username: z.string().min(1).optional().describe('ACL user name; may be a secret'),
  password: z
    .string()
    .min(1)
    .optional()
    .describe('Password; best given as a secret (decrypted:name)'),
};

export interface RedisConnectionConfig {
  readonly url: string;
  readonly username?: string | undefined;
  readonly password?: string | undefined;
}

/**
 * The pause before reconnection attempt `times` (from 1): 0.5 s doubling up to 30 s. Redis
 * clients never give up: a server back after an hour is used again without a restart.
 */
export function reconnectDelay(times: number): number {
  return Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.max(0, Math.min(times - 1, 16)));
}

export interface RedisClientOptions {
  /** What the client is for, in its client name and log lines: `commands`, `reads`. */
  readonly role: string;
  /**
   * Attempts of a command while the server does not answer before it fails; `null` (a
   * consumer) waits for the reconnection instead.
   */
  readonly maxRetriesPerRequest: number | null;
}

/**
 * ioredis, loaded when a Redis node first runs rather than with the server: a server without
 * Redis nodes does not pay for it. Its RESP3 decoder subclasses `String` (`VerbatimString`),
 * and defining such a class turns off a V8 fast path for the whole process that code built of
 * string concatenation relies on (a schema-compiled JSON writer ran three times slower with
 * it; docs/performance.md).
 */
let ioredis: Promise<typeof Redis> | undefined;

/** A client that connects at once and reconnects after `reconnectDelay`, counting both. */
export async function createRedisClient(
  config: RedisConnectionConfig,
  ctx: NodeContext,
  options: RedisClientOptions,
): Promise<Redis> {
  const RedisClient = await (ioredis ??= import('ioredis').then((loaded) => loaded.Redis));
  const client = new RedisClient(config.url, {
    ...(config.username === undefined ? {} : { username: config.username }),
    ...(config.password === undefined ? {} : { password: config.password }),
    connectionName: `svc:${ctx.workflowId}:${ctx.nodeId}:${options.role}`,
    retryStrategy: reconnectDelay,
    maxRetriesPerRequest: options.maxRetriesPerRequest,
    connectTimeout: 5000,
    // RESP2 replies: the stream replies this module reads keep one shape on every server.
    protocol: 2,
  });
  let lost = false;
  // Without a listener an unreachable server would be an unhandled 'error' event.
  client.on('error', (error: unknown) => {
    if (lost) return;
    lost = true;
    ctx.report(CONNECTION_EVENT, 'failed');
    ctx.log.warn('Redis connection failed; reconnecting', {
      role: options.role,
      error: messageOf(error),
    });
  });
  client.on('reconnecting', () => {
    ctx.report(CONNECTION_EVENT, 'reconnecting');
  });
  client.on('ready', () => {
    if (!lost) return;
    lost = false;
    ctx.report(CONNECTION_EVENT, 'reconnected');
    ctx.log.info('Redis connection back', { role: options.role });
  });
  return client;
}

/** Quits politely, or drops the connection when the server does not answer within `waitMs`. */
export async function closeRedisClient(client: Redis, waitMs = 2000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(resolve, waitMs, 'late');
  });
  const quit = await Promise.race([
    client.quit().then(
      () => 'quit' as const,
      () => 'failed' as const,
    ),
    late,
  ]);
  clearTimeout(timer);
  if (quit !== 'quit') client.disconnect();
}

/** One stream entry: its id, and its fields, or `undefined` when it was deleted meanwhile. */
export interface StreamEntry {
  readonly id: string;
  readonly fields: Readonly<Record<string, string>> | undefined;
}

function isArray(value: unknown): value is readonly unknown[] {
  return Array.isArray(value);
}

/** Entries of a `[[id, [field, value, ...]], ...]` list; a deleted one has no fields. */
export function entriesOf(list: unknown): StreamEntry[] {
  if (!isArray(list)) return [];
  const entries: StreamEntry[] = [];
  for (const item of list) {
    if (!isArray(item)) continue;
    const [id, flat] = item;
    if (typeof id !== 'string') continue;
    if (!isArray(flat)) {
      entries.push({ id, fields: undefined });
      continue;
    }
    const fields: Record<string, string> = {};
    for (let index = 0; index + 1 < flat.length; index += 2) {
      fields[String(flat[index])] = String(flat[index + 1]);
    }
    entries.push({ id, fields });
  }
  return entries;
}

/**
 * The entries of an XREADGROUP reply on one stream (`null` when a BLOCK timed out): RESP2's
 * `[[key, entries]]`, or the `[key, entries]` a RESP3 map becomes.
 */
export function readReplyEntries(reply: unknown): StreamEntry[] {
  if (!isArray(reply)) return [];
  const [first, second] = reply;
  if (typeof first === 'string') return entriesOf(second);
  return isArray(first) ? entriesOf(first[1]) : [];
}

export interface ClaimReply {
  /** Where the next XAUTOCLAIM goes on; `0-0` once the pending list was scanned through. */
  readonly cursor: string;
  readonly entries: StreamEntry[];
}

/** An XAUTOCLAIM reply: the next cursor, and the claimed entries that still exist. */
export function claimReplyOf(reply: unknown): ClaimReply {
  if (!isArray(reply)) return { cursor: '0-0', entries: [] };
  const [cursor, list] = reply;
  return {
    cursor: typeof cursor === 'string' ? cursor : '0-0',
    // Redis 7 names deleted entries apart and drops them from the pending list itself.
    entries: entriesOf(list).filter((entry) => entry.fields !== undefined),
  };
}
