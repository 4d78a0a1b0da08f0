// REDIS_STREAM_READ (optional plugin redis-streams): a trigger on a Redis Streams consumer group.
// An entry is acknowledged (XACK) only when everything it led to in the run is done; a failure
// leaves it pending, to be claimed again, or moves it to a dead-letter stream. The consumer reads
// only as many entries as the graph below can take (NodeContext.credit, capped by
// `maxInFlight`), so its pending list never holds more and the backlog stays in Redis. At start
// it reads its own pending entries first, and it claims entries idle with dead consumers, so what
// a crash left unacknowledged is delivered again (docs/brokers.md).
import type { Redis } from 'ioredis';
import {
  answerWhenTaken,
  consumerCredit,
  Credits,
  deadLetterReason,
  decodeBody,
  decodeOption,
  definePlugin,
  MAX_CONSUMER_CREDIT,
  messageOf,
  needsDeadLetterTarget,
  positiveInt,
  StepFailure,
  z,
} from '../../../plugin-api/index.js';
import type {
  Emit,
  NodeContext,
  SettlementFailure,
  SettlementOutcome,
} from '../../../plugin-api/index.js';
import {
  claimReplyOf,
  closeRedisClient,
  CONNECTION_EVENT,
  createRedisClient,
  readReplyEntries,
  reconnectDelay,
  redisConnectionKeys,
} from './redis-connection.js';
import type { StreamEntry } from './redis-connection.js';

export const REDIS_STREAM_READ = 'REDIS_STREAM_READ';
/** The `plugin` tag of `svc.plugin.events` for settled entries; outcome is what was done. */
export const ENTRY_EVENT = 'redis.entry';
/** How long one blocking read waits for new entries before the loop looks around again. */
const BLOCK_MS = 1000;
const DEFAULT_CLAIM_IDLE_MS = 60_000;

export const FAILURE_ACTIONS = ['leave', 'dead-letter'] as const;

export const redisStreamReadConfigSchema = z
  .looseObject({
    ...redisConnectionKeys,
    stream: z.string().min(1).describe('Stream key to read'),
    group: z
      .string()
      .min(1)
      .describe('Consumer group: made (with the stream) when missing; keeps the position'),
    consumer: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Consumer name in the group, stable across restarts (default svc:<session>:<workflow>:<node>)',
      ),
    startId: z
      .string()
      .regex(/^(\$|\d+(-\d+)?)$/)
      .optional()
      .describe('Where a group made here starts: 0 (default, every entry) or $ (new entries)'),
    maxInFlight: positiveInt()
      .max(100_000)
      .optional()
      .describe(
        `Most unacknowledged entries held; by default what the graph below can take, at most ${MAX_CONSUMER_CREDIT}`,
      ),
    claimIdleMs: positiveInt()
      .max(86_400_000)
      .optional()
      .describe('Entries pending this long with any consumer are claimed (default 60000)'),
    onFailure: z
      .enum(FAILURE_ACTIONS)
      .optional()
      .describe('An entry that failed in the run: leave (default, claimed again), dead-letter'),
    deadLetterStream: z
      .string()
      .min(1)
      .optional()
      .describe('For onFailure dead-letter: the stream failed entries are added to'),
    field: z
      .string()
      .min(1)
      .optional()
      .describe('Field holding the body (default payload); without it, all fields as an object'),
    decode: decodeOption(),
  })
  .superRefine(needsDeadLetterTarget('deadLetterStream'));

export type RedisStreamReadConfig = z.output<typeof redisStreamReadConfigSchema>;

export const redisStreamReadPlugin = definePlugin({
  type: REDIS_STREAM_READ,
  kind: 'trigger',
  description:
    'Reads a Redis stream through a consumer group and emits each entry; acknowledges it only when everything it led to is done, at the pace the workflow drains.',
  configSchema: redisStreamReadConfigSchema,
  outputPorts: () => ['out'],
  create: (config) => ({ run: (_input, ctx) => consume(config, ctx) }),
});

/** The consumer name: the configured one, else one stable for the node across restarts. */
export function consumerNameOf(config: RedisStreamReadConfig, ctx: NodeContext): string {
  return config.consumer ?? `svc:${ctx.sessionId}:${ctx.workflowId}:${ctx.nodeId}`;
}

/** The payload of an entry: its body field decoded, or every field when it has none. */
export function payloadOf(config: RedisStreamReadConfig, fields: Record<string, string>): unknown {
  const body = fields[config.field ?? 'payload'];
  return body === undefined ? { ...fields } : decodeBody(body, config.decode !== 'text');
}

/**
 * Where the next read comes from: the consumer's own pending entries first (left by a run that
 * ended or a process that died), then idle entries of other consumers, then new entries.
 */
class ReadPlan {
  /** The id after which the consumer's own pending entries are read; undefined once through. */
  ownFrom: string | undefined = '0';
  claimCursor = '0-0';
  nextClaimAt = 0;
  readonly #claimEveryMs: number;

  constructor(claimIdleMs: number) {
    this.#claimEveryMs = Math.max(BLOCK_MS, Math.floor(claimIdleMs / 2));
  }

  ownRead(entries: readonly StreamEntry[], count: number): void {
    const last = entries.at(-1);
    this.ownFrom = entries.length < count || last === undefined ? undefined : last.id;
  }

  claimed(cursor: string, now: number): void {
    this.claimCursor = cursor;
    // Scanned through: the next scan after half the idle time, so nothing waits much longer.
    if (cursor === '0-0') this.nextClaimAt = now + this.#claimEveryMs;
  }
}

async function* consume(config: RedisStreamReadConfig, ctx: NodeContext): AsyncGenerator<Emit> {
  const consumer = consumerNameOf(config, ctx);
  // Commands wait for a reconnection rather than fail: the consumer has nothing better to do.
  const commands = await createRedisClient(config, ctx, {
    role: 'commands',
    maxRetriesPerRequest: null,
  });
  // A blocking read holds its connection: acknowledgements must not queue behind it.
  const reads = await createRedisClient(config, ctx, { role: 'reads', maxRetriesPerRequest: null });
  const held = new Set<string>();
  const stop = (): void => {
    reads.disconnect();
    // A command waiting for a server that is away would hold the run's end: dropped. A live
    // connection stays, so acknowledgements already sent are confirmed before the node ends.
    if (commands.status !== 'ready') commands.disconnect();
  };
  ctx.signal.addEventListener('abort', stop, { once: true });
  try {
    await ensureGroup(commands, config);
    const credits = new Credits(consumerCredit(config.maxInFlight, ctx));
    const settle = settler(config, ctx, commands, held, credits);
    const plan = new ReadPlan(config.claimIdleMs ?? DEFAULT_CLAIM_IDLE_MS);
    // A read whose reply was lost with its connection left its entries pending to this
    // consumer, unseen (the client sends the read again, and it brings new ones): the
    // consumer's own pending entries are read first again after every reconnection.
    reads.on('reconnecting', () => {
      plan.ownFrom = '0';
    });
    // Reads wait for a quarter of the credit to be free while entries are under way, so a busy
    // consumer reads in batches rather than one entry per round trip.
    const quarter = Math.max(1, Math.floor(credits.limit / 4));
    let failures = 0;
    for (;;) {
      const waiting = credits.whenFree(quarter, ctx.signal);
      if (waiting !== undefined) await waiting;
      // Every free credit goes into one read (COUNT); those it does not use are given back.
      const batch = credits.takeFree();
      let got = 0;
      try {
        const { entries, redelivered } = await read(config, ctx, commands, reads, plan, {
          consumer,
          count: batch,
        });
        failures = 0;
        for (const entry of entries) {
          // Claimed again while the run still works on it (idle longer than claimIdleMs).
          if (held.has(entry.id) || entry.fields === undefined) continue;
          got++;
          held.add(entry.id);
          yield emitOf(config, entry, entry.fields, redelivered, settle);
        }
      } catch (error) {
        if (ctx.signal.aborted) throw error;
        if (error instanceof StepFailure) throw error;
        // The stream or group may be gone (deleted, a server restarted without data): made
        // again; other errors are tried again after a pause while the client reconnects.
        failures++;
        ctx.report(CONNECTION_EVENT, 'read-failed');
        const pause = reconnectDelay(failures);
        ctx.log.warn('Redis stream read failed; reading again', {
          stream: config.stream,
          group: config.group,
          error: messageOf(error),
          retryInMs: pause,
        });
        await ctx.sleep(pause, { signal: ctx.signal });
        if (/NOGROUP/.test(messageOf(error))) await ensureGroup(commands, config);
      } finally {
        for (; got < batch; got++) credits.settled();
      }
    }
  } finally {
    ctx.signal.removeEventListener('abort', stop);
    // What the run still had under way stays pending: the next run reads it first.
    held.clear();
    reads.disconnect();
    await closeRedisClient(commands);
  }
}

interface ReadResult {
  readonly entries: StreamEntry[];
  readonly redelivered: boolean;
}

async function read(
  config: RedisStreamReadConfig,
  ctx: NodeContext,
  commands: Redis,
  reads: Redis,
  plan: ReadPlan,
  { consumer, count }: { readonly consumer: string; readonly count: number },
): Promise<ReadResult> {
  const group = ['GROUP', config.group, consumer, 'COUNT', count] as const;
  if (plan.ownFrom !== undefined) {
    const reply = await commands.call(
      'XREADGROUP',
      ...group,
      'STREAMS',
      config.stream,
      plan.ownFrom,
    );
    const entries = readReplyEntries(reply);
    plan.ownRead(entries, count);
    // An entry deleted while pending is never delivered again: out of the pending list.
    const deleted = entries.filter((entry) => entry.fields === undefined).map((entry) => entry.id);
    if (deleted.length > 0) await commands.xack(config.stream, config.group, ...deleted);
    return { entries, redelivered: true };
  }
  if (ctx.now() >= plan.nextClaimAt) {
    const reply = await commands.call(
      'XAUTOCLAIM',
      config.stream,
      config.group,
      consumer,
      config.claimIdleMs ?? DEFAULT_CLAIM_IDLE_MS,
      plan.claimCursor,
      'COUNT',
      count,
    );
    const claimed = claimReplyOf(reply);
    plan.claimed(claimed.cursor, ctx.now());
    if (claimed.entries.length > 0) return { entries: claimed.entries, redelivered: true };
  }
  const reply = await reads.call(
    'XREADGROUP',
    ...group,
    'BLOCK',
    BLOCK_MS,
    'STREAMS',
    config.stream,
    '>',
  );
  return { entries: readReplyEntries(reply), redelivered: false };
}

function emitOf(
  config: RedisStreamReadConfig,
  entry: StreamEntry,
  fields: Record<string, string>,
  redelivered: boolean,
  settle: Settle,
): Emit {
  return {
    payload: payloadOf(config, fields),
    headers: { redisStream: config.stream, redisId: entry.id, redisRedelivered: redelivered },
    settlement: {
      // The entry id never changes, so a redelivered entry gets the same message id.
      key: `${config.stream}-${entry.id}`,
      onSettled: (outcome, failure) => {
        settle(entry, outcome, failure);
      },
    },
  };
}

type Settle = (entry: StreamEntry, outcome: SettlementOutcome, failure?: SettlementFailure) => void;

/** What a settled entry does in Redis. */
function settler(
  config: RedisStreamReadConfig,
  ctx: NodeContext,
  commands: Redis,
  held: Set<string>,
  credits: Credits,
): Settle {
  const finish = answerWhenTaken(ctx, credits, ENTRY_EVENT);
  return (entry, outcome, failure) => {
    // Dropped when the node ended: it stays pending for the next run.
    if (!held.delete(entry.id)) return;
    if (outcome === 'done') {
      finish('acked', commands.xack(config.stream, config.group, entry.id));
    } else if (outcome === 'cancelled' || config.onFailure !== 'dead-letter') {
      // Pending, it is read again by the next run, or claimed once idle for claimIdleMs.
      finish('left', Promise.resolve());
    } else {
      finish('dead-lettered', deadLetter(config, ctx, commands, entry, failure));
    }
  };
}

/** Adds the entry to the dead-letter stream and acknowledges it, both or neither (MULTI). */
async function deadLetter(
  config: RedisStreamReadConfig,
  ctx: NodeContext,
  commands: Redis,
  entry: StreamEntry,
  failure: SettlementFailure | undefined,
): Promise<void> {
  const reason = deadLetterReason(failure);
  const fields = Object.entries(entry.fields ?? {}).flat();
  const replies = await commands
    .multi()
    .xadd(
      config.deadLetterStream ?? '',
      '*',
      ...fields,
      'originalStream',
      config.stream,
      'originalId',
      entry.id,
      'workflowNode',
      `${ctx.workflowId}/${ctx.nodeId}`,
      'failedNode',
      reason.failedNode,
      'error',
      reason.error,
    )
    .xack(config.stream, config.group, entry.id)
    .exec();
  const failed = replies?.find(([error]) => error !== null)?.[0];
  if (replies === null || failed !== undefined) {
    throw failed ?? new Error('Dead-letter transaction aborted');
  }
}

/** The group, made with its stream when missing; one that exists is kept as it is. */
async function ensureGroup(commands: Redis, config: RedisStreamReadConfig): Promise<void> {
  try {
    await commands.xgroup('CREATE', config.stream, config.group, config.startId ?? '0', 'MKSTREAM');
  } catch (error) {
    const reason = messageOf(error);
    if (/BUSYGROUP/.test(reason)) return;
    if (/WRONGTYPE/.test(reason)) {
      throw StepFailure.nonRetryable(`Redis key '${config.stream}' is not a stream`);
    }
    throw error;
  }
}
