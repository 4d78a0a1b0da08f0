// Runs every test with Vitest and ends with a plain `N passed, N failed` line taken from the
// run's JSON report. Extra arguments go to Vitest (e.g. `npm test -- src/config`).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireSupportedNode } from './node-version.mjs';

requireSupportedNode();

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = mkdtempSync(join(tmpdir(), 'svc-test-report-'));
const report = join(dir, 'report.json');
const run = spawnSync(
  process.execPath,
  [
    join(root, 'node_modules/vitest/vitest.mjs'),
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...process.argv.slice(2),
  ],
  { cwd: root, stdio: 'inherit', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } },
);

let summary = 'tests: 0 passed, 0 failed';
try {
  const result = JSON.parse(readFileSync(report, 'utf8'));
  const skipped = (result.numPendingTests ?? 0) + (result.numTodoTests ?? 0);
  summary = `tests: ${result.numPassedTests} passed, ${result.numFailedTests} failed`;
  if (skipped > 0) summary += `, ${skipped} skipped`;
} catch {
  process.stderr.write('The test run wrote no report.\n');
}
rmSync(dir, { recursive: true, force: true });
process.stdout.write(`\n${summary}\n`);
process.exit(run.status ?? 1);
