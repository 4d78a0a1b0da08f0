// Restart, restart from a node, retry a node, recover and checkpoints (SPEC "Execution
// calls", "Restart rules", "Recover conditions"; CONTRACT sections 3 and 4).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ExecutionManager, RestartMode } from '../executions/index.js';
import { auditedAsync } from '../services/index.js';
import type { ControlDesk } from '../services/index.js';
import { auditActor } from './control.routes.js';
import { respond } from './reply.js';

const executionParams = z.object({ id: z.string() });
const nodeParams = z.object({ id: z.string(), nodeId: z.string() });

export function registerRestartRoutes(
  app: FastifyInstance,
  executions: ExecutionManager,
  desk: ControlDesk,
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  const restart = (
    request: FastifyRequest,
    command: string,
    executionId: string,
    mode: RestartMode,
  ) =>
    auditedAsync(
      desk,
      auditActor(request),
      { command, executionId, nodeId: mode.kind === 'whole' ? null : mode.nodeId },
      () => executions.restart(executionId, mode),
    );

  api.post(
    '/api/executions/:id/restart',
    { schema: { params: executionParams } },
    async (request, reply) =>
      respond(
        reply,
        202,
        'Execution restarted',
        await restart(request, 'RESTART', request.params.id, { kind: 'whole' }),
      ),
  );

  api.post(
    '/api/executions/:id/restart/:nodeId',
    { schema: { params: nodeParams } },
    async (request, reply) =>
      respond(
        reply,
        202,
        'Execution restarted from a node',
        await restart(request, 'RESTART_FROM_NODE', request.params.id, {
          kind: 'from',
          nodeId: request.params.nodeId,
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
        await restart(request, 'RETRY', request.params.id, {
          kind: 'retry',
          nodeId: request.params.nodeId,
        }),
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
        await auditedAsync(
          desk,
          auditActor(request),
          { command: 'RECOVER', executionId: request.params.id },
          () => executions.recover(request.params.id),
        ),
      ),
  );

  api.get(
    '/api/executions/:id/checkpoints',
    { schema: { params: executionParams } },
    async (request, reply) =>
      respond(reply, 200, 'Checkpoints', await executions.checkpointsOf(request.params.id)),
  );
}
