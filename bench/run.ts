// `npm run bench [-- NAME]`: runs the benchmarks (or those whose name starts with NAME),
// prints a table and writes bench/results/latest.json.
import { printTable, writeResults } from './harness.js';
import type { Bench, BenchResult } from './harness.js';
import { engineChainBench } from './engine-chain.bench.js';
import { engineFanoutBench } from './engine-fanout.bench.js';
import { executionsBench } from './executions.bench.js';
import { workflowSaveBench } from './workflow-save.bench.js';

const BENCHES: readonly Bench[] = [
  workflowSaveBench,
  engineChainBench,
  engineFanoutBench,
  executionsBench,
];

const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const selected = BENCHES.filter(
  (bench) =>
    wanted.length === 0 ||
    wanted.some((name) => bench.name.startsWith(name) || name.startsWith(bench.name)),
);
if (selected.length === 0) {
  process.stderr.write(
    `No benchmark matches ${wanted.join(', ')}; known: ${BENCHES.map((b) => b.name).join(', ')}\n`,
  );
  process.exit(2);
}
const results: BenchResult[] = [];
for (const bench of selected) {
  const all = await bench.run();
  results.push(
    ...all.filter(
      (result) =>
        wanted.length === 0 ||
        wanted.some((name) => result.name.startsWith(name) || name.startsWith(bench.name)),
    ),
  );
}
printTable(results);
writeResults(results, new URL('./results/latest.json', import.meta.url));
