// Management endpoints under /actuator (SPEC "Management and documentation endpoints"). Their
// bodies follow the actuator conventions these endpoint ids come from (`{ "status": "UP" }`
// for health), not the API envelope; errors still use the envelope.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { delayMsOf } from './event-loop-delay.js';
import type { FastifyPluginCallback } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isUnrestrictedAdmin } from '../auth/index.js';
import { AppError } from '../core/index.js';
import type { BuildInfo } from '../config/index.js';
import { METER_CATALOGUE, describeMeter, isMeterName, pinoLevel } from '../observability/index.js';
import type { LogLevelName, Loggers, Meters } from '../observability/index.js';
import type { RouteEntry } from './route-table.js';

/** Endpoint ids of SPEC's exposure lists; `prometheus` follows `metrics`. */
export const ACTUATOR_ENDPOINTS = [
  'health',
  'info',
  'metrics',
  'loggers',
  'mappings',
  'threaddump',
] as const;

export interface ActuatorOptions {
  /** Exposed endpoint ids (`*` for all), from the profile or `svc.management.exposure.include`. */
  readonly exposure: readonly string[];
  readonly buildInfo: BuildInfo;
  readonly profile: string;
  readonly meters: Meters;
  readonly loggers: Loggers;
  readonly routes: () => readonly RouteEntry[];
  /** Whether callers without a key count as authorized (no REST key is configured). */
  readonly open: boolean;
  readonly health: () => Readonly<
    Record<string, { status: string; details?: Record<string, unknown> }>
  >;
}

/** The levels a logger can be set to; OFF silences it. */
export const LOG_LEVELS: readonly LogLevelName[] = [
  'TRACE',
  'DEBUG',
  'INFO',
  'WARN',
  'ERROR',
  'OFF',
];
const LOGGER_NAMES = { ROOT: 'root', app: 'app', engine: 'engine' } as const;
type LoggerName = keyof typeof LOGGER_NAMES;

function levelName(level: string): LogLevelName {
  return level === 'silent' ? 'OFF' : (level.toUpperCase() as LogLevelName);
}

export const actuatorRoutes: FastifyPluginCallback<ActuatorOptions> = (app, options, done) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const exposed = (id: string): boolean =>
    options.exposure.includes('*') || options.exposure.includes(id);
  const configured = new Map<LoggerName, LogLevelName | null>();
  const delay = monitorEventLoopDelay({ resolution: 20 });
  delay.enable();
  app.addHook('onClose', () => {
    delay.disable();
  });

  if (exposed('health')) {
    app.get('/actuator/health', (request) => {
      const components = options.health();
      const down = Object.values(components).some((component) => component.status !== 'UP');
      const authorized =
        request.principal === null ? options.open : isUnrestrictedAdmin(request.principal);
      return Promise.resolve(
        authorized
          ? { status: down ? 'DOWN' : 'UP', components }
          : { status: down ? 'DOWN' : 'UP' },
      );
    });
  }

  app.get('/actuator', () =>
    Promise.resolve({
      _links: Object.fromEntries(
        [...ACTUATOR_ENDPOINTS, 'prometheus']
          .filter((id) => exposed(id === 'prometheus' ? 'metrics' : id) || exposed(id))
          .map((id) => [id, { href: `/actuator/${id}` }]),
      ),
    }),
  );

  if (exposed('info')) {
    app.get('/actuator/info', () =>
      Promise.resolve({
        build: {
          version: options.buildInfo.version,
          commit: options.buildInfo.commit,
          time: options.buildInfo.buildTime,
          plugins: options.buildInfo.plugins,
          persistence: options.buildInfo.persistence,
          workers: options.buildInfo.workers,
        },
        profile: options.profile,
        // The Node.js line the server runs on (the native binary carries its own).
        runtime: { name: 'node', version: process.versions.node },
      }),
    );
  }

  if (exposed('metrics') || exposed('prometheus')) {
    app.get('/actuator/prometheus', async (_request, reply) => {
      void reply.type(options.meters.registry.contentType);
      return options.meters.registry.metrics();
    });
  }

  if (exposed('metrics')) {
    app.get('/actuator/metrics', () =>
      Promise.resolve({ names: METER_CATALOGUE.map((spec) => spec.name).sort() }),
    );
    api.get(
      '/actuator/metrics/:name',
      {
        schema: {
          params: z.object({ name: z.string() }),
          querystring: z.object({ tag: z.union([z.string(), z.array(z.string())]).optional() }),
        },
      },
      async (request) => {
        const { name } = request.params;
        if (!isMeterName(name)) {
          throw new AppError('ROUTE_NOT_FOUND', {
            message: `No meter named '${name}'`,
            params: {},
          });
        }
        const tags: Record<string, string> = {};
        const given = request.query.tag;
        for (const pair of given === undefined ? [] : Array.isArray(given) ? given : [given]) {
          const colon = pair.indexOf(':');
          if (colon <= 0) {
            throw new AppError('VALIDATION_FAILED', {
              fieldErrors: [{ field: 'tag', message: `Tag '${pair}' must be written key:value` }],
            });
          }
          tags[pair.slice(0, colon)] = pair.slice(colon + 1);
        }
        return describeMeter(options.meters, name, tags);
      },
    );
  }

  if (exposed('loggers')) {
    const describe = (name: LoggerName) => ({
      configuredLevel: configured.get(name) ?? null,
      effectiveLevel: levelName(options.loggers[LOGGER_NAMES[name]].level),
    });
    const loggerName = z.enum(['ROOT', 'app', 'engine'], {
      error: 'Unknown logger; use ROOT, app or engine',
    });
    app.get('/actuator/loggers', () =>
      Promise.resolve({
        levels: LOG_LEVELS,
        loggers: Object.fromEntries(
          (Object.keys(LOGGER_NAMES) as LoggerName[]).map((name) => [name, describe(name)]),
        ),
      }),
    );
    api.get(
      '/actuator/loggers/:name',
      { schema: { params: z.object({ name: loggerName }) } },
      (request) => Promise.resolve(describe(request.params.name)),
    );
    api.post(
      '/actuator/loggers/:name',
      {
        schema: {
          params: z.object({ name: loggerName }),
          body: z.strictObject({ configuredLevel: z.enum(LOG_LEVELS).nullable() }),
        },
      },
      async (request, reply) => {
        const { name } = request.params;
        const level = request.body.configuredLevel;
        configured.set(name, level);
        // Resetting puts the profile's level back, which is the level it started with.
        options.loggers[LOGGER_NAMES[name]].level = pinoLevel(
          level ?? options.loggers.initial[LOGGER_NAMES[name]],
        );
        return reply.code(204).send();
      },
    );
  }

  if (exposed('mappings')) {
    app.get('/actuator/mappings', () =>
      Promise.resolve({
        routes: options
          .routes()
          .filter((route) => route.method !== 'HEAD')
          .map((route) => ({ method: route.method, url: route.url })),
      }),
    );
  }

  if (exposed('threaddump')) {
    // Node has one JavaScript thread: its equivalent is the event loop's state.
    app.get('/actuator/threaddump', () => {
      // @types/node types the report as a bare `object`; its fields are read as they come.
      const report = process.report.getReport() as Record<string, unknown>;
      return Promise.resolve({
        eventLoop: {
          delayMs: delayMsOf(delay),
          utilization: performance.eventLoopUtilization(),
        },
        activeResources: process.getActiveResourcesInfo(),
        memory: process.memoryUsage(),
        uptimeSeconds: process.uptime(),
        report: {
          header: report.header,
          javascriptStack: report.javascriptStack,
          libuv: report.libuv,
          workers: report.workers,
        },
      });
    });
  }
  done();
};
