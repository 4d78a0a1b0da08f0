// REDIS_STREAM_ADD (optional plugin redis-streams): adds each message's payload (JSON, or the
// string itself) to a stream with XADD, with the message id as a field: Redis streams do not
// deduplicate, so a message delivered again after a crash is added again, and readers drop the
// copy by that id. Optionally trims the stream to about `maxLen` entries.
import type { Redis } from 'ioredis';
import {
  bodyOf,
  definePlugin,
  messageOf,
  positiveInt,
  StepFailure,
  z,
} from '../../../plugin-api/index.js';
import type { Emit, Message, MessageProcessor, NodeContext } from '../../../plugin-api/index.js';
import { closeRedisClient, createRedisClient, redisConnectionKeys } from './redis-connection.js';

export const REDIS_STREAM_ADD = 'REDIS_STREAM_ADD';
/** The `plugin` tag of `svc.plugin.events` for adds: outcome `added` or `failed`. */
export const ADD_EVENT = 'redis.add';
/** Tries of a command while Redis does not answer, before the node's retries take over. */
const COMMAND_TRIES = 3;

export const redisStreamAddConfigSchema = z.looseObject({
  ...redisConnectionKeys,
  stream: z.string().min(1).describe('Stream key to add to (made by the first add)'),
  field: z.string().min(1).optional().describe('Field the body goes in (default payload)'),
  idField: z
    .string()
    .min(1)
    .optional()
    .describe('Field the message id goes in (default messageId)'),
  maxLen: positiveInt()
    .optional()
    .describe('Trims the stream to about this many entries (MAXLEN ~) on each add'),
  concurrency: positiveInt()
    .max(1000)
    .optional()
    .describe('Adds awaited at once (default 1); above 1 outputs may leave out of order'),
});

export type RedisStreamAddConfig = z.output<typeof redisStreamAddConfigSchema>;

export const redisStreamAddPlugin = definePlugin({
  type: REDIS_STREAM_ADD,
  kind: 'processor',
  description:
    'Adds each payload to a Redis stream (XADD) with the message id as a field, and emits the entry id.',
  configSchema: redisStreamAddConfigSchema,
  outputPorts: () => ['out'],
  create: (config) => new RedisStreamAdder(config),
});

/** The XADD arguments after the key: trimming, the id `*`, then the fields. */
export function addArguments(config: RedisStreamAddConfig, message: Message): (string | number)[] {
  const trim = config.maxLen === undefined ? [] : ['MAXLEN', '~', config.maxLen];
  return [
    ...trim,
    '*',
    config.idField ?? 'messageId',
    message.id,
    config.field ?? 'payload',
    bodyOf(message.payload),
  ];
}

class RedisStreamAdder implements MessageProcessor {
  readonly concurrency: number;
  readonly #config: RedisStreamAddConfig;
  #client: Promise<Redis> | undefined;

  constructor(config: RedisStreamAddConfig) {
    this.#config = config;
    this.concurrency = config.concurrency ?? 1;
  }

  async process(message: Message, ctx: NodeContext): Promise<Emit> {
    // One client per node, made on its first message; it reconnects by itself.
    this.#client ??= createRedisClient(this.#config, ctx, {
      role: 'commands',
      maxRetriesPerRequest: COMMAND_TRIES,
    });
    const stream = this.#config.stream;
    try {
      const client = await this.#client;
      const id = await client.call('XADD', stream, ...addArguments(this.#config, message));
      ctx.report(ADD_EVENT, 'added');
      return { payload: { stream, id } };
    } catch (error) {
      ctx.report(ADD_EVENT, 'failed');
      const reason = messageOf(error);
      // Another type of value under the key: no retry helps.
      if (/WRONGTYPE/.test(reason)) {
        throw StepFailure.nonRetryable(`Redis key '${stream}' is not a stream`);
      }
      throw new Error(`Redis XADD to '${stream}' failed: ${reason}`, { cause: error });
    }
  }

  async close(): Promise<void> {
    const client = this.#client;
    this.#client = undefined;
    if (client !== undefined) await closeRedisClient(await client);
  }
}
