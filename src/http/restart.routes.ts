// Restart, restart from a node, retry a node, recover and checkpoints (SPEC "Execution
// calls", "Restart rules", "Recover conditions"; CONTRACT sections 3 and 4).
import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ReplayCheckBodySchema,
  RestartBodySchema,
  RestartFromNodeBodySchema,
} from './api-contract/index.js';
import type { ExecutionRoutesOptions } from './executions.routes.js';
import { auditActor, respond } from './reply.js';

const executionParams = z.object({ id: z.string() });
const nodeParams = z.object({ id: z.string(), nodeId: z.string() });

const messagesQuery = z.object({
  direction: z
    .enum(['in', 'out'], { error: "Parameter 'direction' must be in or out" })
    .default('out'),
  limit: z.coerce
    .number({ error: "Parameter 'limit' must be an integer" })
    .int("Parameter 'limit' must be an integer")
    .min(1, "Parameter 'limit' must be at least 1")
    .max(1000, "Parameter 'limit' must be at most 1000")
    .default(100),
  cursor: z
    .string()
    .regex(/^\d{1,9}$/, "Parameter 'cursor' must be the nextCursor of an earlier page")
    .optional(),
});

export const restartRoutes: FastifyPluginCallback<ExecutionRoutesOptions> = (
  app,
  { executions },
  done,
) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  // Every restart of a run is audited as its caller, and reaches only the caller's sessions.
  const restart = (
    request: FastifyRequest<{ Params: { id: string } }>,
    how: Parameters<typeof executions.restart>[1],
  ) =>
    executions.restart(
      request.params.id,
      how,
      auditActor(request),
      request.principal?.sessions ?? null,
    );

  api.post(
    '/api/executions/:id/restart',
    { schema: { params: executionParams, body: RestartBodySchema } },
    async (request, reply) =>
      respond(
        reply,
        202,
        'Execution restarted',
        await restart(request, { kind: 'whole', version: request.body?.version }),
      ),
  );

  api.post(
    '/api/executions/:id/restart/:nodeId',
    { schema: { params: nodeParams, body: RestartFromNodeBodySchema } },
    async (request, reply) =>
      respond(
        reply,
        202,
        'Execution restarted from a node',
        await restart(request, {
          kind: 'from',
          nodeId: request.params.nodeId,
          inputs: request.body?.inputs,
          version: request.body?.version,
        }),
      ),
  );

  api.post(
    '/api/executions/:id/nodes/:nodeId/retry',
    { schema: { params: nodeParams } },
    async (request, reply) =>
      respond(
        reply,
        202,
        'Node retried',
        await restart(request, { kind: 'retry', nodeId: request.params.nodeId }),
      ),
  );

  api.post(
    '/api/executions/:id/recover',
    { schema: { params: executionParams } },
    async (request, reply) =>
      respond(
        reply,
        202,
        'Execution recovered',
        await executions.recover(
          request.params.id,
          auditActor(request),
          request.principal?.sessions ?? null,
        ),
      ),
  );

  api.post(
    '/api/executions/:id/replay-check',
    { schema: { params: executionParams, body: ReplayCheckBodySchema } },
    async (request, reply) =>
      respond(
        reply,
        200,
        'Replay check',
        await executions.replayCheck(request.params.id, request.body),
      ),
  );

  api.get(
    '/api/executions/:id/checkpoints',
    { schema: { params: executionParams } },
    async (request, reply) =>
      respond(reply, 200, 'Checkpoints', await executions.checkpoints(request.params.id)),
  );

  api.get(
    '/api/executions/:id/nodes/:nodeId/messages',
    { schema: { params: nodeParams, querystring: messagesQuery } },
    async (request, reply) =>
      respond(
        reply,
        200,
        'Node messages',
        await executions.nodeMessages(request.params.id, request.params.nodeId, request.query),
      ),
  );
  done();
};
