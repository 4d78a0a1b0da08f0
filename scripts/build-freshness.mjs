// Whether `npm start` must build first: nothing is built, or a source of the build changed
// after it. The decision alone, so that it is tested without touching dist/.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** What a build is made from, relative to the repository root. */
export const BUILD_SOURCES = ['src', 'web', 'package.json'];

/** Written last by scripts/build.mjs: its time is the end of a complete build. */
export const BUILD_STAMP = 'dist/build-info.json';

/**
 * Why the build in `root` must be made again, or undefined when it is up to date.
 * @param {string} root
 * @returns {string | undefined}
 */
export function staleReason(root) {
  const built = modifiedMs(join(root, BUILD_STAMP));
  if (built === undefined || modifiedMs(join(root, 'dist/main.js')) === undefined) {
    return 'nothing is built';
  }
  for (const source of BUILD_SOURCES) {
    const changed = newerFile(join(root, source), built);
    if (changed !== undefined) return `${relative(root, changed)} changed after the last build`;
  }
  return undefined;
}

/**
 * @param {string} path
 * @returns {number | undefined}
 */
function modifiedMs(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/**
 * The first file under `path` (or `path` itself) changed after `since`. Tests are not part of
 * the build, so a changed test does not make it stale.
 * @param {string} path
 * @param {number} since
 * @returns {string | undefined}
 */
function newerFile(path, since) {
  const stats = statSync(path, { throwIfNoEntry: false });
  if (stats === undefined) return undefined;
  if (!stats.isDirectory()) return stats.mtimeMs > since ? path : undefined;
  for (const entry of readdirSync(path, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || /\.test\.tsx?$/.test(entry.name)) continue;
    if (entry.parentPath.split(/[\\/]/).includes('node_modules')) continue;
    const file = join(entry.parentPath, entry.name);
    if ((modifiedMs(file) ?? 0) > since) return file;
  }
  return undefined;
}
