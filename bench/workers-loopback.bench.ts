// Throughput of a node placed on a remote worker: messages through one pass-through processor
// that runs on a worker connected over gRPC on loopback (its own Connect call, credits, one
// round trip per message), against the same node in-process, in the same run.
import { systemClock } from '../src/core/index.js';
import { prepareWorkflow } from '../src/engine/index.js';
import type { NodePlacement, PluginCatalog } from '../src/engine/index.js';
import { createTestCatalog } from '../src/engine/testing/index.js';
import {
  ControlPlaneServer,
  WorkerClient,
  WorkerHost,
  WorkerRegistry,
} from '../src/workers/index.js';
import { bareRun } from './harness.js';
import type { Bench, BenchResult } from './harness.js';

const MESSAGES = 10_000;
const TOKEN = 'bench-token';
const silent = {
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

function catalog(count: () => void): PluginCatalog {
  return createTestCatalog({
    SOURCE: {
      kind: 'trigger',
      runtime: () => ({
        *run() {
          for (let i = 0; i < MESSAGES; i++) yield { payload: { n: i, text: `message ${i}` } };
        },
      }),
    },
    PASS: {
      kind: 'processor',
      runtime: () => ({ process: (message) => ({ payload: message.payload }) }),
    },
    COUNT: {
      kind: 'terminal',
      runtime: () => ({
        process: () => {
          count();
          return undefined;
        },
      }),
    },
  });
}

/** Messages per second through SOURCE -> PASS -> COUNT, PASS placed when `placement` is set. */
async function throughput(placement: NodePlacement | undefined, id: string): Promise<number> {
  let received = 0;
  const plan = prepareWorkflow(
    {
      workflowId: 'placed',
      description: '',
      nodes: [
        { nodeId: 'source', type: 'SOURCE' },
        {
          nodeId: 'pass',
          type: 'PASS',
          config: placement === undefined ? {} : { engine: { placement: 'bench' } },
        },
        { nodeId: 'sink', type: 'COUNT' },
      ],
      edges: [
        { source: 'source', target: 'pass' },
        { source: 'pass', target: 'sink' },
      ],
    },
    catalog(() => received++),
    { workers: true },
  );
  const run = bareRun(plan, id, placement);
  const start = process.hrtime.bigint();
  run.start();
  const outcome = await run.done;
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (outcome.status !== 'COMPLETED' || received !== MESSAGES) {
    throw new Error(`run ${id} ended ${outcome.status} with ${received} messages`);
  }
  return MESSAGES / seconds;
}

export const workersLoopbackBench: Bench = {
  name: 'workers.loopback',
  async run(): Promise<BenchResult[]> {
    const registry = new WorkerRegistry({ clock: systemClock });
    const server = new ControlPlaneServer({
      registry,
      token: TOKEN,
      address: '127.0.0.1',
      port: 0,
      heartbeatMs: 10_000,
      isLeader: () => true,
      logger: silent,
    });
    const { port } = await server.listen();
    const client = new WorkerClient({
      host: '127.0.0.1',
      port,
      token: TOKEN,
      name: 'bench',
      pool: 'bench',
      slots: 4,
      pluginTypes: ['PASS'],
      maxInFlight: 16,
      heartbeatMs: 10_000,
      runtimes: new WorkerHost({
        catalog: catalog(() => undefined),
        pluginTypes: new Set(['PASS']),
        resolveConfig: (config) => ({ ok: true, config }),
        logger: silent,
      }),
      logger: silent,
    });
    client.start();
    try {
      await client.connected;
      // Warm both up, then measure them back to back so they share the machine's state.
      await throughput(undefined, 'warm-local');
      await throughput(registry, 'warm-remote');
      const local = await throughput(undefined, 'local');
      const remote = await throughput(registry, 'remote');
      return [
        {
          name: 'workers.loopback.throughput',
          value: Math.round(remote),
          unit: 'messages/s',
          baseline: Math.round(local),
          ratio: remote / local,
          goal: '>= 2,000/s through a placed node',
        },
      ];
    } finally {
      await client.close();
      await server.close();
    }
  },
};
