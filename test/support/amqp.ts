// The RabbitMQ broker the AMQP tests use: SVC_TEST_AMQP_URL, by default
// amqp://guest:guest@127.0.0.1:5672. As with NATS, when no broker answers the tests that need
// one are skipped with the reason, unless CI is set: then they fail.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Connection } from 'rabbitmq-client';
import type { SyncMessage } from 'rabbitmq-client';

export const TEST_AMQP_URL = process.env.SVC_TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
/** The management API, when the broker has the plugin; counts are read with rabbitmqctl else. */
const MANAGEMENT_URL = process.env.SVC_TEST_AMQP_MANAGEMENT_URL ?? 'http://127.0.0.1:15672';

/** A connection for test fixtures that gives up instead of retrying; the caller closes it. */
export function testAmqpConnection(): Connection {
  return new Connection({
    url: TEST_AMQP_URL,
    connectionTimeout: 3000,
    retryLow: 200,
    retryHigh: 1000,
  });
}

/** Why AMQP tests cannot run here, or undefined when a broker answers. */
export async function amqpUnavailable(
  ci: string | undefined = process.env.CI,
): Promise<string | undefined> {
  const connection = new Connection({
    url: TEST_AMQP_URL,
    connectionTimeout: 3000,
    acquireTimeout: 4000,
  });
  // Each failed attempt is an error event; the answer below says why.
  connection.on('error', () => undefined);
  try {
    await connection.onConnect(4000, true);
    return undefined;
  } catch (error) {
    const reason = `no AMQP broker answers at SVC_TEST_AMQP_URL (${error instanceof Error ? error.message : String(error)}); start RabbitMQ, see the README`;
    if (ci !== undefined && ci !== '') throw new Error(reason, { cause: error });
    return reason;
  } finally {
    await connection.close().catch(() => undefined);
  }
}

/** Ready messages and consumers of a queue, from a passive declare. */
export async function readyCount(connection: Connection, queue: string): Promise<number> {
  const ok = await connection.queueDeclare({ queue, passive: true });
  return ok.messageCount;
}

export interface QueueCounts {
  readonly ready: number;
  readonly unacknowledged: number;
}

/**
 * The broker's own ready and unacknowledged counts of a queue (AMQP itself tells only the
 * ready one): from the management API, else from rabbitmqctl on this host. Slow (rabbitmqctl
 * starts a runtime): for a few samples, not for polling.
 */
export async function queueCounts(queue: string): Promise<QueueCounts> {
  const url = new URL(TEST_AMQP_URL);
  const user = decodeURIComponent(url.username || 'guest');
  const password = decodeURIComponent(url.password || 'guest');
  const vhost = encodeURIComponent(decodeURIComponent(url.pathname.slice(1)) || '/');
  try {
    const answer = await fetch(
      `${MANAGEMENT_URL}/api/queues/${vhost}/${encodeURIComponent(queue)}`,
      {
        headers: {
          authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
        },
        signal: AbortSignal.timeout(3000),
      },
    );
    if (answer.ok) {
      const body = (await answer.json()) as {
        messages_ready: number;
        messages_unacknowledged: number;
      };
      return { ready: body.messages_ready, unacknowledged: body.messages_unacknowledged };
    }
  } catch {
    // No management API: rabbitmqctl below.
  }
  const { stdout } = await promisify(execFile)(
    'rabbitmqctl',
    [
      'list_queues',
      '-q',
      '--no-table-headers',
      'name',
      'messages_ready',
      'messages_unacknowledged',
    ],
    { timeout: 30_000 },
  );
  for (const line of stdout.split('\n')) {
    const [name, ready, unacknowledged] = line.trim().split(/\s+/);
    if (name === queue) return { ready: Number(ready), unacknowledged: Number(unacknowledged) };
  }
  throw new Error(`rabbitmqctl does not list queue ${queue}`);
}

/** Takes every message ready in a queue, acknowledging each: for reading what a test produced. */
export async function drain(connection: Connection, queue: string): Promise<SyncMessage[]> {
  const messages: SyncMessage[] = [];
  for (;;) {
    const message = await connection.basicGet({ queue, noAck: true });
    if (message === undefined) return messages;
    messages.push(message);
  }
}

/** Publishes each body to `queue` (persistent, confirmed), in batches of 500 under way. */
export async function publishAll(
  connection: Connection,
  queue: string,
  bodies: Iterable<unknown>,
): Promise<void> {
  const publisher = connection.createPublisher({ confirm: true });
  let batch: Promise<void>[] = [];
  for (const body of bodies) {
    batch.push(publisher.send({ routingKey: queue, durable: true }, body));
    if (batch.length === 500) {
      await Promise.all(batch);
      batch = [];
    }
  }
  await Promise.all(batch);
  await publisher.close();
}
