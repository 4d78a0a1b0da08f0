// The project runs on Node.js 24 (package.json engines). Its commands say so plainly on an
// older Node, with the way to get 24 from the npm registry, instead of failing somewhere less
// clear. The older Node is one found on the PATH or at /usr/bin/node (the machine's own); where
// there is none, that test is reported skipped with the reason.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runToExit } from './support/process.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const engines = (
  JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } }
).engines.node;

function majorOf(node: string): number {
  try {
    return Number(execFileSync(node, ['-p', 'process.versions.node.split(".")[0]']).toString());
  } catch {
    return Number.NaN;
  }
}

/** A Node.js older than 24 on this machine, if there is one. */
const olderNode = [
  ...(process.env['PATH'] ?? '').split(delimiter).map((dir) => join(dir, 'node')),
  '/usr/bin/node',
].find((candidate) => existsSync(candidate) && majorOf(candidate) < 24);

describe('Node.js 24', () => {
  it('is what package.json asks for, and what the tests run on', () => {
    expect(engines).toBe('>=24');
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(24);
  });

  it.skipIf(olderNode === undefined)(
    `is asked for by npm start, build, test and bench on an older Node${olderNode === undefined ? ' (skipped: no Node.js older than 24 on this machine)' : ''}`,
    async () => {
      const built = existsSync(join(root, 'dist/main.js'));
      for (const command of ['start', 'build', 'test', 'bench']) {
        const run = await runToExit(olderNode ?? '', [join(root, `scripts/${command}.mjs`)]);
        expect(run.code, command).toBe(1);
        expect(run.stderr, command).toContain('This project needs Node.js 24 or newer');
        expect(run.stderr, command).toMatch(/npm install --prefix ~\/\.node24 node-\w+-\w+@24/);
      }
      // Nothing was built or removed: the refusal comes before any work.
      expect(existsSync(join(root, 'dist/main.js'))).toBe(built);
    },
  );
});
