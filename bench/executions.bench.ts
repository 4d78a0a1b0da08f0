// Executions through the service layer: how many short runs complete per second, and how
// much memory a run parked in a DELAY node holds.
import { getHeapSpaceStatistics } from 'node:v8';
import { createApp } from '../src/app.js';
import type { App } from '../src/app.js';
import { defaultSettings } from '../src/config/index.js';
import { createSilentLoggers } from '../src/observability/index.js';
import { TEST_BUILD_INFO } from '../test/support/server.js';
import { median } from './harness.js';
import type { Bench, BenchResult } from './harness.js';

/** Parked runs measured, after 3,000 to fill the fixed-size buffers. */
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

/** Runs timed in each round of short runs. */
const ROUND_RUNS = 10_000;
/** Rounds run before the timed ones: V8 still optimises the run's code during the first two. */
const WARM_UP_ROUNDS = 2;
/** Rounds timed after the warm-up; the median is reported. */
const TIMED_ROUNDS = 3;

/**
 * Short runs, each started through the service layer as a caller would: how many complete per
 * second. Two figures: the first round after 1,000 runs (what the benchmark measured before,
 * while V8 still compiles the run's code: about 700 optimisations in that round on Node 24), and
 * the median of three rounds once two have warmed the process up (a server's pace; under 20
 * optimisations and no deoptimisation left by then).
 */
async function shortRuns(): Promise<BenchResult[]> {
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
    const round = async (count: number): Promise<number> => {
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
    await round(1000);
    const first = await round(ROUND_RUNS);
    for (let i = 1; i < WARM_UP_ROUNDS; i++) await round(ROUND_RUNS);
    const timed: number[] = [];
    for (let i = 0; i < TIMED_ROUNDS; i++) timed.push(await round(ROUND_RUNS));
    return [
      {
        name: 'executions.short.rate',
        value: Math.round(median(timed)),
        unit: `executions/s (median of ${TIMED_ROUNDS} rounds of ${ROUND_RUNS.toLocaleString('en')} after ${WARM_UP_ROUNDS} to warm up)`,
        goal: '>= 5,000/s',
      },
      {
        name: 'executions.short.first-round',
        value: Math.round(first),
        unit: `executions/s (the first ${ROUND_RUNS.toLocaleString('en')} runs, after 1,000)`,
      },
    ];
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
    return [...(await shortRuns()), ...parkedResults, await admission()];
  },
};
