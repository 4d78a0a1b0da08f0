// Fan-out: one source to 3 children consuming at different speeds. The source must move at
// the slowest child's pace, so memory stays flat however far the fastest child could run.
import { prepareWorkflow } from '../src/engine/index.js';
import { createTestCatalog } from '../src/engine/testing/index.js';
import { bareRun } from './harness.js';
import type { Bench, BenchResult } from './harness.js';

const MESSAGES = 300_000;

function consumer(every: number) {
  let seen = 0;
  return {
    kind: 'terminal' as const,
    runtime: () => ({
      process: () => {
        seen++;
        // Every `every`-th message waits a turn of the event loop: a slower consumer.
        return seen % every === 0
          ? new Promise<undefined>((resolve) => {
              setImmediate(() => {
                resolve(undefined);
              });
            })
          : undefined;
      },
    }),
  };
}

export const engineFanoutBench: Bench = {
  name: 'engine.fanout3',
  async run(): Promise<BenchResult[]> {
    let ahead = 0;
    let slowSeen = 0;
    const catalog = createTestCatalog({
      SOURCE: {
        kind: 'trigger',
        runtime: () => ({
          *run() {
            for (let i = 0; i < MESSAGES; i++) {
              ahead = Math.max(ahead, i - slowSeen);
              yield { payload: { n: i, padding: 'x'.repeat(64) } };
            }
          },
        }),
      },
      FAST: consumer(1_000_000),
      MEDIUM: consumer(100),
      SLOW: {
        kind: 'terminal',
        runtime: () => ({
          process: () => {
            slowSeen++;
            return slowSeen % 10 === 0
              ? new Promise<undefined>((resolve) => {
                  setImmediate(() => {
                    resolve(undefined);
                  });
                })
              : undefined;
          },
        }),
      },
    });
    const plan = prepareWorkflow(
      {
        workflowId: 'fanout',
        description: '',
        nodes: [
          { nodeId: 'src', type: 'SOURCE' },
          { nodeId: 'fast', type: 'FAST' },
          { nodeId: 'medium', type: 'MEDIUM' },
          { nodeId: 'slow', type: 'SLOW' },
        ],
        edges: ['fast', 'medium', 'slow'].map((target) => ({ source: 'src', target })),
      },
      catalog,
      { workers: false },
    );
    (globalThis as { gc?: () => void }).gc?.();
    const baseRss = process.memoryUsage().rss;
    let peak = baseRss;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    const run = bareRun(plan, 'fanout');
    const started = process.hrtime.bigint();
    run.start();
    const outcome = await run.done;
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    clearInterval(sampler);
    if (outcome.status !== 'COMPLETED' || slowSeen !== MESSAGES)
      throw new Error(`fan-out ended ${outcome.status}`);
    return [
      {
        name: 'engine.fanout3.throughput',
        value: Math.round(MESSAGES / seconds),
        unit: 'messages/s',
      },
      { name: 'engine.fanout3.peak-rss-growth', value: round1((peak - baseRss) / 1e6), unit: 'MB' },
      {
        name: 'engine.fanout3.max-lead',
        value: ahead,
        unit: 'messages',
        goal: 'bounded by the edge capacity',
      },
    ];
  },
};

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}
