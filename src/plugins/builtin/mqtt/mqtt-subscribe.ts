// MQTT_SUBSCRIBE (optional plugin mqtt): a trigger on an MQTT 5 persistent session. Each QoS 1
// or 2 message is acknowledged (PUBACK, or PUBREC then PUBCOMP) only when everything it led to in
// the run is done; a failure after retries leaves it unacknowledged and reconnects the session
// so the broker sends it again, acknowledges it, or dead-letters it. The session's Receive
// Maximum is the graph's credit, so the broker keeps the backlog (docs/brokers.md).
import type { IPublishPacket, ISubscriptionMap, MqttClient, Packet } from 'mqtt';
import {
  consumerCredit,
  deadLetterReason,
  decodeBody,
  decodeOption,
  definePlugin,
  MAX_CONSUMER_CREDIT,
  messageOf,
  needsDeadLetterTarget,
  positiveInt,
  z,
} from '../../../plugin-api/index.js';
import type {
  Emit,
  NodeContext,
  SettlementFailure,
  SettlementOutcome,
} from '../../../plugin-api/index.js';
import { clientIdOf, connectClient, mqttConnectionKeys, WITHHELD } from './mqtt-connection.js';
import { Deliveries } from './mqtt-deliveries.js';
import type { Delivery } from './mqtt-deliveries.js';
import { deliveryKey } from './mqtt-message-key.js';

export const MQTT_SUBSCRIBE = 'MQTT_SUBSCRIBE';
/** The `plugin` tag of `svc.plugin.events` for settled messages; outcome is what was done. */
export const MESSAGE_EVENT = 'mqtt.message';
/** The `plugin` tag for messages received: outcome `delivered`, or `redelivered` (DUP set). */
export const DELIVERY_EVENT = 'mqtt.delivery';
/** The most unacknowledged messages a subscriber holds when the graph below could take more. */
export const MAX_CREDIT = MAX_CONSUMER_CREDIT;

export const FAILURE_ACTIONS = ['redeliver', 'ack', 'dead-letter'] as const;

export const mqttSubscribeConfigSchema = z
  .looseObject({
    ...mqttConnectionKeys,
    topic: z.string().min(1).describe('Topic filter to subscribe to (+ and # wildcards allowed)'),
    qos: z
      .union([z.literal(1), z.literal(2)])
      .optional()
      .describe('Subscription QoS, 1 (default) or 2'),
    sessionExpirySeconds: z
      .number()
      .int()
      .min(1)
      .max(4_294_967_295)
      .optional()
      .describe('How long the broker keeps the session and its backlog while away (default 1 day)'),
    maxInFlight: positiveInt()
      .max(65_535)
      .optional()
      .describe(
        `Receive Maximum: most unacknowledged messages held; by default what the graph below can take, at most ${MAX_CREDIT}`,
      ),
    onFailure: z
      .enum(FAILURE_ACTIONS)
      .optional()
      .describe(
        'A message that failed in the run: redeliver (default: unacknowledged, the session reconnects), ack, dead-letter',
      ),
    redeliverDelayMs: z
      .number()
      .int()
      .min(0)
      .max(3_600_000)
      .optional()
      .describe('For onFailure redeliver: the pause before the session reconnects (default 5000)'),
    deadLetterTopic: z
      .string()
      .min(1)
      .optional()
      .describe('For onFailure dead-letter: the topic failed messages are published to (QoS 1)'),
    decode: decodeOption(),
  })
  .superRefine(needsDeadLetterTarget('deadLetterTopic'));

export type MqttSubscribeConfig = z.output<typeof mqttSubscribeConfigSchema>;

export const mqttSubscribePlugin = definePlugin({
  type: MQTT_SUBSCRIBE,
  kind: 'trigger',
  description:
    'Subscribes with an MQTT 5 persistent session and emits each message; acknowledges it only when everything it led to is done, holding no more than the workflow can take.',
  configSchema: mqttSubscribeConfigSchema,
  outputPorts: () => ['out'],
  create: (config) => ({ run: (_input, ctx) => consume(config, ctx) }),
});

/** The session's Receive Maximum: `maxInFlight`, else what the graph below takes, capped. */
export function creditOf(config: MqttSubscribeConfig, ctx: NodeContext): number {
  return consumerCredit(config.maxInFlight, ctx);
}

async function* consume(config: MqttSubscribeConfig, ctx: NodeContext): AsyncGenerator<Emit> {
  const deliveries = new Deliveries();
  // Messages received and not yet emitted; never more than the Receive Maximum, since the
  // broker sends no more unacknowledged ones.
  const arrived: Delivery[] = [];
  let wake: (() => void) | undefined;
  // Set once connected; the handler below may run before the connection's promise settles.
  const connection: { client?: MqttClient } = {};
  const credit = creditOf(config, ctx);
  // Brokers do not all keep to the Receive Maximum once acknowledgements flow (Mosquitto 2.0
  // has been seen sending hundreds past it): with the credit used up, the handler's answer
  // waits for a message to settle, so MQTT.js stops reading and the socket's back-pressure
  // leaves the rest on the broker.
  let paused: (() => void) | undefined;
  const resume = (): void => {
    if (paused === undefined || deliveries.unsettled >= credit) return;
    const go = paused;
    paused = undefined;
    go();
  };
  const client = await connectClient(
    config,
    ctx,
    {
      clientId: clientIdOf(config, ctx, 'sub'),
      // A persistent session: what was not acknowledged when the process died is sent again when
      // it is back, and the backlog waits on the broker meanwhile.
      clean: false,
      properties: {
        sessionExpiryInterval: config.sessionExpirySeconds ?? 86_400,
        receiveMaximum: credit,
      },
      customHandleAcks: (_topic, _payload, packet: IPublishPacket, answer) => {
        const received = deliveries.receive(packet);
        if (received.kind === 'ack' && connection.client !== undefined) {
          sendAck(connection.client, packet.qos, packet.messageId ?? 0);
        } else if (received.kind === 'emit') {
          ctx.report(DELIVERY_EVENT, packet.dup ? 'redelivered' : 'delivered');
          arrived.push(received.delivery);
          wake?.();
        }
        if (deliveries.unsettled >= credit) {
          paused = () => {
            answer(WITHHELD);
          };
        } else answer(WITHHELD);
      },
    },
    (sessionPresent) => {
      deliveries.connected(sessionPresent);
    },
  );
  connection.client = client;
  let redeliverTimer: NodeJS.Timeout | undefined;
  let closing = false;
  const settle = settler(config, ctx, client, deliveries, resume, () => {
    // Unacknowledged messages come again only on a new connection of the session.
    redeliverTimer ??= setTimeout(() => {
      redeliverTimer = undefined;
      client.end(false, {}, () => {
        // The node may have ended meanwhile: its client stays closed.
        if (!closing) client.reconnect();
      });
    }, config.redeliverDelayMs ?? 5000);
  });
  try {
    let refused: Error | undefined;
    keepSubscribed(client, config, (error) => {
      refused = error;
      wake?.();
    });
    const json = config.decode !== 'text';
    const onAbort = (): void => wake?.();
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    try {
      while (!ctx.signal.aborted) {
        if (refused !== undefined) throw refused;
        const delivery = arrived.shift();
        if (delivery === undefined) {
          await new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
          continue;
        }
        yield emitOf(config, delivery, json, settle);
      }
    } finally {
      ctx.signal.removeEventListener('abort', onAbort);
    }
  } finally {
    closing = true;
    if (redeliverTimer !== undefined) clearTimeout(redeliverTimer);
    // Left unacknowledged: the broker sends what the run still held to the next connection.
    await client.endAsync(true).catch(() => undefined);
  }
}

/**
 * Subscribes, and subscribes again on each new connection until the broker has answered. The
 * answer is not awaited before emitting: a resumed session's backlog arrives ahead of the
 * SUBACK, and with the credit used up MQTT.js reads the SUBACK only once those messages settle,
 * so the connection may be lost first (a keep-alive unanswered while reading waits). Only a
 * SUBACK that refuses the subscription is told to `onRefused`.
 */
function keepSubscribed(
  client: MqttClient,
  config: MqttSubscribeConfig,
  onRefused: (error: Error) => void,
): void {
  let answered = false;
  const subscribe = (): void => {
    // `resubscribe` makes MQTT.js send it again although it remembers the topic as subscribed.
    const map: ISubscriptionMap = Object.assign(
      { [config.topic]: { qos: config.qos ?? 1 } },
      { resubscribe: true },
    );
    client.subscribeAsync(map).then(
      () => {
        answered = true;
      },
      (error: unknown) => {
        const code = (error as { code?: unknown }).code;
        // A SUBACK reason code from 0x80 up refuses, as does MQTT.js itself (an invalid
        // filter); an error without one while disconnected is an answer lost with its connection.
        const refusal = typeof code === 'number' && code >= 0x80;
        if (!refusal && !client.connected) return;
        answered = true;
        onRefused(
          new Error(`MQTT subscription to '${config.topic}' failed: ${messageOf(error)}`, {
            cause: error,
          }),
        );
      },
    );
  };
  client.on('connect', () => {
    if (!answered) subscribe();
  });
  subscribe();
}

function emitOf(
  config: MqttSubscribeConfig,
  delivery: Delivery,
  json: boolean,
  settle: Settle,
): Emit {
  const { packet } = delivery;
  const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
  return {
    payload: decodeBody(payload.toString('utf8'), json),
    headers: {
      mqttTopic: packet.topic,
      mqttQos: packet.qos,
      mqttRetain: packet.retain,
      mqttDuplicate: packet.dup,
    },
    settlement: {
      key: deliveryKey(packet, config.idProperty),
      onSettled: (outcome, failure) => {
        settle(delivery, outcome, failure);
      },
    },
  };
}

/** Sends the acknowledgement of a QoS 1 (PUBACK) or QoS 2 (PUBREC; PUBCOMP follows) message. */
function sendAck(client: MqttClient, qos: number, messageId: number): void {
  // MQTT.js has no public call for an acknowledgement sent later than its handler's answer; its
  // own handlers send theirs this way.
  const internal = client as unknown as { _sendPacket: (packet: Packet) => void };
  internal._sendPacket({ cmd: qos === 2 ? 'pubrec' : 'puback', messageId });
}

type Settle = (delivery: Delivery, outcome: SettlementOutcome, failure?: SettlementFailure) => void;

/** What a settled message does with the broker's copy. */
function settler(
  config: MqttSubscribeConfig,
  ctx: NodeContext,
  client: MqttClient,
  deliveries: Deliveries,
  resume: () => void,
  redeliver: () => void,
): Settle {
  const ack = (delivery: Delivery, sent: string): void => {
    if (deliveries.acknowledge(delivery, client.connected)) {
      sendAck(client, delivery.packet.qos, delivery.packet.messageId ?? 0);
    }
    ctx.report(MESSAGE_EVENT, sent);
    resume();
  };
  return (delivery, outcome, failure) => {
    if (!deliveries.holds(delivery)) return;
    try {
      settleOne(delivery, outcome, failure);
    } finally {
      resume();
    }
  };
  function settleOne(
    delivery: Delivery,
    outcome: SettlementOutcome,
    failure: SettlementFailure | undefined,
  ): void {
    if (outcome === 'done') {
      ack(delivery, 'acked');
    } else if (outcome === 'cancelled' || (config.onFailure ?? 'redeliver') === 'redeliver') {
      deliveries.release(delivery);
      ctx.report(MESSAGE_EVENT, 'released');
      // A cancelled message is sent again when the node ends and a next run connects.
      if (outcome === 'failed') redeliver();
    } else if (config.onFailure === 'ack') {
      ack(delivery, 'dropped');
    } else {
      const { packet } = delivery;
      const reason = deadLetterReason(failure);
      client
        .publishAsync(config.deadLetterTopic ?? '', packet.payload, {
          qos: 1,
          properties: {
            userProperties: {
              'original-topic': packet.topic,
              'workflow-node': `${ctx.workflowId}/${ctx.nodeId}`,
              'failed-node': reason.failedNode,
              error: reason.error,
              ...packet.properties?.userProperties,
            },
          },
        })
        .then(
          () => {
            ack(delivery, 'dead-lettered');
          },
          (error: unknown) => {
            ctx.log.warn('Dead letter not published; message left for redelivery', {
              error: messageOf(error),
            });
            deliveries.release(delivery);
            ctx.report(MESSAGE_EVENT, 'released');
            resume();
            redeliver();
          },
        );
    }
  }
}
