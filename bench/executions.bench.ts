// Executions through the service layer: how many short runs complete per second, and how
// much memory a run parked in a DELAY node holds.
import { getHeapSpaceStatistics } from 'node:v8';
import { createApp } from '../src/app.js';
import type { App } from '../src/app.js';
import { defaultSettings } from '../src/config/index.js';
import { createSilentLoggers } from '../src/observability/index.js';
import { TEST_BUILD_INFO } from '../test/support/server.js';
import type { Bench, BenchResult } from './harness.js';

const RUNS = 10_000;

async function appWith(workflow: unknown): Promise<App> {
  const settings = { ...defaultSettings('prod'), 'svc.server.port': 0 };
  const app = await createApp({
    settings,
    profile: 'prod',
    buildInfo: TEST_BUILD_INFO,
    loggers: createSilentLoggers(),
  });
  await app.sessions.createSession(
    { sessionId: 'bench', name: 'bench', initiator: 'bench', workflows: [workflow as never] },
    'bench',
  );
  return app;
}

/**
 * Bytes of memory the young generation (V8's new space) holds. It grows with allocation up to
 * a fixed maximum (16 MB on Node 20, 64 MB on Node 24 on this machine) and keeps its pages after
 * a collection: a cost of the process, not of each run.
 */
function youngGenerationBytes(): number {
  return getHeapSpaceStatistics()
    .filter((space) => space.space_name === 'new_space')
    .reduce((sum, space) => sum + space.physical_space_size, 0);
}

function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

async function shortRuns(): Promise<BenchResult> {
  const app = await appWith({
    workflowId: 'short',
    description: 'trigger, mapper, terminal',
    nodes: [
      { nodeId: 'in', type: 'MANUAL' },
      { nodeId: 'map', type: 'MAPPER', config: { expression: '{"ok": true}' } },
      { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
    ],
    edges: [
      { source: 'in', target: 'map' },
      { source: 'map', target: 'out' },
    ],
  });
  try {
    const once = async (count: number): Promise<number> => {
      const started = process.hrtime.bigint();
      const finished: Promise<void>[] = [];
      for (let i = 0; i < count; i++) {
        const { executionId } = await app.executions.start({
          sessionId: 'bench',
          workflowId: 'short',
        });
        finished.push(app.executions.require(executionId).finished);
      }
      await Promise.all(finished);
      return count / (Number(process.hrtime.bigint() - started) / 1e9);
    };
    await once(1000);
    const rate = await once(RUNS);
    return {
      name: 'executions.short.rate',
      value: Math.round(rate),
      unit: 'executions/s',
      goal: '>= 5,000/s',
    };
  } finally {
    await app.close();
  }
}

async function parked(): Promise<BenchResult[]> {
  const app = await appWith({
    workflowId: 'parked',
    description: 'waits an hour',
    nodes: [
      { nodeId: 'in', type: 'MANUAL' },
      { nodeId: 'wait', type: 'DELAY', config: { delayMs: 3_600_000 } },
      { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
    ],
    edges: [
      { source: 'in', target: 'wait' },
      { source: 'wait', target: 'out' },
    ],
  });
  try {
    // Warm up code paths, and fill the fixed-size buffers (the event history keeps the newest
    // 10,000 events, about 4 per parked run), so that the measure is what each run adds.
    for (let i = 0; i < 3000; i++)
      await app.executions.start({ sessionId: 'bench', workflowId: 'parked' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    collectGarbage();
    collectGarbage();
    const before = process.memoryUsage();
    const youngBefore = youngGenerationBytes();
    for (let i = 0; i < RUNS; i++)
      await app.executions.start({ sessionId: 'bench', workflowId: 'parked' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    collectGarbage();
    collectGarbage();
    const after = process.memoryUsage();
    const youngGrowth = youngGenerationBytes() - youngBefore;
    return [
      {
        name: 'executions.parked.bytes',
        value: Math.round((after.rss - before.rss - youngGrowth) / RUNS),
        unit: 'bytes/execution (RSS less the young generation)',
        goal: '< 10 KB',
      },
      {
        name: 'executions.parked.young-generation',
        value: Math.round(youngGrowth / 100_000) / 10,
        unit: 'MB the young generation grew during the runs',
      },
      {
        name: 'executions.parked.heap-bytes',
        value: Math.round((after.heapUsed - before.heapUsed) / RUNS),
        unit: 'bytes/execution (JS heap)',
      },
    ];
  } finally {
    await app.close();
  }
}

/**
 * Admission overhead: 10,000 starts of a short workflow with max-concurrent=4 and a queue
 * (so nearly all wait), against the same starts with no limits, per start.
 */
async function admission(): Promise<BenchResult> {
  const workflow = {
    workflowId: 'short',
    description: 'trigger, terminal',
    nodes: [
      { nodeId: 'in', type: 'MANUAL' },
      { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
    ],
    edges: [{ source: 'in', target: 'out' }],
  };
  const measure = async (limited: boolean): Promise<number> => {
    const app = await appWith(workflow);
    try {
      if (limited) {
        app.executions.setLimits({ maxConcurrent: 4, onLimit: 'QUEUE', queueCapacity: RUNS });
      }
      const started = process.hrtime.bigint();
      // All starts at once: with the limit nearly all of them wait in the queue together.
      const answers = await Promise.all(
        Array.from({ length: RUNS }, () =>
          app.executions.start({ sessionId: 'bench', workflowId: 'short' }),
        ),
      );
      const finished = answers.map(
        ({ executionId }) => app.executions.require(executionId).finished,
      );
      await Promise.all(finished);
      return Number(process.hrtime.bigint() - started) / 1e3 / RUNS;
    } finally {
      await app.close();
    }
  };
  await measure(false);
  const free = await measure(false);
  const queued = await measure(true);
  return {
    name: 'executions.admission.queue-overhead',
    value: Math.max(0, queued - free),
    unit: 'microseconds/start',
    baseline: free,
    ratio: queued / free,
    goal: '< 50 microseconds per start',
  };
}

export const executionsBench: Bench = {
  name: 'executions',
  async run(): Promise<BenchResult[]> {
    // Parked runs first, on a fresh heap: after the short runs the heap has already grown,
    // and new runs would fit in it without any RSS growth, hiding their cost.
    const parkedResults = await parked();
    return [await shortRuns(), ...parkedResults, await admission()];
  },
};
