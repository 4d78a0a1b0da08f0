import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // What the server does for the plugins of svc.plugins.dir (src/plugins/plugin-directory.ts),
    // for a server the tests run in-process: the test runner resolves modules itself.
    alias: {
      'workflow-service/plugin-api': fileURLToPath(
        new URL('./src/plugin-api/index.ts', import.meta.url),
      ),
    },
  },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'web/src/**/*.test.ts'],
    globalSetup: ['test/support/ui-build.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
