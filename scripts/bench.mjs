// `npm run bench [-- NAME]`: compiles the benchmarks and the sources they measure with tsc, as
// `npm run build` compiles the server, and runs them as plain JavaScript, so the figures are
// those of the code users run (a TypeScript loader adds work of its own, e.g. function names).
import { spawnSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireSupportedNode } from './node-version.mjs';

requireSupportedNode();

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, '.tmp/bench-build');
rmSync(out, { recursive: true, force: true });
const tsc = spawnSync(
  process.execPath,
  [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.bench.json')],
  { stdio: 'inherit' },
);
if (tsc.status !== 0) {
  process.stderr.write('Compiling the benchmarks failed\n');
  process.exit(tsc.status ?? 1);
}
// The worker protocol's service description, read at run time as in a build.
cpSync(join(root, 'proto'), join(out, 'proto'), { recursive: true });
const run = spawnSync(
  process.execPath,
  ['--expose-gc', join(out, 'bench/run.js'), ...process.argv.slice(2)],
  {
    stdio: 'inherit',
    env: { ...process.env, BENCH_RESULTS_FILE: join(root, 'bench/results/latest.json') },
  },
);
process.exit(run.status ?? 1);
