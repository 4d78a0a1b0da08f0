// Builds the server and the web UI into dist/ and records the build-time choices (SPEC
// "Build-time choices") in dist/build-info.json. Usage: npm run build [-- --svc.plugins=all]
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { requireSupportedNode } from './node-version.mjs';

requireSupportedNode();

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Reads `--name=value` or `--name value` from the arguments, else the environment variable. */
function property(name, envName) {
  const args = process.argv.slice(2);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg.startsWith(`--${name}=`)) return arg.slice(name.length + 3);
    if (arg === `--${name}`) return args[i + 1];
  }
  return process.env[envName];
}

function fail(message) {
  process.stderr.write(`Build failed: ${message}\n`);
  process.exit(1);
}

const pluginSpec = property('svc.plugins', 'SVC_PLUGINS');
const persistenceSpec = property('svc.persistence', 'SVC_PERSISTENCE');
const workersSpec = property('svc.workers', 'SVC_WORKERS');
// `postgres` includes the relational-database stores (docs/postgres.md); nothing, an empty
// value or `memory` leaves them out, as resolvePersistence in src/config/build.ts reads it.
const persistenceWord = (persistenceSpec ?? '').trim().toLowerCase();
if (!['', 'memory', 'postgres'].includes(persistenceWord)) {
  fail(
    `Unknown value svc.persistence=${persistenceSpec}; expected postgres (or memory, the default)`,
  );
}
const persistence = persistenceWord === 'postgres';
// `true` includes remote workers (docs/workers.md), as resolveWorkers in src/config/build.ts
// reads it; nothing, an empty value or `false` leaves them out.
const workersWord = (workersSpec ?? '').trim().toLowerCase();
if (!['', 'false', 'true'].includes(workersWord)) {
  fail(`Unknown value svc.workers=${workersSpec}; expected true or false`);
}
const workers = workersWord === 'true';

rmSync(join(root, 'dist'), { recursive: true, force: true });
const tsc = spawnSync(
  process.execPath,
  [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')],
  {
    stdio: 'inherit',
  },
);
if (tsc.status !== 0) fail('TypeScript compilation failed');
// The worker protocol's service description, read at run time (docs/workers.md, "Protocol").
cpSync(join(root, 'proto'), join(root, 'dist/proto'), { recursive: true });

const { resolvePluginSelection } = await import(
  pathToFileURL(join(root, 'dist/config/index.js')).href
);
let plugins;
try {
  plugins = resolvePluginSelection(pluginSpec);
} catch (error) {
  rmSync(join(root, 'dist'), { recursive: true, force: true });
  fail(error instanceof Error ? error.message : String(error));
}

// The web UI goes into dist/web, which the server serves (docs/ui.md).
const web = spawnSync(process.execPath, [join(root, 'scripts/build-web.mjs')], {
  stdio: 'inherit',
});
if (web.status !== 0) fail('the web UI did not build');

let commit = 'unknown';
try {
  commit = execFileSync('git', ['rev-parse', 'HEAD'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'ignore'],
  })
    .toString()
    .trim();
} catch {
  // A source tree without git history still builds; the commit stays unknown.
}
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const buildInfo = {
  version,
  commit,
  buildTime: new Date().toISOString(),
  plugins,
  persistence,
  workers,
};
writeFileSync(join(root, 'dist/build-info.json'), `${JSON.stringify(buildInfo, null, 2)}\n`);
process.stdout.write(
  `Built ${version} (${commit.slice(0, 12)}) with plugins: ${plugins.join(', ') || 'none'}\n`,
);
