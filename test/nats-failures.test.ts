// NATS_SUBSCRIBE's failure actions and its connection (docs/brokers.md), against real NATS
// servers: `term` ends a failed message for good, `nak` hands it back to be delivered again,
// and a consumer whose server went down and came back goes on where it was, losing nothing.
// The last case runs a NATS server of its own (the nats-server binary), so that stopping it
// disturbs no other test; it asks for a password, which the nodes take from a secret. Skipped
// with the reason when no NATS answers and CI is not set.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { JetStreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oddFailing } from './support/brokers.js';
import { freshStream, natsUnavailable, TEST_NATS_URL, testNatsConnection } from './support/nats.js';
import { pluginEvents } from './support/plugin-events.js';
import { startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';
import { eventually } from './support/wait.js';

const unavailable = await natsUnavailable();
const ID = `svcf${process.pid}${Date.now().toString(36)}`;

/** A consumer of `stream` whose odd numbers fail on both attempts and are skipped. */
const picky = (workflowId: string, stream: string, subscribe: Record<string, unknown>) =>
  oddFailing(workflowId, {
    nodeId: 'in',
    type: 'NATS_SUBSCRIBE',
    config: { servers: TEST_NATS_URL, stream, consumer: workflowId, ...subscribe },
  });

/** Saves session `s` with `workflows`. */
async function define(server: TestServer, workflows: unknown[]): Promise<void> {
  const created = await server.call('POST', '/api/sessions', {
    body: { sessionId: 's', name: 's', initiator: 'tests', workflows },
  });
  expect(created.status, created.text).toBe(201);
}

describe.skipIf(unavailable !== undefined)('NATS_SUBSCRIBE failure actions', () => {
  let server: TestServer;
  let nc: NatsConnection;
  let manager: JetStreamManager;

  beforeAll(async () => {
    nc = await testNatsConnection();
    manager = await jetstreamManager(nc);
    await freshStream(manager, `${ID}_term`, [`${ID}.term`]);
    await freshStream(manager, `${ID}_nak`, [`${ID}.nak`]);
    server = await startTestServer();
    await define(server, [
      picky('terminating', `${ID}_term`, { onFailure: 'term' }),
      picky('nakking', `${ID}_nak`, { onFailure: 'nak', nakDelayMs: 50 }),
    ]);
  }, 30_000);

  afterAll(async () => {
    await server.close();
    for (const stream of ['term', 'nak']) {
      await manager.streams.delete(`${ID}_${stream}`).catch(() => undefined);
    }
    await nc.close();
  });

  it('term: a failed message is ended on the broker and never delivered again', async () => {
    const js = jetstream(nc);
    for (let n = 0; n < 10; n++) await js.publish(`${ID}.term`, JSON.stringify({ n }));
    const activated = await server.call('POST', '/api/sessions/s/workflows/terminating/activate');
    expect(activated.status, activated.text).toBe(200);
    const info = await eventually(
      () => manager.consumers.info(`${ID}_term`, 'terminating').catch(() => undefined),
      (state) =>
        state !== undefined &&
        state.delivered.stream_seq === 10 &&
        state.num_ack_pending === 0 &&
        state.num_pending === 0,
      30_000,
    );
    expect(info?.num_redelivered).toBe(0);
    const events = await eventually(
      () => pluginEvents(server, 'nats.message'),
      (counts) => counts.terminated === 5 && counts.acked === 5,
    );
    expect(events.nakked).toBeUndefined();
    await server.call('POST', '/api/sessions/s/workflows/terminating/deactivate');
  }, 60_000);

  it('nak: a failed message goes back to the broker and is delivered again', async () => {
    const js = jetstream(nc);
    const before = (await pluginEvents(server, 'nats.message')).acked ?? 0;
    for (let n = 0; n < 4; n++) await js.publish(`${ID}.nak`, JSON.stringify({ n }));
    const activated = await server.call('POST', '/api/sessions/s/workflows/nakking/activate');
    expect(activated.status, activated.text).toBe(200);
    // 1 and 3 fail on every delivery: each comes back after its nak, again and again.
    const info = await eventually(
      () => manager.consumers.info(`${ID}_nak`, 'nakking').catch(() => undefined),
      (state) => state !== undefined && state.num_redelivered >= 2,
      30_000,
    );
    expect(info?.ack_floor.stream_seq).toBeGreaterThanOrEqual(1);
    const events = await eventually(
      () => pluginEvents(server, 'nats.message'),
      (counts) => (counts.nakked ?? 0) >= 4 && (counts.acked ?? 0) >= before + 2,
    );
    // Only the even ones were acknowledged.
    expect(events.acked).toBe(before + 2);
    const deactivated = await server.call('POST', '/api/sessions/s/workflows/nakking/deactivate');
    expect(deactivated.status, deactivated.text).toBe(200);
    // The run's end hands back at once what it held (no wait for the 30 s ack wait): the next
    // reader of the consumer gets the failing two, and only them.
    const consumer = await jetstream(nc).consumers.get(`${ID}_nak`, 'nakking');
    const left = new Set<number>();
    await eventually(
      async () => {
        const batch = await consumer.fetch({ max_messages: 4, expires: 1000 });
        for await (const message of batch) {
          left.add(message.json<{ n: number }>().n);
          message.nak();
        }
        return left;
      },
      (numbers) => numbers.size === 2,
      10_000,
    );
    expect([...left].sort()).toEqual([1, 3]);
  }, 60_000);
});

/** The user and password of the test's own NATS server. */
const OWN_USER = 'svc';
const OWN_PASSWORD = `pw-${process.pid}`;

/** A NATS server with JetStream of this test's own, on a fixed port and store, with a password. */
class OwnNatsServer {
  #child: ChildProcess | undefined;

  constructor(
    readonly port: number,
    readonly storeDir: string,
  ) {}

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn(
      'nats-server',
      [
        '--jetstream',
        '--store_dir',
        this.storeDir,
        '--addr',
        '127.0.0.1',
        '--port',
        `${this.port}`,
        '--user',
        OWN_USER,
        '--pass',
        OWN_PASSWORD,
      ],
      { stdio: 'ignore' },
    );
    this.#child = child;
    await eventually(
      () =>
        connect({
          servers: this.url,
          user: OWN_USER,
          pass: OWN_PASSWORD,
          timeout: 500,
          reconnect: false,
        }).then(
          (connection) => connection.close().then(() => true),
          () => {
            if (child.exitCode !== null) throw new Error('nats-server ended');
            return false;
          },
        ),
      Boolean,
      15_000,
    );
  }

  async kill(): Promise<void> {
    const child = this.#child;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

const hasNatsServer = await new Promise<boolean>((resolve) => {
  const probe = spawn('nats-server', ['--version'], { stdio: 'ignore' });
  probe.once('error', () => {
    resolve(false);
  });
  probe.once('exit', (code) => {
    resolve(code === 0);
  });
});

describe.skipIf(unavailable !== undefined)('NATS_SUBSCRIBE across a broker restart', () => {
  if (!hasNatsServer && process.env.CI) {
    it('needs the nats-server binary', () => {
      throw new Error('nats-server is not installed; see the README');
    });
  }

  it.skipIf(!hasNatsServer)(
    'reconnects when the server comes back, and goes on without losing a message',
    async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'nats-restart-'));
      const broker = new OwnNatsServer(await freePort(), dir);
      await broker.start();
      let server: TestServer | undefined;
      let nc: NatsConnection | undefined;
      try {
        // The fixture's own connection reconnects too, so it outlives the restart.
        nc = await connect({
          servers: broker.url,
          user: OWN_USER,
          pass: OWN_PASSWORD,
          maxReconnectAttempts: -1,
          reconnectTimeWait: 100,
        });
        const manager = await jetstreamManager(nc);
        await freshStream(manager, 'IN', ['in']);
        await freshStream(manager, 'OUT', ['out']);
        const js = jetstream(nc);
        // The nodes' password is a secret (docs/variables-and-secrets.md).
        server = await startTestServer({ env: { SVC_SECRET_NATS_PASSWORD: OWN_PASSWORD } });
        const credentials = { user: OWN_USER, password: 'decrypted:nats.password' };
        await define(server, [
          {
            workflowId: 'relay',
            nodes: [
              {
                nodeId: 'in',
                type: 'NATS_SUBSCRIBE',
                config: {
                  servers: broker.url,
                  ...credentials,
                  stream: 'IN',
                  consumer: 'relay',
                  ackWaitSeconds: 5,
                },
              },
              { nodeId: 'cut', type: 'MAPPER', config: { expression: '{"n": n}' } },
              {
                nodeId: 'out',
                type: 'NATS_PUBLISH',
                // A publish while the server is away times out: retried, as users would.
                config: {
                  servers: broker.url,
                  ...credentials,
                  subject: 'out',
                  engine: { retry: { maxAttempts: 10, backoffMs: 500 } },
                },
              },
            ],
            edges: [
              { source: 'in', target: 'cut' },
              { source: 'cut', target: 'out' },
            ],
          },
        ]);
        for (let n = 0; n < 50; n++) await js.publish('in', JSON.stringify({ n }));
        const activated = await server.call('POST', '/api/sessions/s/workflows/relay/activate');
        expect(activated.status, activated.text).toBe(200);
        const outCount = async (): Promise<number> =>
          (await manager.streams.info('OUT')).state.messages;
        await eventually(outCount, (count) => count === 50, 30_000);

        await broker.kill();
        await eventually(
          () => pluginEvents(server!, 'nats.connection'),
          (counts) => (counts.disconnected ?? 0) >= 1,
          15_000,
        );
        await broker.start();
        await eventually(
          () => pluginEvents(server!, 'nats.connection'),
          (counts) => (counts.reconnected ?? 0) >= 1,
          30_000,
        );
        for (let n = 50; n < 100; n++) await js.publish('in', JSON.stringify({ n }));
        await eventually(outCount, (count) => count === 100, 60_000);
        const info = await eventually(
          () => manager.consumers.info('IN', 'relay'),
          (state) => state.num_ack_pending === 0 && state.num_pending === 0,
          30_000,
        );
        expect(info.delivered.stream_seq).toBe(100);
        // One run all along: the consumer did not fail and start over.
        const runs = await server.call('GET', '/api/executions?sessionId=s&workflowId=relay');
        expect(runs.status, runs.text).toBe(200);
        expect(runs.json.data.items, runs.text).toHaveLength(1);

        // With its server down again, the consumer still ends at once when told to.
        await broker.kill();
        await eventually(
          () => pluginEvents(server!, 'nats.connection'),
          (counts) => (counts.disconnected ?? 0) >= 2,
          15_000,
        );
        const deactivated = await server.call('POST', '/api/sessions/s/workflows/relay/deactivate');
        expect(deactivated.status, deactivated.text).toBe(200);
        await eventually(
          () => server!.call('GET', '/api/executions?sessionId=s&workflowId=relay'),
          (answer) =>
            answer.json.data.items.every(
              (item: { status: string }) => !['QUEUED', 'RUNNING', 'PAUSED'].includes(item.status),
            ),
          10_000,
        );
      } finally {
        await server?.close();
        await nc?.close().catch(() => undefined);
        await broker.kill();
        await rm(dir, { recursive: true, force: true });
      }
    },
    180_000,
  );
});

describe.skipIf(unavailable === undefined)('NATS_SUBSCRIBE failure actions', () => {
  it.skip(`needs NATS: ${unavailable ?? ''}`, () => undefined);
});
