// Vitest global setup: builds the web UI into dist/web when it is missing or older than its
// sources, so that the UI tests never run against a stale build.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

function modified(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/** The newest change among the files the UI is built from. */
function newestSource(): number {
  let newest = Math.max(
    modified(join(root, 'package-lock.json')),
    modified(join(root, 'scripts/build-web.mjs')),
  );
  for (const entry of readdirSync(join(root, 'web'), { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) newest = Math.max(newest, modified(join(entry.parentPath, entry.name)));
  }
  return newest;
}

export default function buildWebUiWhenStale(): void {
  if (modified(join(root, 'dist/web/index.html')) >= newestSource()) return;
  const build = spawnSync(process.execPath, [join(root, 'scripts/build-web.mjs'), '--quiet'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('The web UI did not build; see the output above');
}
