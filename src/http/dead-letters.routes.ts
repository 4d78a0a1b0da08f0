// Dead letters (docs/dead-letters.md): list, read, redrive and delete. A key limited to
// sessions reaches the letters of its sessions only; the service filters by them.
import type { FastifyPluginCallback } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { DeadLetterService } from '../services/index.js';
import { RedriveBodySchema } from './api-contract/index.js';
import { auditActor, respond } from './reply.js';

export interface DeadLetterRoutesOptions {
  readonly deadLetters: DeadLetterService;
}

const letterParams = z.object({ id: z.string() });

const listQuery = z.object({
  sessionId: z.string().optional(),
  workflowId: z.string().optional(),
  nodeId: z.string().optional(),
  executionId: z.string().optional(),
  limit: z.coerce
    .number({ error: "Parameter 'limit' must be an integer" })
    .int("Parameter 'limit' must be an integer")
    .min(1, "Parameter 'limit' must be at least 1")
    .max(1000, "Parameter 'limit' must be at most 1000")
    .default(100),
  cursor: z.string().optional(),
});

export const deadLetterRoutes: FastifyPluginCallback<DeadLetterRoutesOptions> = (
  app,
  { deadLetters },
  done,
) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/api/dead-letters', { schema: { querystring: listQuery } }, async (request, reply) =>
    respond(
      reply,
      200,
      'Dead letters',
      await deadLetters.list(request.query, request.principal?.sessions ?? null),
    ),
  );

  api.get('/api/dead-letters/:id', { schema: { params: letterParams } }, async (request, reply) =>
    respond(
      reply,
      200,
      'Dead letter',
      await deadLetters.get(request.params.id, request.principal?.sessions ?? null),
    ),
  );

  api.post(
    '/api/dead-letters/:id/redrive',
    { schema: { params: letterParams, body: RedriveBodySchema } },
    async (request, reply) =>
      respond(
        reply,
        202,
        'Dead letter redriven',
        await deadLetters.redrive(
          request.params.id,
          request.body?.payload,
          auditActor(request),
          request.principal?.sessions ?? null,
        ),
      ),
  );

  api.delete(
    '/api/dead-letters/:id',
    { schema: { params: letterParams } },
    async (request, reply) => {
      await deadLetters.delete(request.params.id, request.principal?.sessions ?? null);
      return respond(reply, 200, 'Dead letter deleted', { id: request.params.id });
    },
  );
  done();
};
