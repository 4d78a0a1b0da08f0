// The control bus (audit, supervisors, status) and the run and node controls (SPEC
// "Execution calls", CONTRACT section 4); the service reviews and audits every command.
import type { FastifyPluginCallback } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ExecutionRoutesOptions } from './executions.routes.js';
import { auditActor, respond } from './reply.js';

const auditQuery = z.object({
  limit: z.coerce
    .number({ error: "Parameter 'limit' must be an integer" })
    .int("Parameter 'limit' must be an integer")
    .min(1, "Parameter 'limit' must be between 1 and 500")
    .max(500, "Parameter 'limit' must be between 1 and 500")
    .default(100),
  executionId: z.string().optional(),
});

export const controlRoutes: FastifyPluginCallback<ExecutionRoutesOptions> = (
  app,
  { executions },
  done,
) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get('/api/control/audit', { schema: { querystring: auditQuery } }, (request, reply) =>
    Promise.resolve(respond(reply, 200, 'Control audit', executions.auditTrail(request.query))),
  );
  api.get('/api/control/supervisors', (_request, reply) =>
    Promise.resolve(respond(reply, 200, 'Supervisors', executions.supervisors())),
  );
  api.get('/api/control/status', (_request, reply) =>
    Promise.resolve(respond(reply, 200, 'Control bus status', executions.controlStatus())),
  );
  done();
};

const RUN_ACTIONS = { pause: 'PAUSE', resume: 'RESUME', step: 'STEP' } as const;
const NODE_ACTIONS = {
  pause: 'PAUSE',
  resume: 'RESUME',
  step: 'STEP',
  stop: 'STOP',
  skip: 'SKIP',
  unskip: 'UNSKIP',
} as const;

/** Approval fields belong to the signal call, never to a node command (SPEC Errors, 403). */
const nodeCommandBody = z
  .strictObject({
    approved: z.unknown().optional(),
    messageId: z.unknown().optional(),
    payload: z.unknown().optional(),
    comment: z.unknown().optional(),
  })
  .optional();

/** CONTRACT section 4: the body of a signal. */
const signalBody = z.strictObject({
  approved: z.boolean({
    error: (issue) =>
      issue.input === undefined
        ? 'Field approved is mandatory'
        : 'Field approved must be a boolean',
  }),
  messageId: z.string().optional(),
  payload: z.unknown().optional(),
  comment: z.string().optional(),
});

const breakpointsBody = z.strictObject({
  nodeIds: z.array(z.string({ error: 'Node ids must be strings' }), {
    error: (issue) =>
      issue.input === undefined ? 'Field nodeIds is mandatory' : 'Field nodeIds must be an array',
  }),
});

/** Run and node controls of CONTRACT section 4, each audited by the service. */
export const executionControlRoutes: FastifyPluginCallback<ExecutionRoutesOptions> = (
  app,
  { executions },
  done,
) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  for (const [path, action] of Object.entries(RUN_ACTIONS)) {
    api.post(
      `/api/executions/:id/${path}`,
      { schema: { params: z.object({ id: z.string() }) } },
      (request, reply) =>
        Promise.resolve(
          respond(
            reply,
            200,
            `Execution ${path} applied`,
            executions.control(request.params.id, action, auditActor(request)),
          ),
        ),
    );
  }
  for (const [path, action] of Object.entries(NODE_ACTIONS)) {
    api.post(
      `/api/executions/:id/nodes/:nodeId/${path}`,
      {
        schema: { params: z.object({ id: z.string(), nodeId: z.string() }), body: nodeCommandBody },
      },
      (request, reply) => {
        const state = executions.controlNode(
          {
            executionId: request.params.id,
            nodeId: request.params.nodeId,
            action,
            withApprovalFields: request.body !== undefined && Object.keys(request.body).length > 0,
          },
          auditActor(request),
        );
        return Promise.resolve(respond(reply, 200, `Node ${path} applied`, state));
      },
    );
  }
  api.post(
    '/api/executions/:id/nodes/:nodeId/signal',
    { schema: { params: z.object({ id: z.string(), nodeId: z.string() }), body: signalBody } },
    (request, reply) => {
      const { id, nodeId } = request.params;
      const answer = executions.signal(id, nodeId, request.body, auditActor(request));
      return Promise.resolve(
        respond(reply, 200, request.body.approved ? 'Approved' : 'Rejected', answer),
      );
    },
  );
  api.get(
    '/api/executions/:id/approvals',
    { schema: { params: z.object({ id: z.string() }) } },
    (request, reply) =>
      Promise.resolve(
        respond(reply, 200, 'Pending approvals', executions.approvals(request.params.id)),
      ),
  );
  api.get(
    '/api/sessions/:sessionId/approvals',
    { schema: { params: z.object({ sessionId: z.string() }) } },
    (request, reply) =>
      Promise.resolve(
        respond(
          reply,
          200,
          'Pending approvals',
          executions.sessionApprovals(request.params.sessionId),
        ),
      ),
  );
  api.get(
    '/api/executions/:id/breakpoints',
    { schema: { params: z.object({ id: z.string() }) } },
    (request, reply) =>
      Promise.resolve(
        respond(reply, 200, 'Breakpoints', { nodeIds: executions.breakpoints(request.params.id) }),
      ),
  );
  api.put(
    '/api/executions/:id/breakpoints',
    { schema: { params: z.object({ id: z.string() }), body: breakpointsBody } },
    (request, reply) => {
      const nodeIds = executions.setBreakpoints(
        request.params.id,
        request.body.nodeIds,
        auditActor(request),
      );
      return Promise.resolve(respond(reply, 200, 'Breakpoints set', { nodeIds }));
    },
  );
  done();
};
