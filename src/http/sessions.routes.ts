// Sessions: create, list, read, delete, and draft validation (SPEC "Workflow and session calls").
import type { FastifyPluginCallback } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { SessionService } from '../services/index.js';
import { actorOf, respond } from './reply.js';
import { createSessionSchema, sessionParams, workflowDefinitionSchema } from './schemas.js';

export interface SessionRoutesOptions {
  readonly sessions: SessionService;
}

export const sessionRoutes: FastifyPluginCallback<SessionRoutesOptions> = (
  app,
  { sessions },
  done,
) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post('/api/sessions', { schema: { body: createSessionSchema } }, async (request, reply) => {
    const session = await sessions.createSession(request.body, actorOf(request));
    return respond(reply, 201, 'Session created', session);
  });

  api.get('/api/sessions', async (_request, reply) =>
    respond(reply, 200, 'Sessions', await sessions.listSessions()),
  );

  api.get(
    '/api/sessions/:sessionId',
    { schema: { params: sessionParams } },
    async (request, reply) =>
      respond(reply, 200, 'Session', await sessions.getSession(request.params.sessionId)),
  );

  api.delete(
    '/api/sessions/:sessionId',
    { schema: { params: sessionParams } },
    async (request, reply) => {
      await sessions.deleteSession(request.params.sessionId);
      return respond(reply, 200, 'Session deleted', { sessionId: request.params.sessionId });
    },
  );

  api.post(
    '/api/sessions/validate',
    { schema: { body: workflowDefinitionSchema } },
    (request, reply) => {
      const result = sessions.validate(request.body);
      return Promise.resolve(
        respond(reply, 200, result.valid ? 'Workflow is valid' : 'Workflow is invalid', result),
      );
    },
  );
  done();
};
