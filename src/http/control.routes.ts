// The audit of control commands (SPEC "Execution calls": GET /api/control/audit).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isAppError } from '../core/index.js';
import type { AuditLog } from '../events/index.js';
import { respond } from './reply.js';

const auditQuery = z.object({
  limit: z.coerce
    .number({ error: "Parameter 'limit' must be an integer" })
    .int("Parameter 'limit' must be an integer")
    .min(1, "Parameter 'limit' must be between 1 and 500")
    .max(500, "Parameter 'limit' must be between 1 and 500")
    .default(100),
  executionId: z.string().optional(),
});

export function registerControlRoutes(app: FastifyInstance, audit: AuditLog): void {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/api/control/audit', { schema: { querystring: auditQuery } }, (request, reply) =>
      Promise.resolve(respond(reply, 200, 'Control audit', audit.list(request.query))),
    );
}

/** The actor SPEC's audit names for the caller; null when none is recorded. */
export function auditActor(request: FastifyRequest): string | null {
  return request.principal?.actor ?? null;
}

/**
 * Runs a control command and records it in the audit, applied or refused (with the reason
 * of the refusal); the command's own answer or error is passed on.
 */
export function audited<T>(
  audit: AuditLog,
  request: FastifyRequest,
  target: { command: string; executionId?: string | null; nodeId?: string | null },
  command: () => T,
): T {
  try {
    const result = command();
    audit.record({ ...target, outcome: 'APPLIED', actor: auditActor(request) });
    return result;
  } catch (error) {
    audit.record({
      ...target,
      outcome: 'REFUSED',
      reason: isAppError(error) ? error.message : 'Failed unexpectedly',
      actor: auditActor(request),
    });
    throw error;
  }
}
