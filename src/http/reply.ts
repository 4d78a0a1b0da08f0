// Sends a success answer inside SPEC's envelope.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { successEnvelope } from './envelope.js';
import type { SuccessEnvelope } from './envelope.js';

export function respond<T>(
  reply: FastifyReply,
  status: number,
  message: string,
  data: T,
): SuccessEnvelope<T> {
  void reply.status(status);
  return successEnvelope(status, message, data);
}

/**
 * Who is calling, for the version author and the audit. Access control names keys; without
 * keys every caller is `anonymous`.
 */
export function actorOf(request: FastifyRequest): string {
  const actor = (request as FastifyRequest & { actor?: string }).actor;
  return actor ?? 'anonymous';
}
