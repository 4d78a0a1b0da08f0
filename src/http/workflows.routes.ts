// Workflows of a session, their versions (SPEC "Versioning", CONTRACT section 4) and layouts.
import type { FastifyPluginCallback } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../core/index.js';
import { workflowLayoutBodySchema } from '../services/index.js';
import type { SessionService } from '../services/index.js';
import { actorOf, respond } from './reply.js';
import {
  diffQuery,
  saveQuery,
  versionParams,
  workflowDefinitionBodySchema,
  workflowParams,
} from './schemas.js';

const WORKFLOW = '/api/sessions/:sessionId/workflows/:workflowId';

export interface WorkflowRoutesOptions {
  readonly sessions: SessionService;
}

export const workflowRoutes: FastifyPluginCallback<WorkflowRoutesOptions> = (
  app,
  { sessions },
  done,
) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/sessions/:sessionId/workflows',
    { schema: { params: workflowParams.pick({ sessionId: true }) } },
    async (request, reply) =>
      respond(reply, 200, 'Workflows', await sessions.listWorkflows(request.params.sessionId)),
  );

  api.get(WORKFLOW, { schema: { params: workflowParams } }, async (request, reply) => {
    const { sessionId, workflowId } = request.params;
    return respond(reply, 200, 'Workflow', await sessions.getWorkflow(sessionId, workflowId));
  });

  api.put(
    WORKFLOW,
    {
      schema: {
        params: workflowParams,
        querystring: saveQuery,
        body: workflowDefinitionBodySchema,
      },
    },
    async (request, reply) => {
      const { sessionId, workflowId } = request.params;
      const body = request.body;
      if (body.workflowId !== undefined && body.workflowId !== workflowId) {
        throw new AppError('VALIDATION_FAILED', {
          fieldErrors: [
            {
              field: 'workflowId',
              message: `Workflow id '${body.workflowId}' does not match '${workflowId}' in the path`,
            },
          ],
        });
      }
      const saved = await sessions.defineWorkflow(
        sessionId,
        { ...body, workflowId },
        actorOf(request),
        request.principal?.sessions ?? null,
        request.query.note ?? null,
      );
      return saved.created
        ? respond(reply, 201, 'Workflow created', saved)
        : respond(reply, 200, 'Workflow saved', saved);
    },
  );

  api.delete(WORKFLOW, { schema: { params: workflowParams } }, async (request, reply) => {
    const { sessionId, workflowId } = request.params;
    await sessions.deleteWorkflow(sessionId, workflowId);
    return respond(reply, 200, 'Workflow deleted', { sessionId, workflowId });
  });

  api.get(`${WORKFLOW}/layout`, { schema: { params: workflowParams } }, async (request, reply) => {
    const { sessionId, workflowId } = request.params;
    return respond(reply, 200, 'Workflow layout', await sessions.getLayout(sessionId, workflowId));
  });

  api.put(
    `${WORKFLOW}/layout`,
    { schema: { params: workflowParams, body: workflowLayoutBodySchema } },
    async (request, reply) => {
      const { sessionId, workflowId } = request.params;
      return respond(
        reply,
        200,
        'Workflow layout saved',
        await sessions.saveLayout(sessionId, workflowId, request.body.positions),
      );
    },
  );

  api.get(`${WORKFLOW}/graph`, { schema: { params: workflowParams } }, async (request, reply) => {
    const { sessionId, workflowId } = request.params;
    return respond(
      reply,
      200,
      'Workflow graph',
      await sessions.describeGraph(sessionId, workflowId),
    );
  });

  api.get(
    `${WORKFLOW}/versions`,
    { schema: { params: workflowParams } },
    async (request, reply) => {
      const { sessionId, workflowId } = request.params;
      return respond(
        reply,
        200,
        'Workflow versions',
        await sessions.listVersions(sessionId, workflowId),
      );
    },
  );

  api.get(
    `${WORKFLOW}/versions/diff`,
    { schema: { params: workflowParams, querystring: diffQuery } },
    async (request, reply) => {
      const { sessionId, workflowId } = request.params;
      const { from, to } = request.query;
      return respond(
        reply,
        200,
        'Workflow version diff',
        await sessions.diffVersions(sessionId, workflowId, from, to),
      );
    },
  );

  api.get(
    `${WORKFLOW}/versions/:version`,
    { schema: { params: versionParams } },
    async (request, reply) => {
      const { sessionId, workflowId, version } = request.params;
      return respond(
        reply,
        200,
        'Workflow version',
        await sessions.getVersion(sessionId, workflowId, version),
      );
    },
  );

  api.post(
    `${WORKFLOW}/versions/:version/rollback`,
    { schema: { params: versionParams, querystring: saveQuery } },
    async (request, reply) => {
      const { sessionId, workflowId, version } = request.params;
      const saved = await sessions.rollback(
        sessionId,
        workflowId,
        version,
        actorOf(request),
        request.query.note ?? null,
      );
      return respond(reply, 200, `Workflow rolled back to version ${version}`, saved);
    },
  );
  done();
};
