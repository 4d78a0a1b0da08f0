// Composition root: settings -> stores -> plugins -> services -> HTTP edge.
import type { FastifyInstance } from 'fastify';
import { KeyRing } from './auth/index.js';
import { createOrderedIds, randomIds, systemClock, turnOffPretenuring } from './core/index.js';
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
  leaderOnlyWrites,
} from './executions/index.js';
import type { Leadership } from './executions/index.js';
import { createHighAvailability, highAvailabilityOf } from './high-availability.js';
import type { AnswerMismatch, RouteEntry } from './http/index.js';
import {
  EventStreams,
  actuatorRoutes,
  controlRoutes,
  createHttpServer,
  eventRoutes,
  executionControlRoutes,
  executionRoutes,
  activationRoutes,
  hookRoutes,
  openApiRoutes,
  pluginRoutes,
  registerOpenApi,
  restartRoutes,
  deadLetterRoutes,
  sessionRoutes,
  uiRoutes,
  workerRoutes,
  workflowRoutes,
} from './http/index.js';
import { MCP_TOOLS, mcpEndpoint } from './mcp/index.js';
import { Meters, createTracer, loggersFor } from './observability/index.js';
import type { Loggers } from './observability/index.js';
import { createPluginRegistry, loadPluginDirectory } from './plugins/index.js';
import type { PluginEntry, PluginRegistry } from './plugins/index.js';
import {
  AlwaysOn,
  DeadLetterService,
  ExecutionService,
  HookService,
  SessionService,
} from './services/index.js';
import {
  MemorySessionMemory,
  PostgresIdempotencyStore,
  PostgresSessionMemory,
} from './stores/index.js';
import type { SkippedLinesListener } from './stores/index.js';
import { WorkerRegistry, controlPlaneFromSettings } from './workers/index.js';
import type { ControlPlaneServer } from './workers/index.js';

import {
  checkpointStoreFor,
  databaseFor,
  deadLetterStoreFor,
  executionLogFor,
  relational,
  sessionStoreFor,
} from './app-stores.js';

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
  /**
   * High availability: this server lost its leadership and has stopped acting as the leader
   * (docs/high-availability.md). The process is expected to stop; it serves reads meanwhile.
   */
  readonly onFenced?: (reason: string) => void;
  /** Holds every answer to its documented schema (the tests turn it on; see answer-check.ts). */
  readonly checkAnswers?: (mismatch: AnswerMismatch) => void;
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
  /** Connected remote workers (docs/workers.md). */
  readonly workers: WorkerRegistry;
  /** With high availability, whether this server leads its pair; none without. */
  readonly leadership: Leadership | undefined;
  /**
   * Listens on the configured address and port; answers the bound address and port, and where
   * workers connect when this control plane accepts them.
   */
  listen(): Promise<{ address: string; port: number; workers?: Address }>;
  close(): Promise<void>;
}

interface Address {
  readonly address: string;
  readonly port: number;
}

export async function createApp(options: AppOptions): Promise<App> {
  const { settings, buildInfo } = options;
  // Before any workload: V8's pretenuring misjudges the events the histories keep.
  turnOffPretenuring();
  // Before anything is opened: a bad plugin stops start-up with nothing to close.
  const directoryPlugins = await loadPluginDirectory(settings['svc.plugins.dir'], {
    native: buildInfo.native !== undefined,
  });
  const loggers = options.loggers ?? loggersFor(settings);
  const haSettings = highAvailabilityOf(settings);
  const database = await databaseFor(settings, buildInfo, loggers);
  const ha =
    haSettings === undefined
      ? undefined
      : createHighAvailability(haSettings, relational(database), loggers.app);
  const leadership = ha?.leadership;
  const ownStore = options.store ?? sessionStoreFor(settings, database);
  const store =
    leadership === undefined ? ownStore : leaderOnlyWrites(ownStore, () => leadership.isLeader);
  await store.open();
  const plugins = createPluginRegistry({
    settings,
    optionalPlugins: buildInfo.plugins,
    ...(options.extraPlugins === undefined ? {} : { extraPlugins: options.extraPlugins }),
    directoryPlugins,
  });
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? randomIds;
  // SESSION_MEMORY histories live with the sessions: in the database when sessions do.
  const sessionMemory =
    database !== undefined && settings['svc.session.store-type'] === 'postgres'
      ? new PostgresSessionMemory({ db: database, ttlMs: settings['svc.session-memory.ttl'] })
      : new MemorySessionMemory();
  const sessions = new SessionService({
    store,
    catalog: plugins,
    clock,
    ids,
    workers: buildInfo.workers,
    sessionMemory,
  });
  const meters = new Meters();
  // SPEC Tracing: spans only when the standard OTEL_* variables ask for them.
  const tracer = createTracer(options.env ?? process.env, {
    version: buildInfo.version,
    warn: (message) => {
      loggers.app.warn(message);
    },
  });
  const resolveConfig = createConfigResolver({ env: options.env ?? process.env, settings });
  const registry = new ExecutionRegistry({
    maxExecutions: settings['svc.execution-log.retained-runs'],
    resultsPerExecution: settings['svc.results.max-per-execution'],
    logsPerExecution: settings['svc.logs.max-per-execution'],
    logRetentionMs: settings['svc.logs.store.retention.default-period-minutes'] * 60_000,
    maxSessions: settings['svc.tracker.max-sessions'],
    resultExecutions: settings['svc.results.max-executions'],
    resultTtlMs: settings['svc.results.ttl'],
    resultBytes: settings['svc.results.max-bytes'],
    logBytes: settings['svc.logs.store.max-bytes'],
    onBudgetDrop: (store, entries) => {
      meters.count('svc.memory.dropped', { store }, entries);
    },
    now: () => clock.now(),
  });
  // A crash can tear the last line of a file store's file; nothing acknowledged is in it.
  const skippedLines =
    (store: string): SkippedLinesListener =>
    ({ lines, files }) => {
      loggers.app.warn(
        { lines, files },
        `${store}: skipped ${lines} truncated line${lines === 1 ? '' : 's'} left by a crash`,
      );
    };
  const checkpoints = checkpointStoreFor(
    settings,
    database,
    skippedLines('Checkpoint files'),
    (messages) => {
      meters.count('svc.memory.dropped', { store: 'checkpoints' }, messages);
    },
  );
  // A standby loads the checkpoint store's list of executions when it takes over: until then
  // the leader adds to it.
  if (ha === undefined) await checkpoints.open();
  meters.observe('svc.checkpoint.bytes', () => checkpoints.bytes);
  const deadLetterStore = deadLetterStoreFor(settings, database, (letters) => {
    meters.count('svc.memory.dropped', { store: 'dead-letters' }, letters);
  });
  if (ha === undefined) await deadLetterStore.open();
  const journal = new ExecutionJournal({
    store: executionLogFor(
      settings,
      database,
      (type) => {
        meters.count('svc.tracker.log.append.failed', { type });
      },
      ha?.fence,
      skippedLines('Execution log'),
    ),
    retainedRuns: settings['svc.execution-log.retained-runs'],
    compactAfter: settings['svc.execution-log.compact-after'],
    now: () => clock.now(),
    onDrop: (executionId) => {
      checkpoints.drop(executionId).catch((error: unknown) => {
        loggers.app.warn({ executionId, err: error }, 'Checkpoints of a dropped run stay on disk');
      });
      // Dead letters go with the checkpoints a redrive would replay.
      deadLetterStore.drop(executionId).catch((error: unknown) => {
        loggers.app.warn({ executionId, err: error }, 'Dead letters of a dropped run stay stored');
      });
    },
    onCompactionFailed: (error) => {
      loggers.app.warn({ err: error }, 'The execution log could not be compacted; it stays whole');
    },
    outputsOf: (executionId) => {
      const entry = registry.get(executionId);
      return entry === undefined ? undefined : registry.outputsOf(entry);
    },
  });
  meters.observe('svc.tracker.queue.depth', () => journal.pending);
  // Numbered from the boot time: 1,000 numbers a millisecond of uptime before a restart
  // could reach those of the next server, far more than a server publishes.
  const bus = new EventBus(10_000, clock.now() * 1000, {
    maxBytes: settings['svc.streaming.event-history-max-bytes'],
    onDrop: (events) => {
      meters.count('svc.memory.dropped', { store: 'events' }, events);
    },
  });
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
  // Remote workers (docs/workers.md): the registry answers GET /api/workers and the meters in
  // every build; only a build with workers listens for them.
  const workerRegistry = new WorkerRegistry({ clock, ids });
  meters.observe('svc.workers', () => workerRegistry.connected);
  meters.observe('svc.worker.slots', () => workerRegistry.freeSlots);
  const controlPlane: ControlPlaneServer | undefined = buildInfo.workers
    ? controlPlaneFromSettings(settings, {
        registry: workerRegistry,
        logger: loggers.app,
        // SPEC: a worker is refused when the server is a standby.
        isLeader: () => leadership?.isLeader ?? true,
      })
    : undefined;
  const executions = new ExecutionManager({
    sessionMemory,
    meters,
    ...(tracer === undefined ? {} : { tracer }),
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
    queueCapacityPerWorkflow: settings['svc.execution.queue-capacity-per-workflow'],
    idempotency: {
      maxKeys: settings['svc.start.idempotency-max-keys'],
      ttlMs: settings['svc.start.idempotency-ttl'],
    },
    // Keys go with the run history: in the database with the relational execution log, so
    // that a start retried at a new leader of a pair finds the key the old leader bound.
    ...(settings['svc.execution-log.store-type'] === 'postgres'
      ? { idempotencyStore: new PostgresIdempotencyStore(relational(database)) }
      : {}),
    resolveConfig,
    store,
    catalog: plugins,
    registry,
    clock,
    ids,
    logger: loggers.engine,
    workers: buildInfo.workers,
    placement: buildInfo.workers ? workerRegistry : undefined,
    runDeadlineMs: settings['svc.session.execution-timeout-seconds'] * 1000,
    maxPayloadBytes: settings['svc.limits.max-payload'],
    planTtlMs: settings['svc.workflow.cache-ttl'],
    ...(leadership === undefined ? {} : { leadership }),
    // Runs start only once the app is built, and with it the dead-letter service.
    deadLettered: (entry, letter) => {
      deadLetters.keep(entry, letter);
    },
  });
  if (leadership !== undefined) {
    meters.observe('svc.leader', () => (leadership.isLeader ? 1 : 0));
  }

  const keys = keyRingOf(settings);
  const { fastify, routes } = await createHttpServer({
    requestsPerMinute: settings['svc.rate-limit.requests-per-minute'],
    accessLog: settings['svc.logging.access-log'],
    // A standby takes over within a renew interval of a graceful stop of its leader.
    retryAfterSeconds: Math.max(1, Math.ceil(settings['svc.ha.renew-interval'] / 1000)),
    access: {
      keys,
      allowedHosts: settings['svc.allowed-hosts'],
      allowedOrigins: settings['svc.allowed-origins'],
      sessionOfExecution: (executionId) => registry.get(executionId)?.sessionId,
    },
    logger: loggers.app,
    ...(options.checkAnswers === undefined ? {} : { checkAnswers: options.checkAnswers }),
    bodyLimit: settings['svc.limits.max-body'],
    compression: {
      enabled: settings['svc.server.compression.enabled'],
      threshold: settings['svc.server.compression.min-response-size'],
    },
  });
  await registerOpenApi(fastify);
  // Route plugins get their own context; the hooks, error and not-found handlers of the root,
  // set before them, apply to every route.
  await fastify.register(sessionRoutes, { sessions });
  await fastify.register(workflowRoutes, { sessions });
  await fastify.register(pluginRoutes, { plugins });
  await fastify.register(workerRoutes, { view: () => workerRegistry.view() });
  const audit = new AuditLog({
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
  });
  const executionService = new ExecutionService({
    executions,
    registry,
    audit,
    supervisors: new Supervisors(settings['svc.supervisors']),
    bus,
    feeds: new EventFeeds(bus, {
      capacity: SSE_QUEUED,
      frame: (event) => event.frame(),
      maxBytes: settings['svc.streaming.event-history-max-bytes'],
      onDrop: (events) => {
        meters.count('svc.memory.dropped', { store: 'streams' }, events);
      },
    }),
    progress,
  });
  // Always-on workflows: kept going by the leading server only (docs/always-on.md).
  const alwaysOn = new AlwaysOn({
    sessions,
    executions: executionService,
    now: () => clock.now(),
    warn: (fields, message) => {
      loggers.app.warn(fields, message);
    },
  });
  const deadLetters = new DeadLetterService({
    store: deadLetterStore,
    executions: executionService,
    meters,
    clock,
    // Letters are listed newest first and two can share a millisecond: their ids keep the order.
    ids: options.ids ?? createOrderedIds(() => clock.now()),
    keepFailed: (letter, error) => {
      loggers.app.warn(
        { executionId: letter.executionId, nodeId: letter.nodeId, err: error },
        'A dead letter could not be stored',
      );
    },
  });
  const ruleSupervisors = startRuleSupervisors(settings['svc.supervisors'], {
    bus,
    executions,
    audit,
    meters,
  });
  await fastify.register(executionRoutes, { executions: executionService });
  await fastify.register(controlRoutes, { executions: executionService });
  await fastify.register(executionControlRoutes, { executions: executionService });
  await fastify.register(restartRoutes, { executions: executionService });
  await fastify.register(activationRoutes, { alwaysOn });
  await fastify.register(deadLetterRoutes, { deadLetters });
  await fastify.register(hookRoutes, {
    hooks: new HookService({ sessions, executions: executionService, resolveConfig }),
  });
  if (settings['svc.mcp.enabled']) {
    await fastify.register(mcpEndpoint, {
      deps: { sessions, executions: executionService, plugins, deadLetters },
      tools: MCP_TOOLS,
      version: buildInfo.version,
      logger: loggers.app,
    });
  }
  const streams = new EventStreams({
    keepAliveMs: options.streamKeepAliveMs ?? 15_000,
    maxQueued: SSE_QUEUED,
  });
  await fastify.register(eventRoutes, { executions: executionService, streams });
  await fastify.register(actuatorRoutes, {
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
      ...(ha === undefined
        ? {}
        : {
            leadership: {
              status: 'UP',
              details: { serverId: ha.serverId, state: ha.leadership.state },
            },
          }),
    }),
  });
  await fastify.register(openApiRoutes);
  await fastify.register(uiRoutes, {
    compression: {
      enabled: settings['svc.server.compression.enabled'],
      threshold: settings['svc.server.compression.min-response-size'],
    },
  });
  await fastify.ready();
  if (leadership === undefined) {
    // SPEC "Recover conditions": on boot with a durable execution log.
    await executions.boot({ autoResume: settings['svc.restart.auto-resume'] });
    audit.restore(journal.controls().map((control) => control.entry));
    await alwaysOn.lead();
  } else {
    // With high availability the same recovery runs when this server becomes the leader.
    let interrupted: readonly string[] = [];
    await leadership.start({
      recover: async () => {
        // SPEC Events 6: a takeover drops every open stream; events from here on are numbered
        // above those the old leader sent, so a client resuming with Last-Event-ID misses none.
        streams.closeAll();
        bus.skipTo(clock.now() * 1000);
        await checkpoints.open();
        await deadLetterStore.open();
        interrupted = await executions.boot({ autoResume: false });
        audit.restore(journal.controls().map((control) => control.entry));
      },
      lead: () => {
        void (async () => {
          if (settings['svc.restart.auto-resume']) await executions.resumeInterrupted(interrupted);
          await alwaysOn.lead();
        })().catch((error: unknown) => {
          loggers.app.error({ err: error }, 'Starting the always-on workflows failed');
        });
      },
      fenced: (reason) => {
        alwaysOn.close();
        // First: nothing more of this server's reaches the shared execution log.
        executions.fence(reason).catch((error: unknown) => {
          loggers.app.error(
            { err: error },
            'Stopping the runs of a server that lost its lease failed',
          );
        });
        streams.closeAll();
        workerRegistry.closeAll('The server is a standby');
        options.onFenced?.(reason);
      },
    });
  }

  const close = async (): Promise<void> => {
    alwaysOn.close();
    ruleSupervisors.close();
    await fastify.close();
    await executions.stopAll('Server stopping');
    await plugins.close();
    await controlPlane?.close();
    await journal.close(5_000);
    // Nothing left to write: the lease goes at once (a no-op after a graceful shutdown).
    await leadership?.release();
    await ha?.lease.close();
    await checkpoints.close();
    await deadLetterStore.close();
    await store.close();
    await database?.close();
    // Last, so that the spans of the runs the stop ended are sent too.
    await tracer?.shutdown();
  };

  return {
    fastify,
    loggers,
    plugins,
    sessions,
    executions,
    meters,
    workers: workerRegistry,
    leadership,
    routes: routes.entries(),
    async listen() {
      await fastify.listen({
        host: settings['svc.server.address'],
        port: settings['svc.server.port'],
      });
      const workers = await controlPlane?.listen();
      const bound = fastify.server.address();
      const http =
        bound === null || typeof bound === 'string'
          ? { address: settings['svc.server.address'], port: settings['svc.server.port'] }
          : { address: bound.address, port: bound.port };
      return workers === undefined ? http : { ...http, workers };
    },
    async shutdown() {
      // No run is started again while the running ones drain.
      alwaysOn.close();
      await executions.shutdown(settings['svc.execution.shutdown-timeout'], loggers.app);
      await close();
    },
    close,
  };
}

export function keyRingOf(settings: Settings): KeyRing {
  return new KeyRing({
    apiKey: settings['svc.api-key'],
    apiKeys: settings['svc.api-keys'],
    mcpApiKey: settings['svc.mcp.api-key'],
  });
}
