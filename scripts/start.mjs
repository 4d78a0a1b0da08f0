// Starts the built server, building it first when nothing is built or a source changed after
// the build (scripts/build-freshness.mjs).
// Usage: npm start -- [dev|prod|postgres] [--svc.x=y ...]
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { staleReason } from './build-freshness.mjs';
import { requireSupportedNode } from './node-version.mjs';

requireSupportedNode();

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const entry = join(root, 'dist/main.js');
const stale = staleReason(root);
if (stale !== undefined) {
  process.stderr.write(`Building first: ${stale}.\n`);
  const build = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], {
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
await import(pathToFileURL(entry).href);
