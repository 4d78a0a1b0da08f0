// The answers of one route, as Fastify takes them (`schema.response`): its success answers and
// every error it can answer, from its own list and from what every route of its kind can meet.
import { z } from 'zod';
import type { RouteRule } from '../../auth/index.js';
import { isRateLimitedPath } from '../rate-limit.js';
import { ErrorEnvelopeSchema, successEnvelope } from './envelopes.js';
import type { Answer, Operation } from './operation.js';

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 500 | 502 | 503 | 504;

export const ERROR_DESCRIPTIONS: Readonly<Record<ErrorStatus, string>> = {
  400: 'The request is not valid: a parameter, a field or the body; `errors` names the fields',
  401: 'No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits',
  403: "The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope",
  404: 'Not found, or in a session the key may not reach',
  409: 'Not possible in the current state',
  413: 'The body is larger than the limit',
  415: 'The body is not JSON',
  429: 'Too many requests or starts; retry after `Retry-After` seconds',
  500: 'An unexpected failure; the message gives a reference to the server log',
  502: 'A synchronous hook call: the run failed before its first terminal message',
  503: 'Not available here or now (a standby, a server closing); retry after `Retry-After` seconds',
  504: 'A synchronous hook call: no terminal message within the wait; the run goes on',
};

/** The access checks and hook calls answer 401 without a body (SPEC Authentication). */
export const BODYLESS_ERRORS: readonly ErrorStatus[] = [401];

/** Statuses whose answers carry `Retry-After`. */
export const RETRY_AFTER_STATUSES: readonly ErrorStatus[] = [429, 503];

export interface RouteShape {
  readonly method: string;
  readonly url: string;
  /** Whether the route reads path parameters, a query or a body. */
  readonly takesInput: boolean;
}

/** Every error status of a route, in order. */
export function errorStatusesOf(
  operation: Operation,
  rule: RouteRule | undefined,
  route: RouteShape,
): ErrorStatus[] {
  const statuses = new Set<ErrorStatus>(operation.errors ?? []);
  const writes = route.method === 'POST' || route.method === 'PUT';
  if (route.takesInput || writes) statuses.add(400);
  if (writes) {
    statuses.add(413);
    statuses.add(415);
  }
  if (rule?.scope !== 'open') {
    statuses.add(401);
    statuses.add(403);
  }
  if (isRateLimitedPath(route.url)) statuses.add(429);
  statuses.add(500);
  statuses.add(503);
  return [...statuses].sort((a, b) => a - b);
}

/** What Fastify serialises each answer with, and what the description documents. */
export function responseSchemasOf(
  operation: Operation,
  errors: readonly ErrorStatus[],
): Record<string, unknown> {
  const response: Record<string, unknown> = {};
  for (const [status, answer] of Object.entries<Answer>(operation.answers)) {
    response[status] = answerSchema(answer);
  }
  for (const status of errors) {
    response[String(status)] = BODYLESS_ERRORS.includes(status) ? NO_BODY : ErrorEnvelopeSchema;
  }
  return response;
}

/** A response without a body; the description shows it without content (openapi-document.ts). */
const NO_BODY = z.null();

function answerSchema(answer: Answer): unknown {
  switch (answer.kind) {
    case 'envelope':
      return successEnvelope(answer.data);
    case 'json':
      return answer.body;
    case 'text':
      return { content: { [answer.contentType]: { schema: answer.items ?? z.string() } } };
    case 'empty':
      return NO_BODY;
  }
}
