// The Redis server the Redis Streams broker tests use: SVC_TEST_REDIS_URL, by default
// redis://127.0.0.1:6379. As with the databases and NATS, when no server answers the tests that
// need one are skipped with the reason, unless CI is set: then they fail.
import { Redis } from 'ioredis';

export const TEST_REDIS_URL = process.env.SVC_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A client for test fixtures that fails at once rather than waiting; the caller quits it. */
export function testRedisClient(): Redis {
  return new Redis(TEST_REDIS_URL, {
    connectTimeout: 3000,
    maxRetriesPerRequest: 1,
    retryStrategy: () => null,
    lazyConnect: true,
    protocol: 2,
  });
}

/** Why Redis tests cannot run here, or undefined when a Redis with streams (5+) answers. */
export async function redisUnavailable(
  ci: string | undefined = process.env.CI,
): Promise<string | undefined> {
  const client = testRedisClient();
  client.on('error', () => undefined);
  try {
    await client.connect();
    const version = /redis_version:(\d+)/.exec(await client.info('server'))?.[1];
    if (Number(version) < 7) throw new Error(`Redis ${version ?? '?'} is older than 7`);
    return undefined;
  } catch (error) {
    const reason = `no Redis 7 answers at SVC_TEST_REDIS_URL (${error instanceof Error ? error.message : String(error)}); start one, see the README`;
    if (ci !== undefined && ci !== '') throw new Error(reason, { cause: error });
    return reason;
  } finally {
    client.disconnect();
  }
}

/** Every entry of a stream, oldest first, as its fields. */
export async function readStreamFields(
  client: Redis,
  stream: string,
): Promise<Record<string, string>[]> {
  const entries: Record<string, string>[] = [];
  let from = '-';
  for (;;) {
    const page = await client.xrange(stream, from, '+', 'COUNT', 1000);
    for (const [, flat] of page) {
      const fields: Record<string, string> = {};
      for (let index = 0; index + 1 < flat.length; index += 2) {
        fields[flat[index] ?? ''] = flat[index + 1] ?? '';
      }
      entries.push(fields);
    }
    const last = page.at(-1);
    if (page.length < 1000 || last === undefined) return entries;
    from = `(${last[0]}`;
  }
}

/** The group's pending count (XPENDING summary). */
export async function pendingCount(client: Redis, stream: string, group: string): Promise<number> {
  const summary = (await client.xpending(stream, group)) as [number, ...unknown[]];
  return summary[0];
}

/** The group's lag: entries of the stream not yet delivered to the group (Redis 7). */
export async function groupLag(client: Redis, stream: string, group: string): Promise<number> {
  const groups = (await client.xinfo('GROUPS', stream)) as unknown[][];
  for (const flat of groups) {
    const info = new Map<unknown, unknown>();
    for (let index = 0; index + 1 < flat.length; index += 2) info.set(flat[index], flat[index + 1]);
    if (info.get('name') === group) return Number(info.get('lag'));
  }
  throw new Error(`no group ${group} on ${stream}`);
}
