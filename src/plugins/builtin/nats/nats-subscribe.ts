// NATS_SUBSCRIBE (optional plugin nats): a trigger on a JetStream durable pull consumer. Each
// message is acknowledged only when everything it led to in the run is done (`ack`); a failure
// after retries naks it (redelivered after `nakDelayMs`), terminates it, or publishes it to a
// dead-letter subject; a message still under way when the run ends is nakked. The consumer
// fetches only as many messages as the graph below can take (NodeContext.credit, capped by
// `maxInFlight`), and more as they settle, so the backlog stays on the server (docs/brokers.md).
import { AckPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { JetStreamClient, JsMsg } from '@nats-io/jetstream';
import { headers as natsHeaders, nanos } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/transport-node';
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
  closeConnection,
  CONNECTION_EVENT,
  connectWithBackoff,
  natsConnectionKeys,
} from './nats-connection.js';

export const NATS_SUBSCRIBE = 'NATS_SUBSCRIBE';
/** The `plugin` tag of `svc.plugin.events` for settled messages; outcome is what was sent. */
export const MESSAGE_EVENT = 'nats.message';
const FETCH_EXPIRES_MS = 1000;
const FIRST_RETRY_MS = 200;
const MAX_RETRY_MS = 10_000;

export const FAILURE_ACTIONS = ['nak', 'term', 'dead-letter'] as const;

const NAME = /^[A-Za-z0-9_-]+$/;

export const natsSubscribeConfigSchema = z
  .looseObject({
    ...natsConnectionKeys,
    stream: z.string().regex(NAME).describe('JetStream stream to consume'),
    consumer: z
      .string()
      .regex(NAME)
      .describe('Durable consumer name: made when missing; keeps the position across restarts'),
    subject: z.string().min(1).optional().describe('Filter subject when the consumer is made'),
    ackWaitSeconds: positiveInt()
      .max(3600)
      .optional()
      .describe('Ack wait of a consumer made here (default 30); held messages are kept alive'),
    maxInFlight: positiveInt()
      .max(100_000)
      .optional()
      .describe(
        `Most unacknowledged messages held; by default what the graph below can take, at most ${MAX_CONSUMER_CREDIT}`,
      ),
    onFailure: z
      .enum(FAILURE_ACTIONS)
      .optional()
      .describe('A message that failed in the run: nak (default, redelivered), term, dead-letter'),
    nakDelayMs: z.number().int().min(0).max(3_600_000).optional().describe('Delay of a nak'),
    deadLetterSubject: z
      .string()
      .min(1)
      .optional()
      .describe('For onFailure dead-letter: the subject failed messages are published to'),
    decode: decodeOption(),
  })
  .superRefine(needsDeadLetterTarget('deadLetterSubject'));

export type NatsSubscribeConfig = z.output<typeof natsSubscribeConfigSchema>;

export const natsSubscribePlugin = definePlugin({
  type: NATS_SUBSCRIBE,
  kind: 'trigger',
  description:
    'Consumes a JetStream durable pull consumer and emits each message; acknowledges it only when everything it led to is done, at the pace the workflow drains.',
  configSchema: natsSubscribeConfigSchema,
  outputPorts: () => ['out'],
  create: (config) => ({ run: (_input, ctx) => consume(config, ctx) }),
});

async function* consume(config: NatsSubscribeConfig, ctx: NodeContext): AsyncGenerator<Emit> {
  const connection = await connectWithBackoff(config, ctx);
  const held = new Set<JsMsg>();
  let keepAlive: NodeJS.Timeout | undefined;
  try {
    const ackWaitMs = await ensureConsumer(connection, config);
    // A message waits in the run longer than the ack wait: the server is told it is worked on.
    keepAlive = setInterval(
      () => {
        for (const message of held) message.working();
      },
      Math.max(200, ackWaitMs / 3),
    );
    keepAlive.unref();
    const js = jetstream(connection);
    const consumer = await js.consumers.get(config.stream, config.consumer);
    const credits = new Credits(consumerCredit(config.maxInFlight, ctx));
    const settle = settler(config, ctx, connection, held, credits);
    const json = config.decode !== 'text';
    // Fetches wait for a quarter of the credit to be free while messages are under way, so a
    // busy consumer fetches in batches rather than one message per round trip.
    const quarter = Math.max(1, Math.floor(credits.limit / 4));
    let pause = FIRST_RETRY_MS;
    // Read anew at each use: the run's end aborts the signal while a fetch is under way.
    const ended = (): boolean => ctx.signal.aborted;
    while (!ended()) {
      const waiting = credits.whenFree(quarter, ctx.signal);
      if (waiting !== undefined) await waiting;
      // Every free credit goes into one fetch; those it does not use are given back.
      const batch = credits.takeFree();
      let got = 0;
      try {
        const fetched = await consumer.fetch({ max_messages: batch, expires: FETCH_EXPIRES_MS });
        const messages = fetched[Symbol.asyncIterator]();
        try {
          for (let next = await messages.next(); next.done !== true; next = await messages.next()) {
            const message = next.value;
            // After a reconnect the client asks for its whole batch again, so a fetch can
            // bring more than its credit; and the run may have ended: such a message goes back
            // to the server at once.
            if (got === batch || ended()) {
              message.nak();
              continue;
            }
            got++;
            held.add(message);
            yield emitOf(config, message, json, settle);
          }
        } finally {
          // The server keeps a pull open until it expires and sends what it delivers to it
          // even once the run has ended: handed back, not left until the ack wait.
          await nakTheRest(messages);
        }
        pause = FIRST_RETRY_MS;
      } catch (error) {
        if (ended()) throw error;
        // A lost connection, or heartbeats missed while it was down: the client reconnects by
        // itself, and the consumer fetches again rather than failing the run.
        ctx.report(CONNECTION_EVENT, 'fetch-failed');
        ctx.log.warn('NATS fetch failed; fetching again', {
          stream: config.stream,
          consumer: config.consumer,
          error: messageOf(error),
          retryInMs: pause,
        });
        await ctx.sleep(pause, { signal: ctx.signal });
        pause = Math.min(MAX_RETRY_MS, pause * 2);
        // The stream or the consumer may have gone with the server's state: made again, or
        // the node fails when the stream is gone. A server still away is tried again.
        await ensureConsumer(connection, config).catch((lost: unknown) => {
          if (lost instanceof StepFailure) throw lost;
        });
      } finally {
        for (; got < batch; got++) credits.settled();
      }
    }
  } finally {
    if (keepAlive !== undefined) clearInterval(keepAlive);
    // What the run still had under way goes back to the server at once.
    for (const message of held) message.nak();
    held.clear();
    await closeConnection(connection);
  }
}

/** Naks what a pull still brings until it ends (it expires within FETCH_EXPIRES_MS). */
async function nakTheRest(messages: AsyncIterator<JsMsg>): Promise<void> {
  try {
    for (let next = await messages.next(); next.done !== true; next = await messages.next()) {
      next.value.nak();
    }
  } catch {
    // The pull failed (a lost connection): the server redelivers after the ack wait.
  }
}

function emitOf(config: NatsSubscribeConfig, message: JsMsg, json: boolean, settle: Settle): Emit {
  return {
    payload: decodeBody(message.string(), json),
    headers: {
      natsSubject: message.subject,
      natsStream: config.stream,
      natsSequence: message.seq,
      natsDeliveries: message.info.deliveryCount,
    },
    settlement: {
      key: `${config.stream}-${message.seq}`,
      onSettled: (outcome, failure) => {
        settle(message, outcome, failure);
      },
    },
  };
}

type Settle = (message: JsMsg, outcome: SettlementOutcome, failure?: SettlementFailure) => void;

/** What a settled message sends back to the server. */
function settler(
  config: NatsSubscribeConfig,
  ctx: NodeContext,
  connection: NatsConnection,
  held: Set<JsMsg>,
  credits: Credits,
): Settle {
  const js = jetstream(connection);
  const finish = answerWhenTaken(ctx, credits, MESSAGE_EVENT);
  return (message, outcome, failure) => {
    // Nakked when the node ended: nothing more to send.
    if (!held.delete(message)) return;
    if (outcome === 'done') {
      finish('acked', message.ackAck());
    } else if (
      outcome === 'cancelled' ||
      config.onFailure === undefined ||
      config.onFailure === 'nak'
    ) {
      message.nak(outcome === 'cancelled' ? undefined : config.nakDelayMs);
      finish('nakked', connection.flush());
    } else if (config.onFailure === 'term') {
      message.term();
      finish('terminated', connection.flush());
    } else {
      const published = deadLetter(config, ctx, js, message, failure).then(
        () => 'dead-lettered',
        (error: unknown) => {
          ctx.log.warn('Dead letter not published; message nakked', { error: messageOf(error) });
          message.nak(config.nakDelayMs);
          return 'nakked';
        },
      );
      void published.then((sent) => {
        finish(sent, connection.flush());
      });
    }
  };
}

async function deadLetter(
  config: NatsSubscribeConfig,
  ctx: NodeContext,
  js: JetStreamClient,
  message: JsMsg,
  failure: SettlementFailure | undefined,
): Promise<void> {
  const reason = deadLetterReason(failure);
  const headers = natsHeaders();
  headers.set('Nats-Original-Subject', message.subject);
  headers.set('Nats-Original-Stream', config.stream);
  headers.set('Nats-Original-Sequence', String(message.seq));
  headers.set('Workflow-Node', `${ctx.workflowId}/${ctx.nodeId}`);
  headers.set('Failed-Node', reason.failedNode);
  headers.set('Error', reason.error);
  await js.publish(config.deadLetterSubject ?? '', message.data, {
    headers,
    msgID: `dl-${config.stream}-${message.seq}`,
  });
  message.term();
}

/**
 * The durable consumer, made when missing (explicit acks, redelivered without limit). Answers
 * its ack wait in milliseconds.
 */
async function ensureConsumer(
  connection: NatsConnection,
  config: NatsSubscribeConfig,
): Promise<number> {
  const manager = await jetstreamManager(connection);
  try {
    const info = await manager.consumers.info(config.stream, config.consumer);
    return (info.config.ack_wait ?? nanos(30_000)) / 1e6;
  } catch (error) {
    if (!/consumer not found/i.test(messageOf(error))) {
      if (/stream not found/i.test(messageOf(error))) {
        throw StepFailure.nonRetryable(`JetStream stream '${config.stream}' does not exist`);
      }
      throw error;
    }
  }
  const ackWait = (config.ackWaitSeconds ?? 30) * 1000;
  await manager.consumers.add(config.stream, {
    durable_name: config.consumer,
    ack_policy: AckPolicy.Explicit,
    ack_wait: nanos(ackWait),
    max_deliver: -1,
    ...(config.subject === undefined ? {} : { filter_subject: config.subject }),
  });
  return ackWait;
}
