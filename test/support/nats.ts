// The NATS server with JetStream the broker tests use: SVC_TEST_NATS_URL, by default
// nats://127.0.0.1:4222. As with the databases, when no server answers the tests that need one
// are skipped with the reason, unless CI is set: then they fail.
import { jetstream, jetstreamManager, StorageType } from '@nats-io/jetstream';
import type { JetStreamManager, JsMsg } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/transport-node';

export const TEST_NATS_URL = process.env.SVC_TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

/** A connection for test fixtures; the caller drains it. */
export function testNatsConnection(): Promise<NatsConnection> {
  return connect({ servers: TEST_NATS_URL, timeout: 3000 });
}

/** Why NATS tests cannot run here, or undefined when a JetStream server answers. */
export async function natsUnavailable(
  ci: string | undefined = process.env.CI,
): Promise<string | undefined> {
  let connection: NatsConnection | undefined;
  try {
    connection = await testNatsConnection();
    await (await jetstreamManager(connection)).getAccountInfo();
    return undefined;
  } catch (error) {
    const reason = `no NATS server with JetStream answers at SVC_TEST_NATS_URL (${error instanceof Error ? error.message : String(error)}); start one, see the README`;
    if (ci !== undefined && ci !== '') throw new Error(reason, { cause: error });
    return reason;
  } finally {
    await connection?.close().catch(() => undefined);
  }
}

/** Makes a file stream of `subjects` named `name`, replacing one left by an earlier run. */
export async function freshStream(
  manager: JetStreamManager,
  name: string,
  subjects: string[],
): Promise<void> {
  await manager.streams.delete(name).catch(() => undefined);
  await manager.streams.add({ name, subjects, storage: StorageType.File });
}

/** Every message of a stream, from its first, each acknowledged by nobody (an ordered read). */
export async function readStream(connection: NatsConnection, stream: string): Promise<JsMsg[]> {
  const manager = await jetstreamManager(connection);
  const total = (await manager.streams.info(stream)).state.messages;
  const consumer = await jetstream(connection).consumers.get(stream);
  const messages: JsMsg[] = [];
  if (total === 0) return messages;
  const iterator = await consumer.consume();
  for await (const message of iterator) {
    messages.push(message);
    if (messages.length >= total) break;
  }
  await iterator.close();
  return messages;
}
