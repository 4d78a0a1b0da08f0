// Composition root: settings -> stores -> plugins -> services -> HTTP edge.
import type { FastifyInstance } from 'fastify';
import { KeyRing } from './auth/index.js';
import { AppError, randomIds, systemClock } from './core/index.js';
import type { Clock, IdGenerator } from './core/index.js';
import { createConfigResolver } from './config/index.js';
import type { BuildInfo, ProfileName, Settings } from './config/index.js';
import type { SessionStore } from './engine/index.js';
import {
  AuditLog,
  EventBus,
  EventFeeds,
  ProgressHistory,
  Supervisors,
  startRuleSupervisors,
} from './events/index.js';
import {
  ExecutionJournal,
  ExecutionManager,
  ExecutionRegistry,
  isStateEvent,
} from './executions/index.js';
import type { RouteEntry } from './http/index.js';
import {
  createHttpServer,
  registerActuatorRoutes,
  registerControlRoutes,
  registerEventRoutes,
  registerExecutionControlRoutes,
  registerExecutionRoutes,
  registerOpenApi,
  registerOpenApiRoutes,
  registerPluginRoutes,
  registerRestartRoutes,
  registerSessionRoutes,
  registerUiRoutes,
  registerWorkflowRoutes,
} from './http/index.js';
import { MCP_TOOLS, registerMcpEndpoint } from './mcp/index.js';
import { Meters, createLoggers } from './observability/index.js';
import type { Loggers } from './observability/index.js';
import { LlmRateLimiter, createPluginRegistry } from './plugins/index.js';
import type { PluginEntry, PluginRegistry } from './plugins/index.js';
import { SessionService } from './services/index.js';
import {
  FileExecutionLog,
  MemorySessionMemory,
  createCheckpointStore,
  createSessionStore,
} from './stores/index.js';
import type { CheckpointStore } from './engine/index.js';

/** Events an SSE client may fall behind by before it skips to the newest (SPEC Events 5). */
const SSE_QUEUED = 1_000;

export interface AppOptions {
  readonly settings: Settings;
  readonly profile: ProfileName;
  readonly buildInfo: BuildInfo;
  readonly loggers?: Loggers;
  readonly clock?: Clock;
  readonly ids?: IdGenerator;
  /** The environment `${env.NAME}` and secrets are read from; the process's by default. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** SPEC Events 2: keep-alive comments every 15 s; tests shorten it. */
  readonly streamKeepAliveMs?: number;
  /** A session store to use instead of the one the settings name. */
  readonly store?: SessionStore;
  /** Plugins of an application that embeds the server, beside the build's own. */
  readonly extraPlugins?: readonly PluginEntry[];
}

export interface App {
  readonly fastify: FastifyInstance;
  readonly loggers: Loggers;
  readonly plugins: PluginRegistry;
  readonly sessions: SessionService;
  readonly executions: ExecutionManager;
  readonly meters: Meters;
  /** Every route the server registered, by method and pattern. */
  readonly routes: readonly RouteEntry[];
  /** SPEC graceful shutdown: stops admitting, drains running executions, then closes. */
  shutdown(): Promise<void>;
  /** Listens on the configured address and port; answers the bound address and port. */
  listen(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}

export async function createApp(options: AppOptions): Promise<App> {
  const { settings, buildInfo } = options;
  const loggers =
    options.loggers ??
    createLoggers({
      root: settings['svc.logging.level.root'],
      app: settings['svc.logging.level.app'],
      engine: settings['svc.logging.level.engine'],
    });
  const store = options.store ?? sessionStoreFor(settings, buildInfo);
  await store.open();
  const plugins = createPluginRegistry({
    optionalPlugins: buildInfo.plugins,
    ...(options.extraPlugins === undefined ? {} : { extraPlugins: options.extraPlugins }),
  });
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? randomIds;
  const sessionMemory = new MemorySessionMemory();
  const sessions = new SessionService({
    store,
    catalog: plugins,
    clock,
    ids,
    workers: buildInfo.workers,
    sessionMemory,
  });
  const registry = new ExecutionRegistry({
    maxExecutions: settings['svc.execution-log.retained-runs'],
    resultsPerExecution: settings['svc.results.max-per-execution'],
    logsPerExecution: 10_000,
    logRetentionMs: settings['svc.logs.store.retention.default-period-minutes'] * 60_000,
    maxSessions: settings['svc.tracker.max-sessions'],
    resultExecutions: settings['svc.results.max-executions'],
    resultTtlMs: settings['svc.results.ttl'],
    now: () => clock.now(),
  });
  const meters = new Meters();
  const checkpoints = checkpointStoreFor(settings);
  await checkpoints.open();
  meters.observe('svc.checkpoint.bytes', () => checkpoints.bytes);
  const logDir = settings['svc.execution-log.dir'];
  const journal = new ExecutionJournal({
    store:
      logDir === null
        ? undefined
        : new FileExecutionLog({
            dir: logDir,
            onAppendFailed: (type) => {
              meters.count('svc.tracker.log.append.failed', { type });
            },
          }),
    retainedRuns: settings['svc.execution-log.retained-runs'],
    compactAfter: settings['svc.execution-log.compact-after'],
    now: () => clock.now(),
    onDrop: (executionId) => {
      checkpoints.drop(executionId).catch((error: unknown) => {
        loggers.app.warn({ executionId, err: error }, 'Checkpoints of a dropped run stay on disk');
      });
    },
    onCompactionFailed: (error) => {
      loggers.app.warn({ err: error }, 'The execution log could not be compacted; it stays whole');
    },
  });
  meters.observe('svc.tracker.queue.depth', () => journal.pending);
  // Numbered from the boot time: 1,000 numbers a millisecond of uptime before a restart
  // could reach those of the next server, far more than a server publishes.
  const bus = new EventBus(10_000, clock.now() * 1000);
  const progress = new ProgressHistory({
    perExecution: settings['svc.streaming.status-history-max-snapshots'],
    executions: settings['svc.streaming.status-history-max-executions'],
    ttlMs: settings['svc.streaming.status-history-ttl-minutes'] * 60_000,
    now: () => clock.now(),
  });
  bus.subscribe(
    (event) => isStateEvent(event.kind),
    (numbered) => {
      progress.record(numbered);
    },
  );
  const executions = new ExecutionManager({
    sessionMemory,
    meters,
    checkpoints,
    journal,
    retainedForRestart: settings['svc.restart.retained-executions'],
    events: (event) => {
      bus.publish(event);
    },
    limits: {
      maxConcurrent: settings['svc.execution.max-concurrent'],
      maxPerSession: settings['svc.execution.max-concurrent-per-session'],
      maxPerWorkflow: settings['svc.execution.max-concurrent-per-workflow'],
      onLimit: settings['svc.execution.on-limit'],
      queueCapacity: settings['svc.execution.queue-capacity'],
      queueTimeout: settings['svc.execution.queue-timeout'],
    },
    idempotency: {
      maxKeys: settings['svc.start.idempotency-max-keys'],
      ttlMs: settings['svc.start.idempotency-ttl'],
    },
    safeguards: {
      processAllowedCommands: settings['svc.process.allowed-commands'],
      processAllowAny: settings['svc.process.allow-any'],
      scriptTimeoutMs: settings['svc.script.timeout-ms'],
      scriptMaxStatements: settings['svc.script.max-statements'],
      filesBaseDir: settings['svc.files.base-dir'],
      mcpAllowedTools: settings['svc.mcp-client.allowed-tools'],
      mcpMaxArgumentBytes: settings['svc.mcp-client.max-argument-bytes'],
      mcpDenyArgumentPatterns: settings['svc.mcp-client.deny-argument-patterns'].map(
        (pattern) => new RegExp(pattern),
      ),
      llmDenyInputPatterns: settings['svc.llm.deny-input-patterns'].map(
        (pattern) => new RegExp(pattern),
      ),
      llmDenyOutputPatterns: settings['svc.llm.deny-output-patterns'].map(
        (pattern) => new RegExp(pattern),
      ),
      llmMaxInputChars: settings['svc.llm.max-input-chars'],
      llmRequests: new LlmRateLimiter(settings['svc.llm.rate-limit.*']),
    },
    resolveConfig: createConfigResolver({ env: options.env ?? process.env, settings }),
    store,
    catalog: plugins,
    registry,
    clock,
    ids,
    logger: loggers.engine,
    workers: buildInfo.workers,
    runDeadlineMs: settings['svc.session.execution-timeout-seconds'] * 1000,
    planTtlMs: settings['svc.workflow.cache-ttl'],
  });

  const keys = keyRingOf(settings);
  const { fastify, routes } = await createHttpServer({
    access: {
      keys,
      allowedHosts: settings['svc.allowed-hosts'],
      allowedOrigins: settings['svc.allowed-origins'],
      sessionOfExecution: (executionId) => registry.get(executionId)?.sessionId,
    },
    logger: loggers.app,
    bodyLimit: settings['svc.limits.max-body'],
    compression: {
      enabled: settings['svc.server.compression.enabled'],
      threshold: settings['svc.server.compression.min-response-size'],
    },
  });
  await registerOpenApi(fastify);
  registerSessionRoutes(fastify, sessions);
  registerWorkflowRoutes(fastify, sessions);
  registerPluginRoutes(fastify, plugins);
  const desk = {
    audit: new AuditLog({
      capacity: 10_000,
      clock,
      ids,
      onRecord: (entry) => {
        journal.control(entry.executionId, { ...entry });
        const run = entry.executionId === null ? undefined : registry.get(entry.executionId);
        const { nodeId, ...command } = entry;
        bus.publish({
          ...command,
          ...(nodeId === null ? {} : { nodeId }),
          kind: entry.outcome === 'APPLIED' ? 'control.applied' : 'control.refused',
          executionId: entry.executionId,
          sessionId: run?.sessionId ?? null,
          workflowId: run?.workflowId ?? null,
        });
      },
    }),
    supervisors: new Supervisors(settings['svc.supervisors']),
    sessionOf: (executionId: string) => registry.get(executionId)?.sessionId ?? null,
  };
  const ruleSupervisors = startRuleSupervisors(settings['svc.supervisors'], {
    bus,
    executions,
    audit: desk.audit,
    meters,
  });
  registerExecutionRoutes(fastify, executions, registry, desk);
  registerControlRoutes(fastify, desk, executions);
  registerExecutionControlRoutes(fastify, executions, desk);
  registerRestartRoutes(fastify, executions, desk);
  if (settings['svc.mcp.enabled']) {
    registerMcpEndpoint(fastify, {
      deps: { sessions, executions, registry, plugins, desk },
      tools: MCP_TOOLS,
      version: buildInfo.version,
      logger: loggers.app,
    });
  }
  registerEventRoutes(fastify, {
    bus,
    feeds: new EventFeeds(bus, { capacity: SSE_QUEUED, frame: (event) => event.frame() }),
    progress,
    executions,
    registry,
    sse: { keepAliveMs: options.streamKeepAliveMs ?? 15_000, maxQueued: SSE_QUEUED },
  });
  registerActuatorRoutes(fastify, {
    exposure: settings['svc.management.exposure.include'],
    buildInfo,
    profile: options.profile,
    meters,
    loggers,
    routes: () => routes.entries(),
    open: !keys.guards('rest'),
    health: () => ({
      sessionStore: { status: 'UP', details: { type: store.kind } },
      executions: { status: 'UP', details: { running: executions.running } },
    }),
  });
  await registerOpenApiRoutes(fastify);
  await registerUiRoutes(fastify, {
    compression: {
      enabled: settings['svc.server.compression.enabled'],
      threshold: settings['svc.server.compression.min-response-size'],
    },
  });
  await fastify.ready();
  // SPEC "Recover conditions": on boot with a durable execution log.
  await executions.boot({ autoResume: settings['svc.restart.auto-resume'] });
  desk.audit.restore(journal.controls().map((control) => control.entry));

  const close = async (): Promise<void> => {
    ruleSupervisors.close();
    await fastify.close();
    await executions.stopAll('Server stopping');
    await journal.close(5_000);
    await checkpoints.close();
    await store.close();
  };

  return {
    fastify,
    loggers,
    plugins,
    sessions,
    executions,
    meters,
    routes: routes.entries(),
    async listen() {
      await fastify.listen({
        host: settings['svc.server.address'],
        port: settings['svc.server.port'],
      });
      const bound = fastify.server.address();
      if (bound === null || typeof bound === 'string') {
        return { address: settings['svc.server.address'], port: settings['svc.server.port'] };
      }
      return { address: bound.address, port: bound.port };
    },
    async shutdown() {
      await executions.shutdown(settings['svc.execution.shutdown-timeout']);
      await close();
    },
    close,
  };
}

function sessionStoreFor(settings: Settings, buildInfo: BuildInfo): SessionStore {
  const type = settings['svc.session.store-type'];
  switch (type) {
    case 'memory':
      return createSessionStore({ type: 'memory' });
    case 'file':
      return createSessionStore({ type: 'file', baseDir: settings['svc.session.base-dir'] });
    case 'postgres':
      throw new AppError('SETTINGS_INVALID', {
        params: {
          detail: buildInfo.persistence
            ? "svc.session.store-type 'postgres' is not available yet in this build"
            : "svc.session.store-type 'postgres' needs the relational-database stores, which this build does not include (build with svc.persistence=postgres)",
        },
      });
  }
}

/**
 * SPEC "Limits": memory (default), memory with spill files, or files. Setting
 * `svc.restart.dir` alone is enough for files, as the deployment facts describe.
 */
function checkpointStoreFor(settings: Settings): CheckpointStore {
  const type = settings['svc.restart.store-type'];
  const dir = settings['svc.restart.dir'];
  if (type === 'postgres') {
    throw new AppError('SETTINGS_INVALID', {
      params: { detail: "svc.restart.store-type 'postgres' is not available yet in this build" },
    });
  }
  if (type === 'file' || dir !== null) {
    return createCheckpointStore({ type: 'file', dir: dir ?? 'data/checkpoints' });
  }
  return createCheckpointStore({
    type: 'memory',
    messagesPerNode: settings['svc.restart.messages-per-node'],
    bytesPerNode: settings['svc.restart.bytes-per-node'],
    spillDir: settings['svc.restart.spill-dir'],
  });
}

export function keyRingOf(settings: Settings): KeyRing {
  return new KeyRing({
    apiKey: settings['svc.api-key'],
    apiKeys: settings['svc.api-keys'],
    mcpApiKey: settings['svc.mcp.api-key'],
  });
}
