// Always-on workflows (docs/always-on.md): activating a workflow has the leading server keep
// one run of it going; deactivating stops that run.
import type { FastifyPluginCallback } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AlwaysOn } from '../services/index.js';
import { auditActor, respond } from './reply.js';
import { workflowParams } from './schemas.js';

export interface ActivationRoutesOptions {
  readonly alwaysOn: AlwaysOn;
}

const WORKFLOW = '/api/sessions/:sessionId/workflows/:workflowId';

export const activationRoutes: FastifyPluginCallback<ActivationRoutesOptions> = (
  app,
  { alwaysOn },
  done,
) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    `${WORKFLOW}/activate`,
    { schema: { params: workflowParams } },
    async (request, reply) => {
      const { sessionId, workflowId } = request.params;
      return respond(
        reply,
        200,
        'Workflow activated',
        await alwaysOn.activate(sessionId, workflowId),
      );
    },
  );
  api.post(
    `${WORKFLOW}/deactivate`,
    { schema: { params: workflowParams } },
    async (request, reply) => {
      const { sessionId, workflowId } = request.params;
      const activation = await alwaysOn.deactivate(sessionId, workflowId, auditActor(request));
      return respond(reply, 200, 'Workflow deactivated', activation);
    },
  );
  done();
};
