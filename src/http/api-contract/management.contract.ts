// The management endpoints under /actuator (SPEC "Management and documentation endpoints") and
// the tool endpoint. Actuator bodies follow the actuator conventions, not the envelope; their
// errors still come in it. Each endpoint is there only when the exposure settings include it.
import { z } from 'zod';
import { LOG_LEVELS } from '../actuator.routes.js';
import { named } from './envelopes.js';
import { empty, jsonBody, text } from './operation.js';
import type { OperationTable } from './operation.js';

const HealthStatusSchema = z.enum(['UP', 'DOWN']);

const HealthSchema = named(
  'Health',
  z.strictObject({
    status: HealthStatusSchema.meta({ description: 'DOWN when any component is' }),
    components: z
      .record(
        z.string(),
        z.strictObject({
          status: HealthStatusSchema,
          details: z.record(z.string(), z.unknown()).optional(),
        }),
      )
      .optional()
      .meta({ description: 'Only for an unrestricted ADMIN key, or when no key is set' }),
  }),
);

const ApplicationInfoSchema = named(
  'ApplicationInfo',
  z.strictObject({
    build: z.strictObject({
      version: z.string(),
      commit: z.string(),
      time: z.string().meta({ description: 'When it was built (ISO-8601), or `unknown`' }),
      plugins: z.array(z.string()).meta({ description: 'Plugins built in' }),
      persistence: z.boolean().meta({ description: 'Whether the relational stores are built in' }),
      workers: z.boolean().meta({ description: 'Whether remote workers are built in' }),
    }),
    profile: z.string(),
    runtime: z.strictObject({ name: z.literal('node'), version: z.string() }),
  }),
);

const MeterSchema = named(
  'Meter',
  z.strictObject({
    name: z.string(),
    description: z.string(),
    baseUnit: z.string().nullable(),
    measurements: z
      .array(
        z.strictObject({ statistic: z.enum(['COUNT', 'VALUE', 'TOTAL_TIME']), value: z.number() }),
      )
      .meta({ description: 'Summed over the samples whose tags match the `tag` filters' }),
    availableTags: z.array(z.strictObject({ tag: z.string(), values: z.array(z.string()) })),
  }),
);

const LogLevelSchema = z.enum(LOG_LEVELS);

const LoggerLevelsSchema = named(
  'LoggerLevels',
  z.strictObject({
    configuredLevel: LogLevelSchema.nullable().meta({
      description: 'Set through this endpoint; null: the profile decides',
    }),
    effectiveLevel: LogLevelSchema,
  }),
);

const LoggersSchema = named(
  'Loggers',
  z.strictObject({
    levels: z.array(LogLevelSchema),
    loggers: z.strictObject({
      ROOT: LoggerLevelsSchema,
      app: LoggerLevelsSchema,
      engine: LoggerLevelsSchema,
    }),
  }),
);

/** Node has one JavaScript thread: the dump is the event loop's state. */
const ThreadDumpSchema = named(
  'ThreadDump',
  z.strictObject({
    eventLoop: z.strictObject({
      delayMs: z
        .strictObject({
          min: z.number(),
          max: z.number(),
          mean: z.number(),
          p50: z.number(),
          p99: z.number(),
        })
        .meta({ description: 'Event loop delay since the server started' }),
      utilization: z.strictObject({
        idle: z.number(),
        active: z.number(),
        utilization: z.number(),
      }),
    }),
    activeResources: z.array(z.string()),
    memory: z.record(z.string(), z.number()).meta({ description: 'Bytes, by kind of memory' }),
    uptimeSeconds: z.number(),
    report: z
      .strictObject({
        header: z.unknown(),
        javascriptStack: z.unknown(),
        libuv: z.unknown(),
        workers: z.unknown(),
      })
      .meta({ description: "Parts of Node's diagnostic report, as Node writes them" }),
  }),
);

/**
 * A JSON-RPC 2.0 response. The tool endpoint writes it past the serialiser, and its description
 * is written by hand (openapi.ts): this names the operation and its answer only.
 */
const JsonRpcId = z.union([z.string(), z.int()]).nullable();

const JsonRpcResponseSchema = z
  .union([
    z.strictObject({
      jsonrpc: z.literal('2.0'),
      id: JsonRpcId,
      result: z.record(z.string(), z.unknown()),
    }),
    z.strictObject({
      jsonrpc: z.literal('2.0'),
      id: JsonRpcId,
      error: z.strictObject({ code: z.int(), message: z.string(), data: z.unknown().optional() }),
    }),
  ])
  .meta({ description: 'A result or an error, for the request of the same id' });

const LOGGER = '/actuator/loggers/:name';

export const MANAGEMENT_OPERATIONS: OperationTable = {
  'GET /actuator': {
    operationId: 'listManagementEndpoints',
    summary: 'List management endpoints',
    tag: 'Management',
    answers: {
      200: jsonBody(
        'Links to the endpoints exposed, by id',
        z.strictObject({
          _links: z.record(z.string(), z.strictObject({ href: z.string() })),
        }),
      ),
    },
  },
  'GET /actuator/health': {
    operationId: 'getHealth',
    summary: 'Read health',
    description:
      'Liveness and health; needs no key. The components and their details are shown only to an unrestricted ADMIN key, or to everyone when no key is set. While no key is set, a request from a host or origin that is not allowed is refused with 403.',
    tag: 'Management',
    answers: { 200: jsonBody('The health of the server', HealthSchema) },
    errors: [403],
  },
  'GET /actuator/info': {
    operationId: 'getApplicationInfo',
    summary: 'Read build information',
    tag: 'Management',
    answers: { 200: jsonBody('The build, profile and runtime', ApplicationInfoSchema) },
  },
  'GET /actuator/prometheus': {
    operationId: 'scrapeMeters',
    summary: 'Scrape meters',
    description: 'Every meter in the Prometheus text format.',
    tag: 'Management',
    answers: {
      200: text('The meters, as Prometheus text', 'text/plain; version=0.0.4; charset=utf-8'),
    },
  },
  'GET /actuator/metrics': {
    operationId: 'listMeters',
    summary: 'List meters',
    tag: 'Management',
    answers: {
      200: jsonBody(
        'The names of the meters, sorted',
        z.strictObject({ names: z.array(z.string()) }),
      ),
    },
  },
  'GET /actuator/metrics/:name': {
    operationId: 'getMeter',
    summary: 'Read one meter',
    description:
      'Its measurements, over the samples whose tags match every `tag=key:value` given, and the values each tag has taken. 404 for an unknown meter.',
    tag: 'Management',
    answers: { 200: jsonBody('The meter', MeterSchema) },
    errors: [404],
  },
  'GET /actuator/loggers': {
    operationId: 'listLoggers',
    summary: 'List loggers and their levels',
    tag: 'Management',
    answers: { 200: jsonBody('The levels there are, and each logger', LoggersSchema) },
  },
  [`GET ${LOGGER}`]: {
    operationId: 'getLogger',
    summary: "Read a logger's level",
    description: 'Loggers: `ROOT`, `app` and `engine`.',
    tag: 'Management',
    answers: { 200: jsonBody("The logger's levels", LoggerLevelsSchema) },
  },
  [`POST ${LOGGER}`]: {
    operationId: 'setLoggerLevel',
    summary: "Set a logger's level",
    description:
      'Sets the level at once, without a restart; `configuredLevel: null` puts back the level of the profile.',
    tag: 'Management',
    answers: { 204: empty('The level is set') },
  },
  'GET /actuator/mappings': {
    operationId: 'listRoutes',
    summary: 'List routes',
    tag: 'Management',
    answers: {
      200: jsonBody(
        'Every route of the server',
        z.strictObject({
          routes: z.array(z.strictObject({ method: z.string(), url: z.string() })),
        }),
      ),
    },
  },
  'GET /actuator/threaddump': {
    operationId: 'getThreadDump',
    summary: 'Read the state of the event loop',
    description:
      'Node runs JavaScript on one thread: its equivalent of a thread dump is the event loop delay and utilization, the resources keeping the process alive, memory and parts of the diagnostic report.',
    tag: 'Management',
    answers: { 200: jsonBody('The event loop and process state', ThreadDumpSchema) },
  },
  'POST /mcp': {
    operationId: 'callTool',
    summary: 'Call the tool endpoint',
    tag: 'Tool endpoint',
    answers: { 200: jsonBody('The JSON-RPC response', JsonRpcResponseSchema) },
  },
  'GET /mcp': {
    operationId: 'streamToolNotifications',
    summary: 'Follow the notifications of an MCP session',
    tag: 'Tool endpoint',
    answers: {
      200: text(
        'JSON-RPC notifications of the session as server-sent events, open until the client leaves',
        'text/event-stream',
      ),
    },
  },
  'DELETE /mcp': {
    operationId: 'endToolSession',
    summary: 'End an MCP session',
    tag: 'Tool endpoint',
    answers: { 200: empty('The session is ended') },
  },
};
