// CONTRACT 6 Commands: `npm start -- [dev|prod|postgres] [--svc.x=y ...]` starts the server
// that `npm run build` made. The build itself runs in CI (`.ci/run`) before the tests; a tree
// that was not built is reported skipped with the reason, since building here would replace
// dist/ under the other tests.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { call } from './support/server.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = existsSync(join(root, 'dist/main.js'));

describe.skipIf(!built)(
  `npm start${built ? '' : ' (skipped: nothing is built; run npm run build first)'}`,
  () => {
    it('starts the built server in the profile and with the settings given on the command line', async () => {
      const clean = Object.fromEntries(
        Object.entries(process.env).filter(([name]) => !name.startsWith('SVC_')),
      );
      const child = spawn(
        process.execPath,
        [
          join(root, 'scripts/start.mjs'),
          'prod',
          '--svc.server.port=0',
          '--svc.limits.max-body=2MB',
        ],
        { cwd: root, env: clean, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      try {
        const baseUrl = await new Promise<string>((resolve, reject) => {
          let output = '';
          const timer = setTimeout(() => {
            reject(new Error(`no start:\n${output}`));
          }, 15_000);
          const onData = (chunk: Buffer): void => {
            output += chunk.toString();
            const match = /Listening on http:\/\/[^:\s"]+:(\d+)/.exec(output);
            if (match) {
              clearTimeout(timer);
              resolve(`http://127.0.0.1:${match[1] ?? ''}`);
            }
          };
          child.stdout.on('data', onData);
          child.stderr.on('data', onData);
        });
        const info = await call(baseUrl, 'GET', '/actuator/info');
        expect(info.json).toMatchObject({ profile: 'prod', build: { version: '0.0.1-SNAPSHOT' } });
        // The body limit given on the command line (1 MiB by default) lets 1.5 MB through.
        const large = await call(baseUrl, 'POST', '/api/sessions', {
          body: { name: 'x'.repeat(1_500_000), initiator: 'i' },
        });
        expect(large.status).toBe(201);
      } finally {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
    });
  },
);
