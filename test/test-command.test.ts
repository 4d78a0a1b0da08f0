// CONTRACT 6 Commands: `npm ci` installs the locked dependencies and `npm test` runs every
// test. npm ci refuses a lock file out of step with package.json, so the lock is compared with
// it. The test files Vitest would run are compared
// with every test file in the tree, so a test put where the configuration does not look is
// caught; and the command is run on one file to show the summary line it ends with.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runToExit } from './support/process.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Folders holding no test of this project: dependencies, builds, scratch space. */
const OUTSIDE = new Set(['node_modules', 'dist', '.tmp', '.git']);

function testFilesIn(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (OUTSIDE.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...testFilesIn(path));
    else if (/\.test\.[cm]?[jt]sx?$/.test(entry.name)) found.push(relative(root, path));
  }
  return found;
}

interface Manifest {
  readonly dependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
}

describe('npm ci', () => {
  it('finds a lock file in step with package.json, naming every dependency at its range', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest;
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
      lockfileVersion: number;
      packages: Record<string, Manifest & { version?: string }>;
    };
    expect(lock.lockfileVersion).toBeGreaterThanOrEqual(2);
    const project = lock.packages[''];
    expect(project?.dependencies).toEqual(manifest.dependencies);
    expect(project?.devDependencies).toEqual(manifest.devDependencies);
    // Every direct dependency is itself locked to a version.
    const direct = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });
    for (const name of direct) {
      expect(lock.packages[`node_modules/${name}`]?.version, name).toMatch(/^\d+\.\d+\.\d+/);
    }
  });
});

describe('npm test', () => {
  it('runs every test file in the tree', () => {
    const listed = spawnSync(
      process.execPath,
      [join(root, 'node_modules/vitest/vitest.mjs'), 'list', '--filesOnly', '--json'],
      { cwd: root, encoding: 'utf8' },
    );
    expect(listed.status, listed.stderr).toBe(0);
    const files = (JSON.parse(listed.stdout) as { file: string }[]).map((entry) =>
      relative(root, entry.file),
    );
    const inTree = testFilesIn(root);
    expect(inTree.length).toBeGreaterThan(100);
    expect(files.sort()).toEqual(inTree.sort());
  });

  it('ends with a line counting the tests passed and failed, and exits 0 when none failed', async () => {
    const run = await runToExit('npm', ['test', '--', 'src/config/build.test.ts'], {
      timeoutMs: 100_000,
    });
    expect(run.code, run.stdout).toBe(0);
    const last = run.stdout.trimEnd().split('\n').at(-1) ?? '';
    expect(last).toMatch(/^tests: [1-9]\d* passed, 0 failed$/);
  }, 120_000);
});
