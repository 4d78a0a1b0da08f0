// An MQTT connection of one node (optional plugin mqtt): the settings every MQTT node takes,
// and an MQTT 5 client that reconnects by itself with a growing pause (0.5 s doubling to 30 s),
// counting each failure, disconnect and reconnect in `svc.plugin.events` (`mqtt.connection`).
import { createHash } from 'node:crypto';
import type { Socket } from 'node:net';
import { connect } from 'mqtt';
import type { IClientOptions, MqttClient } from 'mqtt';
import { messageOf, z } from '../../../plugin-api/index.js';
import type { NodeContext } from '../../../plugin-api/index.js';

/** The `plugin` tag of the MQTT nodes' `svc.plugin.events`. */
export const CONNECTION_EVENT = 'mqtt.connection';
/** The user property that carries a message's id, set by MQTT_PUBLISH and read by MQTT_SUBSCRIBE. */
export const ID_PROPERTY = 'message-id';

const FIRST_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 30_000;

/** Connection keys shared by MQTT_SUBSCRIBE and MQTT_PUBLISH. */
export const mqttConnectionKeys = {
  url: z
    .string()
    .min(1)
    .describe('Broker URL (mqtt://host:1883, mqtts://host:8883); may hold ${env.*} placeholders'),
  username: z.string().min(1).optional().describe('User name; may be a secret (decrypted:name)'),
  password: z
    .string()
    .min(1)
    .optional()
    .describe('Password; best given as a secret (decrypted:name)'),
  clientId: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .describe('Client id; by default one derived from the session, workflow and node'),
  keepaliveSeconds: z
    .number()
    .int()
    .min(0)
    .max(65_535)
    .optional()
    .describe(
      'Keep-alive interval: a ping when nothing else was sent for this long, the connection made again when it goes unanswered (default 60, 0: none)',
    ),
  idProperty: z
    .string()
    .min(1)
    .optional()
    .describe(`User property that carries the message id (default ${ID_PROPERTY})`),
};

export interface MqttConnectionConfig {
  readonly url: string;
  readonly username?: string | undefined;
  readonly password?: string | undefined;
  readonly clientId?: string | undefined;
  readonly keepaliveSeconds?: number | undefined;
}

/**
 * The client id of a node: the configured one, else one derived from where the node is, so a
 * consumer finds its persistent session again after a restart. Ids stay short and plain because
 * brokers may refuse long ones or other characters.
 */
export function clientIdOf(config: MqttConnectionConfig, ctx: NodeContext, role: string): string {
  if (config.clientId !== undefined) return config.clientId;
  const where = `${ctx.sessionId}/${ctx.workflowId}/${ctx.nodeId}`;
  return `svc-${role}-${createHash('sha256').update(where).digest('hex').slice(0, 20)}`;
}

/**
 * A connected MQTT 5 client. The first connection is awaited (given up only when the node is
 * cancelled); afterwards the client reconnects by itself. `options` add to the connection
 * (session, receive maximum, acknowledgement handler); `onConnect` hears of every connection.
 */
export function connectClient(
  config: MqttConnectionConfig,
  ctx: NodeContext,
  options: IClientOptions,
  onConnect?: (sessionPresent: boolean) => void,
): Promise<MqttClient> {
  const client = connect(config.url, {
    protocolVersion: 5,
    ...(config.username === undefined ? {} : { username: config.username }),
    ...(config.password === undefined ? {} : { password: config.password }),
    keepalive: config.keepaliveSeconds ?? 60,
    reconnectPeriod: FIRST_BACKOFF_MS,
    // A refused connection (a broker restarting, credentials not yet in place) is tried again
    // like a lost one rather than ending the node's client for good.
    reconnectOnConnackError: true,
    connectTimeout: 5000,
    ...options,
  });
  // Before any message of the connection is handled: they follow the CONNACK at once.
  if (onConnect !== undefined) {
    client.on('connect', (connack) => {
      onConnect(connack.sessionPresent);
    });
  }
  watchStatus(client, config, ctx);
  return new Promise<MqttClient>((resolve, reject) => {
    const onAbort = (): void => {
      client.end(true);
      reject(ctx.signal.reason instanceof Error ? ctx.signal.reason : new Error('Aborted'));
    };
    if (ctx.signal.aborted) {
      onAbort();
      return;
    }
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    client.once('connect', () => {
      ctx.signal.removeEventListener('abort', onAbort);
      resolve(client);
    });
  });
}

/**
 * Counts and logs the client's connection changes, and grows the pause between reconnection
 * attempts: MQTT.js waits `reconnectPeriod` before each, and reads it anew every time.
 */
function watchStatus(client: MqttClient, config: MqttConnectionConfig, ctx: NodeContext): void {
  let connectedOnce = false;
  client.on('connect', () => {
    noDelay(client);
    client.options.reconnectPeriod = FIRST_BACKOFF_MS;
    if (connectedOnce) {
      ctx.report(CONNECTION_EVENT, 'reconnected');
      ctx.log.info('MQTT connection back', { url: config.url });
    }
    connectedOnce = true;
  });
  client.on('offline', () => {
    ctx.report(CONNECTION_EVENT, connectedOnce ? 'disconnected' : 'failed');
    const retryInMs = client.options.reconnectPeriod ?? FIRST_BACKOFF_MS;
    ctx.log.warn('MQTT broker not reachable; trying again', { url: config.url, retryInMs });
  });
  // 'offline' comes once per outage, 'close' after every failed attempt too; MQTT.js's own
  // handler has already scheduled the next attempt, so the doubled pause is for the one after.
  client.on('close', () => {
    const retryInMs = client.options.reconnectPeriod ?? FIRST_BACKOFF_MS;
    client.options.reconnectPeriod = Math.min(MAX_BACKOFF_MS, retryInMs * 2);
  });
  client.on('error', (error) => {
    if (error === WITHHELD) return;
    ctx.log.warn('MQTT client error', { url: config.url, error: messageOf(error) });
  });
}

/**
 * Turns Nagle's algorithm off on the client's socket: acknowledgements are small packets sent one
 * by one, and held back until the broker's delayed TCP acknowledgement they would pace a
 * consumer at a few dozen messages a second.
 */
export function noDelay(client: MqttClient): void {
  const { stream } = client;
  if ('setNoDelay' in stream && typeof stream.setNoDelay === 'function') {
    (stream as Socket).setNoDelay(true);
  }
}

/**
 * What an acknowledgement handler answers MQTT.js to withhold an acknowledgement. MQTT.js
 * handles incoming packets one at a time, and holding its acknowledgement callback would hold
 * every packet behind it (later messages, ping answers). Answered with an error, the callback
 * moves on to the next packet without sending anything, and emits the error, which the status
 * watch above ignores; the node sends the acknowledgement itself once the message settles.
 */
export const WITHHELD = new Error('MQTT acknowledgement withheld until the message settles');
