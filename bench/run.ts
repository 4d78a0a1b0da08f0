// `npm run bench [-- NAME]`: runs the benchmarks (or those whose name starts with NAME),
// prints a table and writes bench/results/latest.json. Each benchmark group runs in a
// process of its own, so memory figures start from a fresh heap.
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { turnOffPretenuring } from '../src/core/index.js';
import { answerSerializeBench } from './answer-serialize.bench.js';
import { engineChainBench } from './engine-chain.bench.js';
import { engineFanoutBench } from './engine-fanout.bench.js';
import { eventsBench } from './events.bench.js';
import { executionsBench } from './executions.bench.js';
import { httpStartBench } from './http-start.bench.js';
import { natsRelayBench } from './nats-relay.bench.js';
import { printTable, writeResults } from './harness.js';
import type { Bench, BenchResult } from './harness.js';
import { workflowSaveBench } from './workflow-save.bench.js';
import { workersLoopbackBench } from './workers-loopback.bench.js';

const BENCHES: readonly Bench[] = [
  workflowSaveBench,
  engineChainBench,
  engineFanoutBench,
  executionsBench,
  httpStartBench,
  eventsBench,
  answerSerializeBench,
  workersLoopbackBench,
  natsRelayBench,
];
const CHILD_FLAG = '--child';
const RESULT_PREFIX = 'BENCH-RESULT ';

const args = process.argv.slice(2);
const wanted = args.filter((arg) => !arg.startsWith('-'));
const matches = (name: string, bench: Bench): boolean =>
  name.startsWith(bench.name) || bench.name.startsWith(name);
const selected = BENCHES.filter(
  (bench) => wanted.length === 0 || wanted.some((name) => matches(name, bench)),
);
if (selected.length === 0) {
  process.stderr.write(
    `No benchmark matches ${wanted.join(', ')}; known: ${BENCHES.map((b) => b.name).join(', ')}\n`,
  );
  process.exit(2);
}

function keep(result: BenchResult): boolean {
  return (
    wanted.length === 0 ||
    wanted.some((name) => result.name.startsWith(name) || BENCHES.some((b) => b.name === name))
  );
}

if (args.includes(CHILD_FLAG)) {
  // The collector settings the server starts with (createApp), also for the benchmarks that
  // run the engine without it: the figures are those of the code as the server runs it.
  turnOffPretenuring();
  for (const bench of selected) {
    for (const result of await bench.run()) {
      process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(result)}\n`);
    }
  }
} else {
  const results: BenchResult[] = [];
  const script = fileURLToPath(import.meta.url);
  for (const bench of selected) {
    // Compiled (`npm run bench`), the script is JavaScript; from the sources it needs tsx.
    const loader = script.endsWith('.ts') ? ['--import', 'tsx'] : [];
    const child = spawnSync(
      process.execPath,
      ['--expose-gc', ...loader, script, bench.name, CHILD_FLAG],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 16 * 1024 * 1024 },
    );
    if (child.status !== 0) {
      process.stderr.write(`Benchmark ${bench.name} failed with exit code ${child.status}\n`);
      process.exit(1);
    }
    for (const line of child.stdout.split('\n')) {
      if (!line.startsWith(RESULT_PREFIX)) continue;
      const result = JSON.parse(line.slice(RESULT_PREFIX.length)) as BenchResult;
      if (keep(result)) results.push(result);
    }
  }
  printTable(results);
  const file = process.env.BENCH_RESULTS_FILE;
  writeResults(
    results,
    file === undefined ? new URL('./results/latest.json', import.meta.url) : pathToFileURL(file),
  );
}
