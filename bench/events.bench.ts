// The 5-node throughput benchmark run through the whole server (results recorded, events
// published), without and then with 10 clients reading `/api/events` over SSE. A slow or
// busy client must not slow the engine: the goal is at least 0.8 of the rate without them.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { createApp } from '../src/app.js';
import type { App } from '../src/app.js';
import { defaultSettings } from '../src/config/index.js';
import { createSilentLoggers } from '../src/observability/index.js';
import { definePlugin, z } from '../src/plugin-api/index.js';
import { pluginEntry } from '../src/plugins/index.js';
import { TEST_BUILD_INFO } from '../test/support/server.js';
import { medianPair } from './harness.js';
import type { Bench, BenchResult } from './harness.js';

const MESSAGES = 200_000;
const CLIENTS = 10;

const source = definePlugin({
  type: 'BENCH_SOURCE',
  kind: 'trigger',
  description: 'emits MESSAGES small messages',
  configSchema: z.looseObject({}),
  outputPorts: () => ['out'],
  create: () => ({
    *run() {
      for (let n = 0; n < MESSAGES; n++) yield { payload: { n } };
    },
  }),
});

const pass = definePlugin({
  type: 'BENCH_PASS',
  kind: 'processor',
  description: 'passes each message on',
  configSchema: z.looseObject({}),
  outputPorts: () => ['out'],
  create: () => ({ process: (message) => ({ payload: message.payload }) }),
});

const count = definePlugin({
  type: 'BENCH_COUNT',
  kind: 'terminal',
  description: 'takes each message as a result',
  configSchema: z.looseObject({}),
  outputPorts: () => [],
  create: () => ({ process: () => undefined }),
});

const nodes = [
  { nodeId: 'source', type: 'BENCH_SOURCE' },
  ...Array.from({ length: 5 }, (_, i) => ({ nodeId: `p${i}`, type: 'BENCH_PASS' })),
  { nodeId: 'sink', type: 'BENCH_COUNT' },
];
const chain = {
  workflowId: 'chain5',
  description: 'five pass-through processors',
  nodes,
  edges: nodes.slice(1).map((node, i) => ({ source: nodes[i]?.nodeId ?? '', target: node.nodeId })),
};

async function runOnce(app: App): Promise<number> {
  const started = process.hrtime.bigint();
  const { executionId } = await app.executions.start({ sessionId: 'bench', workflowId: 'chain5' });
  const entry = app.executions.require(executionId);
  await entry.finished;
  if (entry.status !== 'COMPLETED') throw new Error(`the run ended ${entry.status}`);
  return MESSAGES / (Number(process.hrtime.bigint() - started) / 1e9);
}

/**
 * Clients in a process of their own, as real ones are: each reads the global event stream
 * and throws what it reads away. Resolves once all are connected; `stop` reports the bytes
 * each read on average.
 */
async function subscribe(port: number): Promise<{ stop: () => Promise<number> }> {
  const script = `
    const http = require('node:http');
    let bytes = 0, open = 0;
    for (let i = 0; i < ${CLIENTS}; i++) {
      http.get({ host: '127.0.0.1', port: ${port}, path: '/api/events' }, (response) => {
        response.on('data', (chunk) => { bytes += chunk.length; });
        if (++open === ${CLIENTS}) process.stdout.write('ready\\n');
      });
    }
    process.stdin.on('data', () => { process.stdout.write(String(bytes) + '\\n'); process.exit(0); });
  `;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const next = (): Promise<string> =>
    new Promise((resolve) => {
      lines.once('line', resolve);
    });
  if ((await next()) !== 'ready') throw new Error('the SSE clients did not connect');
  return {
    stop: async () => {
      const answer = next();
      child.stdin.write('stop\n');
      return Number(await answer) / CLIENTS;
    },
  };
}

export const eventsBench: Bench = {
  name: 'events.sse',
  async run(): Promise<BenchResult[]> {
    const settings = { ...defaultSettings('prod'), 'svc.server.port': 0 };
    const app = await createApp({
      settings,
      profile: 'prod',
      buildInfo: TEST_BUILD_INFO,
      loggers: createSilentLoggers(),
      extraPlugins: [pluginEntry(source), pluginEntry(pass), pluginEntry(count)],
    });
    try {
      const { port } = await app.listen();
      await app.sessions.createSession(
        { sessionId: 'bench', name: 'bench', initiator: 'bench', workflows: [chain] },
        'bench',
      );
      await runOnce(app);
      // Each pair: a run alone, then ten clients connect, a run warms them up and one is
      // measured; they leave before the next pair.
      const { alone, watched, read } = await medianPair(
        async () => {
          const alone = await runOnce(app);
          const clients = await subscribe(port);
          await runOnce(app);
          const watched = await runOnce(app);
          await new Promise((resolve) => setTimeout(resolve, 300));
          return { alone, watched, read: await clients.stop() };
        },
        (pair) => pair.watched / pair.alone,
      );
      return [
        { name: 'events.sse.chain5.alone', value: Math.round(alone), unit: 'messages/s' },
        {
          name: 'events.sse.chain5.with-10-clients',
          value: Math.round(watched),
          unit: 'messages/s',
          baseline: Math.round(alone),
          ratio: watched / alone,
          goal: '>= 0.8 of the rate without clients',
        },
        {
          name: 'events.sse.bytes-read',
          value: Math.round(read),
          unit: 'bytes per client over two runs',
        },
      ];
    } finally {
      await app.close();
    }
  },
};
