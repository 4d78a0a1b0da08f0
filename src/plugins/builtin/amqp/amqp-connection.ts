// An AMQP 0-9-1 connection of one node (optional plugin amqp, RabbitMQ): the settings every
// AMQP node takes, and a client that reconnects by itself with exponential backoff (0.5 s
// doubling to 30 s) and counts each connect, failure and block in `svc.plugin.events`
// (`amqp.connection`).
import { Connection } from 'rabbitmq-client';
import { messageOf, z } from '../../../plugin-api/index.js';
import type { NodeContext } from '../../../plugin-api/index.js';

/** The `plugin` tag of the AMQP nodes' `svc.plugin.events` for the connection. */
export const CONNECTION_EVENT = 'amqp.connection';

/** The client's backoff: the first pause and the longest, in milliseconds. */
export const RETRY_LOW_MS = 500;
export const RETRY_HIGH_MS = 30_000;

/** Connection keys shared by AMQP_CONSUME and AMQP_PUBLISH. */
export const amqpConnectionKeys = {
  url: z
    .string()
    .min(1)
    .describe(
      'Broker URL (amqp://host:5672/vhost, amqps:// for TLS); may hold ${env.*} placeholders',
    ),
  username: z
    .string()
    .min(1)
    .optional()
    .describe('User name, instead of one in the URL; may be a secret (decrypted:name)'),
  password: z
    .string()
    .min(1)
    .optional()
    .describe('Password, instead of one in the URL; best given as a secret (decrypted:name)'),
};

export interface AmqpConnectionConfig {
  readonly url: string;
  readonly username?: string | undefined;
  readonly password?: string | undefined;
}

/**
 * The URL with `username` and `password` in it: the client takes the credentials of a URL over
 * its own options, and a URL without them as the empty user, so the keys must go into the URL.
 */
export function urlWithCredentials(config: AmqpConnectionConfig): string {
  if (config.username === undefined && config.password === undefined) return config.url;
  const url = new URL(config.url);
  if (config.username !== undefined) url.username = encodeURIComponent(config.username);
  if (config.password !== undefined) url.password = encodeURIComponent(config.password);
  return url.toString();
}

/**
 * A connection that is made in the background and made again whenever it is lost; channels
 * asked of it wait for it. The caller closes it.
 */
export function openConnection(config: AmqpConnectionConfig, ctx: NodeContext): Connection {
  const connection = new Connection({
    url: urlWithCredentials(config),
    connectionName: `workflow-service ${ctx.sessionId}/${ctx.workflowId}/${ctx.nodeId}`,
    retryLow: RETRY_LOW_MS,
    retryHigh: RETRY_HIGH_MS,
    connectionTimeout: 5000,
  });
  let connected = false;
  connection.on('connection', () => {
    ctx.report(CONNECTION_EVENT, connected ? 'reconnected' : 'connected');
    if (connected) ctx.log.info('AMQP connection back');
    connected = true;
  });
  // The client emits an error for each failed attempt and each lost connection, and then
  // tries again by itself; the URL stays out of the log, as it may hold a password.
  connection.on('error', (error: unknown) => {
    ctx.report(CONNECTION_EVENT, 'failed');
    ctx.log.warn('AMQP connection failed; trying again', { error: messageOf(error) });
  });
  connection.on('connection.blocked', (reason: string) => {
    ctx.report(CONNECTION_EVENT, 'blocked');
    ctx.log.warn('AMQP broker blocks publishing', { reason });
  });
  return connection;
}
