// Process concerns only: read settings, build the app, listen, and stop on a signal.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createApp, keyRingOf } from './app.js';
import { isLoopbackAddress } from './auth/index.js';
import type { App } from './app.js';
import { createWorkerApp } from './worker-app.js';
import type { WorkerApp } from './worker-app.js';
import { loadSettings, readBuildInfo } from './config/index.js';
import { isAppError, messageOf } from './core/index.js';

/**
 * High availability: the exit code of a server that lost its leadership (EX_TEMPFAIL). Started
 * again by its supervisor, it comes back as a standby with nothing left of the old leadership.
 */
const EXIT_FENCED = 75;

/**
 * The HTTP address cannot be bound (in use, not allowed, not this machine's): EX_UNAVAILABLE,
 * apart from 1 (settings refused), so a script or supervisor can tell a taken port from a
 * wrong setting.
 */
const EXIT_CANNOT_LISTEN = 69;

/** A stop under way (a signal, or lost leadership): a second one changes nothing. */
let stopping = false;

const BANNER = String.raw`
 __      __       _     __ _
 \ \    / /__ _ _| |__ / _| |_____ __ __
  \ \/\/ / _ \ '_| / /|  _| / _ \ V  V /
   \_/\_/\___/_| |_\_\|_| |_\___/\_/\_/   workflow service
`;

function packageVersion(): string {
  const file = fileURLToPath(new URL('../package.json', import.meta.url));
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown };
  return typeof parsed.version === 'string' ? parsed.version : '0.0.0';
}

async function main(): Promise<void> {
  const buildInfo = readBuildInfo(fileURLToPath(new URL('./build-info.json', import.meta.url)), {
    version: packageVersion(),
    env: process.env,
  });
  const { settings, profile, warnings } = loadSettings({
    argv: process.argv.slice(2),
    env: process.env,
    features: { postgres: buildInfo.persistence },
    native: buildInfo.native,
  });
  if (settings['svc.workers.role'] === 'worker') {
    runWorker(await createWorkerApp({ settings, buildInfo }), warnings);
    return;
  }
  const address = settings['svc.server.address'];
  if (!isLoopbackAddress(address) && !keyRingOf(settings).hasAnyKey) {
    process.stderr.write(
      `Refusing to listen on ${address}:${settings['svc.server.port']} without an API key: ` +
        'set svc.api-key (SVC_API_KEY), svc.api-keys or svc.mcp.api-key, or bind to 127.0.0.1\n',
    );
    process.exit(1);
  }
  if (settings['svc.main.banner-mode'] === 'console') {
    process.stdout.write(`${BANNER}\n  version ${buildInfo.version}, profile ${profile}\n\n`);
  }
  // Leadership may be lost while the app is still being made: there is nothing to close then.
  const made: { app?: App } = {};
  const app = await createApp({
    settings,
    profile,
    buildInfo,
    onFenced: (reason) => {
      stopAfterFencing(reason, made.app);
    },
  });
  made.app = app;
  for (const warning of warnings) app.loggers.app.warn(warning);
  let bound: Awaited<ReturnType<App['listen']>>;
  try {
    bound = await app.listen();
  } catch (error) {
    const refusal = listenRefusal(error, address, settings['svc.server.port']);
    if (refusal === undefined) throw error;
    await exitCannotListen(app, refusal);
    return;
  }
  app.loggers.app.info(
    { address: bound.address, port: bound.port, profile },
    `Listening on http://${bound.address}:${bound.port}`,
  );
  if (bound.workers !== undefined) {
    const { address: host, port } = bound.workers;
    app.loggers.app.info({ address: host, port }, `Accepting workers on ${host}:${port}`);
  }
  stopOnSignals(app);
}

/**
 * One line for the usual reasons an address cannot be bound; undefined for anything else,
 * whose stack may help. Node's `listen` errors carry the code, and its message is not meant for
 * operators (`listen EADDRINUSE: address already in use 127.0.0.1:8080`).
 */
function listenRefusal(error: unknown, address: string, port: number): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  const where = `${address}:${port}`;
  switch (code) {
    case 'EADDRINUSE':
      return `${where} is already in use: stop what listens there, or set another port (svc.server.port, SVC_SERVER_PORT)`;
    case 'EACCES':
      return `no permission to listen on ${where}: set a port above 1023 (svc.server.port, SVC_SERVER_PORT)`;
    case 'EADDRNOTAVAIL':
      return `${address} is not an address of this machine (svc.server.address, SVC_SERVER_ADDRESS)`;
    default:
      return undefined;
  }
}

/** Closes what the app opened (a database pool, a workers port), at most for 5 s, and exits. */
async function exitCannotListen(app: App, refusal: string): Promise<never> {
  process.stderr.write(`Start-up failed: ${refusal}\n`);
  setTimeout(() => process.exit(EXIT_CANNOT_LISTEN), 5_000).unref();
  await app.close().catch(() => undefined);
  process.exit(EXIT_CANNOT_LISTEN);
}

/**
 * The worker role (docs/workers.md): no HTTP listener; it runs until a stop signal, and exits
 * with 1 when the control plane refuses it for good (a wrong token).
 */
function runWorker(worker: WorkerApp, warnings: readonly string[]): void {
  const log = worker.loggers.app;
  for (const warning of warnings) log.warn(warning);
  worker.client.done.then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`Start-up failed: ${messageOf(error)}\n`);
      process.exit(1);
    },
  );
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'Stopping');
    void worker.close();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

/**
 * High availability (docs/high-availability.md): a server that lost its leadership has already
 * stopped acting as the leader; it closes what it holds and exits, so that its supervisor
 * starts it afresh as a standby. A close that hangs on a database that stopped answering does
 * not keep it.
 */
function stopAfterFencing(reason: string, app: App | undefined): void {
  if (stopping) return;
  stopping = true;
  process.stderr.write(
    `Stopping: this server lost its leadership (${reason}); started again, it rejoins as a standby\n`,
  );
  setTimeout(() => process.exit(EXIT_FENCED), 10_000).unref();
  void (app?.close() ?? Promise.resolve()).then(
    () => process.exit(EXIT_FENCED),
    () => process.exit(EXIT_FENCED),
  );
}

/**
 * Exits once the log lines written so far are out: the log is written asynchronously, and an
 * exit at once would lose the last lines of a stop, the ones that say how it ended.
 */
function exitAfterLogs(app: App, code: number): void {
  setTimeout(() => process.exit(code), 1_000).unref();
  app.loggers.written(() => process.exit(code));
}

function stopOnSignals(app: App): void {
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    app.loggers.app.info({ signal }, `Stopping on ${signal}`);
    app.shutdown().then(
      () => {
        app.loggers.app.info({}, 'Stopped');
        exitAfterLogs(app, 0);
      },
      (error: unknown) => {
        app.loggers.app.error({ err: error }, 'Stopping failed');
        exitAfterLogs(app, 1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  const message = isAppError(error) ? error.message : String(error);
  process.stderr.write(`Start-up failed: ${message}\n`);
  if (!isAppError(error) && error instanceof Error && error.stack) {
    process.stderr.write(`${error.stack}\n`);
  }
  process.exit(1);
});
