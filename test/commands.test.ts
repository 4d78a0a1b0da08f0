// CONTRACT 6 Commands: `npm start -- [dev|prod|postgres] [--svc.x=y ...]` starts the server
// that `npm run build` made. The build itself runs in CI (`.ci/run`) before the tests; a tree
// that was not built, or whose sources changed after the build, is reported skipped with the
// reason, since `npm start` would then build and replace dist/ under the other tests.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { staleReason } from '../scripts/build-freshness.mjs';
import { startListening } from './support/process.js';
import { call } from './support/server.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stale = staleReason(root);

describe.skipIf(stale !== undefined)(
  `npm start${stale === undefined ? '' : ` (skipped: ${stale}; run npm run build first)`}`,
  () => {
    it('starts the built server in the profile and with the settings given on the command line', async () => {
      const server = await startListening(process.execPath, [
        join(root, 'scripts/start.mjs'),
        'prod',
        '--svc.server.port=0',
        '--svc.limits.max-body=2MB',
      ]);
      const { baseUrl } = server;
      try {
        const info = await call(baseUrl, 'GET', '/actuator/info');
        expect(info.json).toMatchObject({ profile: 'prod', build: { version: '0.0.1-SNAPSHOT' } });
        // The body limit given on the command line (1 MiB by default) lets 1.5 MB through.
        const large = await call(baseUrl, 'POST', '/api/sessions', {
          body: { name: 'x'.repeat(1_500_000), initiator: 'i' },
        });
        expect(large.status).toBe(201);
      } finally {
        await server.stop();
      }
    });
  },
);
