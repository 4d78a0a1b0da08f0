// Messages per second from NATS through a 3-node workflow back to NATS: NATS_SUBSCRIBE (a
// JetStream pull consumer, each message acknowledged when it is done) -> a pass-through
// processor -> NATS_PUBLISH (JetStream, awaited), against the nats client's own rate for the
// same work in the same run: consume, publish and await, acknowledge. Needs a NATS server with
// JetStream at SVC_TEST_NATS_URL (nats://127.0.0.1:4222); without one it reports nothing.
import { AckPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { JetStreamClient, JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { prepareWorkflow } from '../src/engine/index.js';
import { createTestCatalog } from '../src/engine/testing/index.js';
import type { NodeRuntime, NodeSetup } from '../src/plugin-api/index.js';
import { natsPublishPlugin } from '../src/plugins/builtin/nats/nats-publish.js';
import { natsSubscribePlugin } from '../src/plugins/builtin/nats/nats-subscribe.js';
import {
  freshStream,
  natsUnavailable,
  TEST_NATS_URL,
  testNatsConnection,
} from '../test/support/nats.js';
import { bareRun } from './harness.js';
import type { Bench, BenchResult } from './harness.js';

const MESSAGES = Number(process.env.BENCH_NATS_MESSAGES ?? 20_000);
const ID = `bench${process.pid}`;
const SETUP = { nodeId: 'bench', settings: undefined } as unknown as NodeSetup & {
  settings: undefined;
};

/** Fills stream `name` with MESSAGES small JSON messages. */
async function fill(js: JetStreamClient, subject: string): Promise<void> {
  for (let from = 0; from < MESSAGES; from += 1000) {
    const batch = [];
    for (let n = from; n < from + 1000; n++) batch.push(js.publish(subject, `{"n":${n}}`));
    await Promise.all(batch);
  }
}

async function waitForStored(manager: JetStreamManager, stream: string): Promise<void> {
  while ((await manager.streams.info(stream)).state.messages < MESSAGES) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** An input stream filled with MESSAGES messages and an empty output stream, for one side. */
async function streams(manager: JetStreamManager, nc: NatsConnection, side: string) {
  const pair = {
    input: `${ID}_${side}in`,
    output: `${ID}_${side}out`,
    outSubject: `${ID}.${side}out`,
  };
  await freshStream(manager, pair.input, [`${ID}.${side}in`]);
  await freshStream(manager, pair.output, [pair.outSubject]);
  await fill(jetstream(nc), `${ID}.${side}in`);
  return pair;
}

/** The client alone: consume, publish and await its acknowledgement, acknowledge. */
async function clientRate(
  nc: NatsConnection,
  manager: JetStreamManager,
  round: number,
): Promise<number> {
  const { input, output, outSubject } = await streams(manager, nc, `c${round}`);
  const js = jetstream(nc);
  await manager.consumers.add(input, { durable_name: 'c', ack_policy: AckPolicy.Explicit });
  const start = process.hrtime.bigint();
  const messages = await (await js.consumers.get(input, 'c')).consume();
  let done = 0;
  for await (const message of messages) {
    await js.publish(outSubject, message.data, { msgID: `m${message.seq}` });
    message.ack();
    if (++done === MESSAGES) break;
  }
  await messages.close();
  await waitForStored(manager, output);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  await manager.streams.delete(input);
  await manager.streams.delete(output);
  return MESSAGES / seconds;
}

/** The engine: the same work as a workflow run with the nats plugins. */
async function engineRate(
  nc: NatsConnection,
  manager: JetStreamManager,
  round: number,
): Promise<number> {
  const { input, output, outSubject } = await streams(manager, nc, `e${round}`);
  const subscribe = natsSubscribePlugin.configSchema.parse({
    servers: TEST_NATS_URL,
    stream: input,
    consumer: 'e',
  });
  const publish = natsPublishPlugin.configSchema.parse({
    servers: TEST_NATS_URL,
    subject: outSubject,
  });
  const catalog = createTestCatalog({
    IN: {
      kind: 'trigger',
      runtime: (): NodeRuntime => natsSubscribePlugin.create!(subscribe, SETUP),
    },
    PASS: {
      kind: 'processor',
      runtime: (): NodeRuntime => ({ process: (m) => ({ payload: m.payload }) }),
    },
    OUT: {
      kind: 'processor',
      runtime: (): NodeRuntime => natsPublishPlugin.create!(publish, SETUP),
    },
  });
  const plan = prepareWorkflow(
    {
      workflowId: 'relay',
      description: '',
      nodes: [
        { nodeId: 'in', type: 'IN' },
        { nodeId: 'pass', type: 'PASS' },
        { nodeId: 'out', type: 'OUT' },
      ],
      edges: [
        { source: 'in', target: 'pass' },
        { source: 'pass', target: 'out' },
      ],
    },
    catalog,
    { workers: false },
  );
  const run = bareRun(plan, `bench-${round}`);
  const start = process.hrtime.bigint();
  run.start();
  await waitForStored(manager, output);
  // Every input acknowledged: the consumer has nothing pending.
  for (;;) {
    const info = await manager.consumers.info(input, 'e');
    if (info.num_ack_pending === 0 && info.num_pending === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  run.stop();
  await run.done;
  await manager.streams.delete(input);
  await manager.streams.delete(output);
  return MESSAGES / seconds;
}

export const natsRelayBench: Bench = {
  name: 'nats.relay',
  async run(): Promise<BenchResult[]> {
    const unavailable = await natsUnavailable(undefined);
    if (unavailable !== undefined) {
      process.stderr.write(`nats.relay skipped: ${unavailable}\n`);
      return [];
    }
    const nc = await testNatsConnection();
    try {
      const manager = await jetstreamManager(nc);
      // Warm both up, then measure them back to back.
      await clientRate(nc, manager, 0);
      await engineRate(nc, manager, 0);
      const raw = await clientRate(nc, manager, 1);
      const measured = await engineRate(nc, manager, 1);
      return [
        {
          name: 'nats.relay3.throughput',
          value: Math.round(measured),
          unit: 'messages/s',
          baseline: Math.round(raw),
          ratio: Math.round((measured / raw) * 1000) / 1000,
          goal: 'acknowledged end to end; >= 0.5 of the client alone',
        },
      ];
    } finally {
      await nc.close();
    }
  },
};
