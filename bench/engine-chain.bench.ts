// Throughput of the stream engine: 1,000,000 messages through a chain of 5 pass-through
// processors in one run, against a raw baseline in the same process: 5 async loops joined by
// hand-written bounded channels of capacity 1 whose send and receive return at once when
// they need not wait.
import { prepareWorkflow } from '../src/engine/index.js';
import type { NodeDefinition } from '../src/engine/index.js';
import { createTestCatalog } from '../src/engine/dag/test-catalog.js';
import { bareRun } from './harness.js';
import type { Bench, BenchResult } from './harness.js';

const MESSAGES = 1_000_000;
const STAGES = 5;

/** The baseline's channel: capacity 1, no promise when it need not wait. */
class RawChannel<T> {
  #value: T | undefined;
  #full = false;
  #closed = false;
  #reader: ((value: T | undefined) => void) | undefined;
  #writer: (() => void) | undefined;

  send(value: T): Promise<void> | undefined {
    if (this.#reader) {
      const reader = this.#reader;
      this.#reader = undefined;
      reader(value);
      return undefined;
    }
    if (!this.#full) {
      this.#value = value;
      this.#full = true;
      return undefined;
    }
    return new Promise<void>((resolve) => {
      this.#writer = () => {
        this.#value = value;
        this.#full = true;
        resolve();
      };
    });
  }

  receive(): T | undefined | Promise<T | undefined> {
    if (this.#full) {
      const value = this.#value;
      this.#full = false;
      this.#value = undefined;
      const writer = this.#writer;
      this.#writer = undefined;
      writer?.();
      return value;
    }
    if (this.#closed) return undefined;
    return new Promise((resolve) => (this.#reader = resolve));
  }

  close(): void {
    this.#closed = true;
    if (!this.#full && this.#reader) this.#reader(undefined);
  }
}

async function baseline(): Promise<number> {
  const channels = Array.from({ length: STAGES + 1 }, () => new RawChannel<{ n: number }>());
  const start = process.hrtime.bigint();
  const producer = (async () => {
    const first = channels[0];
    if (!first) return;
    for (let i = 0; i < MESSAGES; i++) {
      const pending = first.send({ n: i });
      if (pending) await pending;
    }
    first.close();
  })();
  const stages = Array.from({ length: STAGES }, async (_, index) => {
    const input = channels[index];
    const output = channels[index + 1];
    if (!input || !output) return;
    for (;;) {
      let value = input.receive();
      if (value instanceof Promise) value = await value;
      if (value === undefined) break;
      const pending = output.send({ n: value.n });
      if (pending) await pending;
    }
    output.close();
  });
  let received = 0;
  const consumer = (async () => {
    const last = channels[STAGES];
    if (!last) return;
    for (;;) {
      let value = last.receive();
      if (value instanceof Promise) value = await value;
      if (value === undefined) break;
      received++;
    }
  })();
  await Promise.all([producer, ...stages, consumer]);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (received !== MESSAGES) throw new Error(`baseline lost messages: ${received}`);
  return MESSAGES / seconds;
}

async function engine(): Promise<number> {
  let received = 0;
  const catalog = createTestCatalog({
    SOURCE: {
      kind: 'trigger',
      runtime: () => ({
        *run() {
          for (let i = 0; i < MESSAGES; i++) yield { payload: { n: i } };
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
          received++;
          return undefined;
        },
      }),
    },
  });
  const nodes: NodeDefinition[] = [
    { nodeId: 'source', type: 'SOURCE' },
    ...Array.from({ length: STAGES }, (_, i) => ({ nodeId: `p${i}`, type: 'PASS' })),
    { nodeId: 'sink', type: 'COUNT' },
  ];
  const edges = nodes
    .slice(1)
    .map((node, i) => ({ source: nodes[i]?.nodeId ?? '', target: node.nodeId }));
  const plan = prepareWorkflow({ workflowId: 'chain5', description: '', nodes, edges }, catalog, {
    workers: false,
  });
  const run = bareRun(plan, 'bench');
  const start = process.hrtime.bigint();
  run.start();
  const outcome = await run.done;
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (outcome.status !== 'COMPLETED' || received !== MESSAGES) {
    throw new Error(`engine run ended ${outcome.status} with ${received} messages`);
  }
  return MESSAGES / seconds;
}

export const engineChainBench: Bench = {
  name: 'engine.chain5',
  async run(): Promise<BenchResult[]> {
    // Warm both up, then measure them back to back so they share the machine's state.
    await baseline();
    await engine();
    const raw = await baseline();
    const measured = await engine();
    return [
      {
        name: 'engine.chain5.throughput',
        value: Math.round(measured),
        unit: 'messages/s',
        baseline: Math.round(raw),
        ratio: measured / raw,
        goal: '>= 0.5 of baseline and >= 1,000,000/s',
      },
    ];
  },
};
