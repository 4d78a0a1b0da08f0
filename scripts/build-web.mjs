// Builds the web UI with Vite into dist/web, where the server serves it (docs/ui.md).
// Usage: node scripts/build-web.mjs [--quiet] [--out-dir=DIR]; npm run build runs it after
// compiling the server.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

// Vite lets NODE_ENV pick React's build; a caller's NODE_ENV (Vitest sets `test`) would
// otherwise ship React's development build.
process.env.NODE_ENV = 'production';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const web = join(root, 'web');
const outDir = process.argv.find((arg) => arg.startsWith('--out-dir='))?.slice('--out-dir='.length);

try {
  await build({
    root: web,
    configFile: join(web, 'vite.config.ts'),
    mode: 'production',
    logLevel: process.argv.includes('--quiet') ? 'warn' : 'info',
    ...(outDir === undefined ? {} : { build: { outDir: resolve(outDir), emptyOutDir: true } }),
  });
} catch (error) {
  process.stderr.write(
    `Web UI build failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
}
