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
 * Who is calling, for the version author: the key's name (`key:<name>`, `key:default` for the
 * single key), or `anonymous` without a key.
 */
export function actorOf(request: FastifyRequest): string {
  return request.principal?.caller ?? 'anonymous';
}

/** The actor SPEC's audit names for the caller; null when none is recorded. */
export function auditActor(request: FastifyRequest): string | null {
  return request.principal?.actor ?? null;
}
