// Starting and reading executions (SPEC "Execution calls", CONTRACT sections 3 and 4).
import type { FastifyPluginCallback } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { EXECUTION_STATUSES, ON_LIMIT_MODES } from '../executions/index.js';
import type { ExecutionService } from '../services/index.js';
import { auditActor, respond } from './reply.js';
import { idempotencyKey } from './request-headers.js';

const STATUSES = EXECUTION_STATUSES;

const mandatoryId = (label: string) =>
  z
    .string({
      error: (issue) =>
        issue.input == null ? `${label} is mandatory` : `${label} must be a string`,
    })
    .min(1, `${label} is mandatory`);

const startFields = {
  workflowId: mandatoryId('Workflow id'),
  payload: z.unknown().optional(),
  priority: z
    .number({ error: 'Priority must be an integer' })
    .int('Priority must be an integer')
    .optional(),
};

const startBody = z.strictObject({ sessionId: mandatoryId('Session id'), ...startFields });
const sessionStartBody = z.strictObject(startFields);

const limit = z.coerce
  .number({ error: "Parameter 'limit' must be an integer" })
  .int("Parameter 'limit' must be an integer")
  .min(1, "Parameter 'limit' must be at least 1")
  .max(1000, "Parameter 'limit' must be at most 1000")
  .default(100);
const status = z.enum(STATUSES, {
  error: `Parameter 'status' must be one of ${STATUSES.join(', ')}`,
});
const instant = (name: string) =>
  z
    .string()
    .refine(
      (text) => !Number.isNaN(Date.parse(text)),
      `Parameter '${name}' must be an ISO date-time`,
    )
    .transform((text) => Date.parse(text));

const historyQuery = z.object({
  workflowId: z.string().optional(),
  status: status.optional(),
  limit,
});
const searchQuery = z.object({
  sessionId: z.string().optional(),
  workflowId: z.string().optional(),
  status: status.optional(),
  since: instant('since').optional(),
  until: instant('until').optional(),
  limit,
  cursor: z.string().optional(),
});
const logsQuery = z.object({
  nodeId: z.string().optional(),
  after: z.coerce.number({ error: "Parameter 'after' must be an integer" }).int().min(0).optional(),
  limit: z.coerce
    .number({ error: "Parameter 'limit' must be an integer" })
    .int()
    .min(1)
    .optional()
    .meta({ description: 'At most this many lines, the oldest first; all of them when absent' }),
});
const executionParams = z.object({ id: z.string() });

/** An integer of at least 1, or `off` / empty to turn the limit off. */
const optionalLimit = (name: string) =>
  z
    .string()
    .transform((text, ctx) => {
      const lower = text.toLowerCase();
      if (text === '' || lower === 'off' || lower === 'null') return null;
      const value = Number(text);
      if (!Number.isInteger(value) || value < 1) {
        ctx.addIssue({
          code: 'custom',
          message: `Parameter '${name}' must be an integer of at least 1, or off`,
        });
        return z.NEVER;
      }
      return value;
    })
    .optional();

const limitsQuery = z.object({
  maxConcurrent: optionalLimit('maxConcurrent'),
  maxPerSession: optionalLimit('maxPerSession'),
  maxPerWorkflow: optionalLimit('maxPerWorkflow'),
  onLimit: z
    .enum(ON_LIMIT_MODES, { error: "Parameter 'onLimit' must be REJECT or QUEUE" })
    .optional(),
  queueCapacity: z.coerce
    .number({ error: "Parameter 'queueCapacity' must be an integer" })
    .int()
    .min(0)
    .optional(),
  queueTimeout: optionalLimit('queueTimeout'),
});
const sessionExecutionParams = z.object({ sessionId: z.string(), id: z.string() });

/** The options of every route plugin on executions. */
export interface ExecutionRoutesOptions {
  readonly executions: ExecutionService;
}

export const executionRoutes: FastifyPluginCallback<ExecutionRoutesOptions> = (
  app,
  { executions },
  done,
) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post('/api/workflow/start', { schema: { body: startBody } }, async (request, reply) =>
    respond(
      reply,
      202,
      'Execution accepted',
      await executions.start(request.body, {
        idempotencyKey: idempotencyKey(request.headers),
        reach: request.principal?.sessions ?? null,
      }),
    ),
  );

  api.post(
    '/api/workflow/:sessionId/start',
    { schema: { params: z.object({ sessionId: z.string() }), body: sessionStartBody } },
    async (request, reply) =>
      respond(
        reply,
        202,
        'Execution accepted',
        await executions.start(
          { ...request.body, sessionId: request.params.sessionId },
          {
            idempotencyKey: idempotencyKey(request.headers),
            reach: request.principal?.sessions ?? null,
          },
        ),
      ),
  );

  api.get('/api/executions/:id', { schema: { params: executionParams } }, (request, reply) =>
    Promise.resolve(respond(reply, 200, 'Execution', executions.read(request.params.id))),
  );

  api.get('/api/executions', { schema: { querystring: searchQuery } }, (request, reply) =>
    Promise.resolve(respond(reply, 200, 'Executions', executions.search(request.query))),
  );

  api.post(
    '/api/executions/:id/priority',
    {
      schema: {
        params: executionParams,
        querystring: z.object({
          priority: z.coerce
            .number({ error: "Parameter 'priority' must be an integer" })
            .int("Parameter 'priority' must be an integer"),
        }),
      },
    },
    (request, reply) =>
      Promise.resolve(
        respond(
          reply,
          200,
          'Priority changed',
          executions.setPriority(request.params.id, request.query.priority, auditActor(request)),
        ),
      ),
  );

  api.post('/api/executions/:id/stop', { schema: { params: executionParams } }, (request, reply) =>
    Promise.resolve(
      respond(
        reply,
        200,
        'Execution stopping',
        executions.stop(request.params.id, auditActor(request)),
      ),
    ),
  );

  api.get('/api/scheduler/limits', (_request, reply) =>
    Promise.resolve(respond(reply, 200, 'Scheduler limits', executions.limits)),
  );

  api.get('/api/scheduler/queue', (_request, reply) =>
    Promise.resolve(respond(reply, 200, 'Waiting starts', executions.queue())),
  );

  api.post(
    '/api/scheduler/limits',
    { schema: { querystring: limitsQuery } },
    async (request, reply) =>
      respond(
        reply,
        200,
        'Scheduler limits changed',
        await executions.setLimits(request.query, auditActor(request)),
      ),
  );

  api.get(
    '/api/executions/:id/results',
    { schema: { params: executionParams } },
    (request, reply) =>
      Promise.resolve(respond(reply, 200, 'Results', executions.results(request.params.id))),
  );

  api.get(
    '/api/executions/:id/logs',
    { schema: { params: executionParams, querystring: logsQuery } },
    (request, reply) =>
      Promise.resolve(
        respond(reply, 200, 'Logs', executions.logs(request.params.id, request.query)),
      ),
  );

  api.get(
    '/api/workflow/:sessionId/status/:id',
    { schema: { params: sessionExecutionParams } },
    (request, reply) =>
      Promise.resolve(
        respond(
          reply,
          200,
          'Execution status',
          executions.status(request.params.id, request.params.sessionId),
        ),
      ),
  );

  api.get(
    '/api/workflow/:sessionId/history',
    { schema: { params: z.object({ sessionId: z.string() }), querystring: historyQuery } },
    (request, reply) =>
      Promise.resolve(
        respond(
          reply,
          200,
          'Execution history',
          executions.history(request.params.sessionId, request.query),
        ),
      ),
  );
  done();
};
