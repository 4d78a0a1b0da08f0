// CONTRACT 6 Commands: `npm run build [-- --svc.plugins=all]` builds the server and the web UI
// and picks the optional plugins (SPEC Build-time choices); `npm start` builds first when
// nothing is built. The commands run in a copy of the sources (node_modules linked), so the
// dist/ the other tests use is never replaced under them.
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPTIONAL_PLUGINS } from '../src/config/index.js';
import { runToExit, startListening } from './support/process.js';
import type { ProcessResult } from './support/process.js';
import { call } from './support/server.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const COPIED = [
  'src',
  'web',
  'proto',
  'scripts',
  'package.json',
  'tsconfig.json',
  'tsconfig.build.json',
];
const BUILD_TIMEOUT_MS = 240_000;

describe('npm run build and npm start in a fresh tree', () => {
  let tree: string;
  beforeAll(() => {
    tree = mkdtempSync(join(tmpdir(), 'svc-build-'));
    for (const name of COPIED) cpSync(join(root, name), join(tree, name), { recursive: true });
    rmSync(join(tree, 'web/dist'), { recursive: true, force: true });
    symlinkSync(join(root, 'node_modules'), join(tree, 'node_modules'), 'dir');
  });
  afterAll(() => {
    rmSync(tree, { recursive: true, force: true });
  });

  function npm(args: readonly string[]): Promise<ProcessResult> {
    return runToExit('npm', args, { cwd: tree, timeoutMs: BUILD_TIMEOUT_MS - 30_000 });
  }

  function buildInfo(): unknown {
    return JSON.parse(readFileSync(join(tree, 'dist/build-info.json'), 'utf8'));
  }

  it(
    'npm start builds first when nothing is built, taking SVC_PLUGINS=all from the environment',
    async () => {
      expect(existsSync(join(tree, 'dist'))).toBe(false);
      const server = await startListening('npm', ['start', '--', 'prod', '--svc.server.port=0'], {
        cwd: tree,
        env: { SVC_PLUGINS: 'all' },
        timeoutMs: BUILD_TIMEOUT_MS - 30_000,
        // npm runs the server in a child of its own: stopping ends the whole group.
        detached: true,
      });
      const { baseUrl } = server;
      try {
        const info = await call(baseUrl, 'GET', '/actuator/info');
        expect(info.status).toBe(200);
        expect(info.json).toMatchObject({
          profile: 'prod',
          build: { version: '0.0.1-SNAPSHOT', plugins: [...OPTIONAL_PLUGINS] },
        });
        // The web UI was built with the server, and the server serves it.
        const page = await call(baseUrl, 'GET', '/index.html');
        expect(page.status).toBe(200);
        expect(page.text).toContain('<div id="root">');
      } finally {
        await server.stop();
      }
      expect(existsSync(join(tree, 'dist/web/index.html'))).toBe(true);
    },
    BUILD_TIMEOUT_MS,
  );

  it(
    'npm run build -- --svc.plugins=NAMES builds with the plugins, stores and workers named on the command line',
    async () => {
      writeFileSync(join(tree, 'dist/stale.txt'), 'from an earlier build');
      const run = await npm([
        'run',
        'build',
        '--',
        '--svc.plugins=sql-query,script-js',
        '--svc.persistence=postgres',
        '--svc.workers=true',
      ]);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(buildInfo()).toMatchObject({
        plugins: ['sql-query', 'script-js'],
        persistence: true,
        workers: true,
      });
      expect(existsSync(join(tree, 'dist/main.js'))).toBe(true);
      expect(existsSync(join(tree, 'dist/web/index.html'))).toBe(true);
      // A build starts from an empty dist/.
      expect(existsSync(join(tree, 'dist/stale.txt'))).toBe(false);
    },
    BUILD_TIMEOUT_MS,
  );

  it(
    'npm run build fails on an unknown plugin name, naming it, and leaves no build behind',
    async () => {
      const run = await npm(['run', 'build', '--', '--svc.plugins=sql-query,no-such-plugin']);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("Build failed: Unknown plugin 'no-such-plugin'");
      expect(existsSync(join(tree, 'dist'))).toBe(false);
    },
    BUILD_TIMEOUT_MS,
  );
});
