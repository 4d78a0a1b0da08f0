// A NATS connection of one node (optional plugin nats): the settings every NATS node takes,
// and a connection made with backoff while the server does not answer. Once connected, the
// client reconnects by itself, without limit, and the node counts each disconnect and
// reconnect in `svc.plugin.events` (`nats.connection`).
import { connect } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/transport-node';
import { messageOf, z } from '../../../plugin-api/index.js';
import type { NodeContext } from '../../../plugin-api/index.js';

/** The `plugin` tag of the NATS nodes' `svc.plugin.events`. */
export const CONNECTION_EVENT = 'nats.connection';

const FIRST_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 30_000;

/** Connections whose server is gone until they reconnect: a drain would wait for that. */
const disconnected = new WeakSet<NatsConnection>();

/** Connection keys shared by NATS_SUBSCRIBE and NATS_PUBLISH. */
export const natsConnectionKeys = {
  servers: z
    .string()
    .min(1)
    .describe(
      'NATS server URLs, comma separated (nats://host:4222); may hold ${env.*} placeholders',
    ),
  user: z.string().min(1).optional().describe('User name; may be a secret (decrypted:name)'),
  password: z
    .string()
    .min(1)
    .optional()
    .describe('Password; best given as a secret (decrypted:name)'),
  token: z.string().min(1).optional().describe('Authentication token; best given as a secret'),
};

export interface NatsConnectionConfig {
  readonly servers: string;
  readonly user?: string | undefined;
  readonly password?: string | undefined;
  readonly token?: string | undefined;
}

/** One attempt to connect, the client set to reconnect without limit afterwards. */
export function connectOnce(
  config: NatsConnectionConfig,
  ctx: NodeContext,
): Promise<NatsConnection> {
  return connect({
    servers: config.servers.split(',').map((server) => server.trim()),
    ...(config.user === undefined ? {} : { user: config.user }),
    ...(config.password === undefined ? {} : { pass: config.password }),
    ...(config.token === undefined ? {} : { token: config.token }),
    name: `workflow-service ${ctx.sessionId}/${ctx.workflowId}/${ctx.nodeId}`,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 1000,
    reconnectJitter: 500,
    timeout: 5000,
  }).then((connection) => {
    void watchStatus(connection, ctx);
    return connection;
  });
}

/** Connects, waiting with a growing pause (up to 30 s) while the server does not answer. */
export async function connectWithBackoff(
  config: NatsConnectionConfig,
  ctx: NodeContext,
): Promise<NatsConnection> {
  let pause = FIRST_BACKOFF_MS;
  for (;;) {
    try {
      return await connectOnce(config, ctx);
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      ctx.report(CONNECTION_EVENT, 'failed');
      ctx.log.warn('NATS connection failed; trying again', {
        servers: config.servers,
        error: messageOf(error),
        retryInMs: pause,
      });
      await ctx.sleep(pause);
      pause = Math.min(MAX_BACKOFF_MS, pause * 2);
    }
  }
}

async function watchStatus(connection: NatsConnection, ctx: NodeContext): Promise<void> {
  for await (const status of connection.status()) {
    if (status.type === 'disconnect') {
      disconnected.add(connection);
      ctx.report(CONNECTION_EVENT, 'disconnected');
      ctx.log.warn('NATS connection lost; reconnecting', { server: status.server });
    } else if (status.type === 'reconnect') {
      disconnected.delete(connection);
      ctx.report(CONNECTION_EVENT, 'reconnected');
      ctx.log.info('NATS connection back', { server: status.server });
    }
  }
}

/**
 * Drains a connection (what was sent is flushed first), or closes it at once while its server
 * is gone, or after `waitMs` if the drain does not end: a node that ends must not wait for a
 * server to come back.
 */
export async function closeConnection(connection: NatsConnection, waitMs = 10_000): Promise<void> {
  if (!disconnected.has(connection)) {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(resolve, waitMs, 'late');
    });
    const drained = await Promise.race([
      connection.drain().then(
        () => 'drained' as const,
        () => 'failed' as const,
      ),
      late,
    ]);
    clearTimeout(timer);
    if (drained === 'drained') return;
  }
  await connection.close().catch(() => undefined);
}
