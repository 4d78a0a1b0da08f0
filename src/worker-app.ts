// Composition root of the worker role (`svc.workers.role=worker`): settings -> plugins ->
// runtimes -> one connection to the control plane. No REST API, no stores (docs/workers.md).
import os from 'node:os';
import { AppError, turnOffPretenuring } from './core/index.js';
import { createConfigResolver } from './config/index.js';
import type { BuildInfo, Settings } from './config/index.js';
import { loggersFor } from './observability/index.js';
import type { Loggers } from './observability/index.js';
import { createPluginRegistry, loadPluginDirectory } from './plugins/index.js';
import type { PluginEntry } from './plugins/index.js';
import { WorkerClient, WorkerHost, readTlsBundle } from './workers/index.js';

export interface WorkerAppOptions {
  readonly settings: Settings;
  readonly buildInfo: BuildInfo;
  readonly loggers?: Loggers;
  /** The environment `${env.NAME}` and secrets are read from; the process's by default. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Plugins of an application that embeds the worker, beside the build's own. */
  readonly extraPlugins?: readonly PluginEntry[];
  /** First wait before connecting again after a lost connection. */
  readonly retryMs?: number;
}

export interface WorkerApp {
  readonly loggers: Loggers;
  readonly name: string;
  readonly runtimes: WorkerHost;
  readonly client: WorkerClient;
  close(): Promise<void>;
}

function refused(detail: string): AppError {
  return new AppError('SETTINGS_INVALID', { params: { detail } });
}

/** `host:port` or `[v6]:port`, as `svc.workers.connect` checks it. */
function hostAndPort(value: string): { host: string; port: number } {
  const split = value.lastIndexOf(':');
  const host = value.slice(0, split).replace(/^\[(.*)\]$/, '$1');
  return { host, port: Number(value.slice(split + 1)) };
}

/**
 * Checks the worker's settings and loads its plugins, then starts connecting;
 * `client.connected` tells when it is.
 */
export async function createWorkerApp(options: WorkerAppOptions): Promise<WorkerApp> {
  const { settings, buildInfo } = options;
  // The same collector settings as the server whose nodes a worker runs.
  turnOffPretenuring();
  if (!buildInfo.workers) {
    throw refused(
      'svc.workers.role=worker needs a build with remote workers (npm run build -- --svc.workers=true)',
    );
  }
  const connect = settings['svc.workers.connect'];
  if (connect === null) {
    throw refused(
      'A worker needs svc.workers.connect (SVC_WORKERS_CONNECT): the control plane as host:port',
    );
  }
  const token = settings['svc.workers.token'];
  if (token === null) {
    throw refused(
      'A worker needs svc.workers.token (SVC_WORKERS_TOKEN): the token the control plane expects',
    );
  }
  const plugins = createPluginRegistry({
    settings,
    optionalPlugins: buildInfo.plugins,
    ...(options.extraPlugins === undefined ? {} : { extraPlugins: options.extraPlugins }),
    // A worker runs the directory's processors placed on it: it loads them as the server does.
    directoryPlugins: await loadPluginDirectory(settings['svc.plugins.dir'], {
      native: buildInfo.native !== undefined,
    }),
  });
  const types = settings['svc.workers.plugin-types'];
  if (types.length === 0) {
    throw refused('A worker needs svc.workers.plugin-types: the plugin types it runs');
  }
  for (const type of types) {
    const plugin = plugins.find(type);
    if (plugin === undefined) {
      throw refused(
        `svc.workers.plugin-types names '${type}': ${plugins.excludedReason(type) ?? 'no such plugin type'}`,
      );
    }
    if (plugin.kind !== 'processor') {
      throw refused(
        `svc.workers.plugin-types names '${type}', a ${plugin.kind}: only processors can run on a worker`,
      );
    }
  }
  const loggers = options.loggers ?? loggersFor(settings);
  const bundle = settings['svc.workers.ssl-bundle'];
  const name = settings['svc.workers.name'] ?? `${os.hostname()}:${process.pid}`;
  const runtimes = new WorkerHost({
    catalog: plugins,
    pluginTypes: new Set(types),
    resolveConfig: createConfigResolver({ env: options.env ?? process.env, settings }),
    // Plugin log lines stay on the worker (SPEC "Log line losses"), beside the engine's own.
    logger: loggers.engine,
  });
  const { host, port } = hostAndPort(connect);
  const client = new WorkerClient({
    host,
    port,
    token,
    name,
    pool: settings['svc.workers.pool'],
    slots: settings['svc.workers.slots'],
    pluginTypes: types,
    maxInFlight: settings['svc.workers.max-in-flight'],
    heartbeatMs: settings['svc.workers.heartbeat'],
    tls: bundle === null ? undefined : readTlsBundle(bundle),
    runtimes,
    logger: loggers.app,
    ...(options.retryMs === undefined ? {} : { retryMs: options.retryMs }),
  });
  client.start();
  return {
    loggers,
    name,
    runtimes,
    client,
    close: async () => {
      await client.close();
      await plugins.close();
    },
  };
}
