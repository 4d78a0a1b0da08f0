// Builds the native binary (SPEC Build-time choices and Runtime profiles): the server that
// `npm run build` made, bundled into one script and injected into a copy of this Node.js as a
// single executable application, with the files it reads at run time (build information, the
// web UI, the Swagger UI assets) inside it. It runs as `prod` unless a profile is passed on
// the command line. Usage, after `npm run build`:
//   npm run build:native [-- --svc.workers.native=control-plane|worker] [--out DIR]
// (`--build-info FILE` reads the build information from another file than dist/build-info.json.)
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { inject } from 'postject';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SENTINEL = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const ROLES = ['control-plane', 'worker'];
/** Folders whose files the binary carries, relative to the package root. */
const CARRIED_DIRS = [
  'dist/web',
  'node_modules/@fastify/swagger-ui/static',
  // The worker protocol and the gRPC health and reflection services it serves read their
  // .proto files at run time.
  'dist/proto',
  'node_modules/grpc-health-check/proto',
  'node_modules/@grpc/reflection/build/proto',
];

function fail(message) {
  process.stderr.write(`Native build failed: ${message}\n`);
  process.exit(1);
}

/** `--name=value` or `--name value`, else the environment variable. */
function property(name, envName) {
  const args = process.argv.slice(2);
  for (let i = 0; i < args.length; i++) {
    if (args[i].startsWith(`--${name}=`)) return args[i].slice(name.length + 3);
    if (args[i] === `--${name}`) return args[i + 1];
  }
  return envName === undefined ? undefined : process.env[envName];
}

const buildInfoFile = resolve(property('build-info') ?? join(root, 'dist/build-info.json'));
if (!existsSync(join(root, 'dist/main.js')) || !existsSync(buildInfoFile)) {
  fail('nothing is built: run npm run build first');
}
const buildInfo = JSON.parse(readFileSync(buildInfoFile, 'utf8'));
// SPEC: the relational-database stores are not for use with the native binary.
if (buildInfo.persistence) {
  fail(
    'the relational-database stores are not for use with the native binary; build without svc.persistence=postgres',
  );
}
const roleSpec = property('svc.workers.native', 'SVC_WORKERS_NATIVE');
const role = roleSpec === undefined || roleSpec === '' ? 'control-plane' : roleSpec;
if (!ROLES.includes(role)) {
  fail(`unknown value svc.workers.native=${role}; expected control-plane or worker`);
}
if (roleSpec !== undefined && roleSpec !== '' && !buildInfo.workers) {
  fail(
    `svc.workers.native=${role} needs remote workers in the build (npm run build -- --svc.workers=true)`,
  );
}

const out = resolve(property('out') ?? join(root, 'dist/native'));
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

// One script: every import.meta.url of the server and every __dirname of a dependency points
// into the folder the binary unpacks its files to, at the place the file had in the package,
// so the code reads them as it does when it runs from the package.
const relocate = {
  name: 'relocate',
  setup(bundler) {
    bundler.onLoad({ filter: /\.(c|m)?js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const where = relative(root, args.path).split(sep).join('/');
      // An ES module of a dependency (QuickJS's) finds its files from import.meta.url too.
      const ownUrl =
        (where.startsWith('dist/') || where.endsWith('.mjs')) && text.includes('import.meta.url');
      const ownDir = where.startsWith('node_modules/') && text.includes('__dirname');
      if (!ownUrl && !ownDir) return undefined;
      let contents = text;
      if (ownUrl) {
        contents = contents.replaceAll('import.meta.url', `__svcUrl(${JSON.stringify(where)})`);
      }
      if (ownDir) {
        contents = contents.replaceAll('__dirname', `__svcDir(${JSON.stringify(dirname(where))})`);
      }
      return { contents, loader: 'js' };
    });
  },
};

// An optional dependency some packages try to load: absent, it would only make the binary
// warn that it loads modules from disk.
const leaveOut = {
  name: 'leave-out',
  setup(bundler) {
    bundler.onResolve({ filter: /^supports-color$/ }, () => ({
      path: 'empty',
      namespace: 'left-out',
    }));
    bundler.onLoad({ filter: /.*/, namespace: 'left-out' }, () => ({
      contents: 'module.exports = {};',
    }));
  },
};

/** The files the binary carries, by their place in the package. */
const carried = new Map();
function carry(file) {
  carried.set(relative(root, file).split(sep).join('/'), file);
}
function carryDir(dir) {
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) carry(join(entry.parentPath, entry.name));
  }
}
carry(join(root, 'package.json'));
for (const dir of CARRIED_DIRS) {
  if (existsSync(join(root, dir))) carryDir(join(root, dir));
}
// MAPPER's SCRIPT mode runs scripts on worker threads, each started from a file of its own:
// the worker bundled with QuickJS into one CommonJS script, carried beside the compiled worker,
// where the script pool looks for it first. QuickJS loads the engine from its WebAssembly file.
const SCRIPT_WORKER = 'dist/plugins/builtin/transform/script-worker';
if (buildInfo.plugins.includes('script-js')) {
  carryDir(join(root, 'node_modules/@jitl/quickjs-wasmfile-release-sync/dist'));
  const workerScript = join(out, 'script-worker.cjs');
  await build({
    entryPoints: [join(root, `${SCRIPT_WORKER}.js`)],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node24',
    outfile: workerScript,
    // The unpacked folder's root is four folders above the carried worker.
    banner: {
      js: `
function __svcDir(where) {
  return require('node:path').join(__dirname, '../../../..', where);
}
function __svcUrl(where) {
  return require('node:url').pathToFileURL(__svcDir(where)).href;
}
`,
    },
    plugins: [relocate],
    logLevel: 'error',
  });
  carried.set(`${SCRIPT_WORKER}.cjs`, workerScript);
}
// The binary's own build information: that of the build, with its role.
const nativeInfo = join(out, 'build-info.json');
writeFileSync(nativeInfo, `${JSON.stringify({ ...buildInfo, native: { role } }, null, 2)}\n`);
carried.set('dist/build-info.json', nativeInfo);

const digest = createHash('sha256');
for (const [name, file] of [...carried].sort()) digest.update(name).update(readFileSync(file));
const bundleId = digest.digest('hex').slice(0, 16);

const banner = `
const __svcRoot = (() => {
  const path = require('node:path');
  const sea = require('node:sea');
  if (!sea.isSea()) return path.resolve(__dirname, ${JSON.stringify(relative(out, root).split(sep).join('/'))});
  // The carried files are unpacked once per build into a folder of its own; a half-written
  // folder is never used, since it is renamed into place whole.
  const fs = require('node:fs');
  const os = require('node:os');
  const target = path.join(os.tmpdir(), 'workflow-service-' + ${JSON.stringify(bundleId)});
  if (!fs.existsSync(path.join(target, '.complete'))) {
    const staging = target + '.' + process.pid + '.tmp';
    fs.rmSync(staging, { recursive: true, force: true });
    const names = JSON.parse(sea.getAsset('__carried.json', 'utf8'));
    for (const name of names) {
      const file = path.join(staging, name);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, Buffer.from(sea.getAsset(name)));
    }
    fs.writeFileSync(path.join(staging, '.complete'), '');
    try {
      fs.renameSync(staging, target);
    } catch {
      fs.rmSync(staging, { recursive: true, force: true });
    }
  }
  return target;
})();
function __svcUrl(where) {
  return require('node:url').pathToFileURL(require('node:path').join(__svcRoot, where)).href;
}
function __svcDir(where) {
  return require('node:path').join(__svcRoot, where);
}
`;

const script = join(out, 'server.cjs');
await build({
  entryPoints: [join(root, 'dist/main.js')],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node24',
  outfile: script,
  banner: { js: banner },
  plugins: [relocate, leaveOut],
  logLevel: 'error',
  // Optional native bindings some dependencies try first; the server does not use them.
  external: ['pg-native'],
});

const assets = { '__carried.json': join(out, 'carried.json') };
writeFileSync(assets['__carried.json'], JSON.stringify([...carried.keys()]));
for (const [name, file] of carried) assets[name] = file;
const config = join(out, 'sea-config.json');
const blob = join(out, 'sea-prep.blob');
writeFileSync(
  config,
  JSON.stringify(
    { main: script, output: blob, disableExperimentalSEAWarning: true, assets },
    null,
    2,
  ),
);
execFileSync(process.execPath, ['--experimental-sea-config', config], { stdio: 'ignore' });

const binary = join(out, 'workflow-service');
copyFileSync(process.execPath, binary);
await inject(binary, 'NODE_SEA_BLOB', readFileSync(blob), { sentinelFuse: SENTINEL });
for (const leftover of ['carried.json', 'sea-config.json', 'sea-prep.blob', 'script-worker.cjs'])
  rmSync(join(out, leftover), { force: true });
const megabytes = (statSync(binary).size / 1024 / 1024).toFixed(0);
process.stdout.write(
  `Built the native binary ${relative(root, binary) || binary} (${megabytes} MB, role ${role})\n`,
);
