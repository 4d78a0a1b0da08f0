// Throughput of the stream engine: 1,000,000 messages through a chain of 5 pass-through
// processors in one run, against a raw baseline in the same process: 5 async loops joined by
// hand-written bounded channels of capacity 1 whose send and receive return at once when
// they need not wait.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { prepareWorkflow } from '../src/engine/index.js';
import type { CheckpointStore, NodeDefinition } from '../src/engine/index.js';
import { FileCheckpointStore, MemoryCheckpointStore } from '../src/stores/index.js';
import { createTestCatalog } from '../src/engine/testing/index.js';
import { bareRun, medianPair } from './harness.js';
import type { Bench, BenchResult } from './harness.js';

const MESSAGES = 1_000_000;
let runs = 0;
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

async function engine(checkpoints?: CheckpointStore): Promise<number> {
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
  const writer = checkpoints?.writer(`bench-${++runs}`);
  if (writer !== undefined) run.recordTo(writer);
  const start = process.hrtime.bigint();
  run.start();
  const outcome = await run.done;
  await writer?.close();
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
    const { raw, measured } = await medianPair(
      async () => ({ raw: await baseline(), measured: await engine() }),
      (pair) => pair.measured / pair.raw,
    );
    const durable = await withCheckpoints();
    return [
      {
        name: 'engine.chain5.throughput',
        value: Math.round(measured),
        unit: 'messages/s',
        baseline: Math.round(raw),
        ratio: measured / raw,
        goal: '>= 0.5 of baseline and >= 1,000,000/s',
      },
      ...durable,
    ];
  },
};

/**
 * The same chain recording every message: with the memory store (its caps hold the first 200
 * messages of each node) and with the file store (every message a JSON line, writes batched,
 * an fsync for each end marker). Reports the file store's rate against the memory store's:
 * the median of five pairs measured back to back, since a single run of either moves by a
 * tenth with the garbage collector's and the disk's timing.
 */
async function withCheckpoints(): Promise<BenchResult[]> {
  const memory = new MemoryCheckpointStore();
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-checkpoints-'));
  try {
    const files = new FileCheckpointStore({ dir });
    await files.open();
    await engine(memory);
    await engine(files);
    const { inMemory, onFiles, syncs, seconds } = await medianPair(
      async () => {
        const inMemory = await engine(memory);
        const syncsBefore = files.syncs;
        const started = process.hrtime.bigint();
        const onFiles = await engine(files);
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        return { inMemory, onFiles, syncs: files.syncs - syncsBefore, seconds };
      },
      (pair) => pair.onFiles / pair.inMemory,
    );
    await files.close();
    return [
      {
        name: 'engine.chain5.checkpoints.memory',
        value: Math.round(inMemory),
        unit: 'messages/s',
      },
      {
        name: 'engine.chain5.checkpoints.file',
        value: Math.round(onFiles),
        unit: 'messages/s',
        baseline: Math.round(inMemory),
        ratio: onFiles / inMemory,
        goal: '>= 0.3 of memory checkpoints',
      },
      {
        name: 'engine.chain5.checkpoints.fsyncs',
        value: Math.round(syncs / seconds),
        unit: `fsyncs/s (${syncs} in the run)`,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
