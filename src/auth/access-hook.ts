// The one Fastify hook of access control: ambiguous paths, host and origin checks, keys,
// roles and session scopes, answered before the API with no body (SPEC "Responses of the
// access checks").
import { Transform } from 'node:stream';
import { AppError } from '../core/index.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  isAllowedHost,
  isAllowedOrigin,
  isAmbiguousPath,
  isManagementPath,
  isOpenPath,
  isToolPath,
  requiredRole,
  sessionScope,
} from './access-rules.js';
import { isUnrestrictedAdmin, presentedKey, roleAllows } from './key-ring.js';
import type { KeyRing, Principal } from './key-ring.js';
import { routeRule } from './route-rules.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's key, or null when no key was needed or sent. */
    principal: Principal | null;
    /** An execution of a session the key may not reach, answered as unknown. */
    hiddenExecution: string | null;
  }
}

/** SPEC: keys other than an unrestricted ADMIN key may send at most 1 MiB. */
export const RESTRICTED_BODY_LIMIT = 1024 * 1024;

export interface AccessControlOptions {
  readonly keys: KeyRing;
  readonly allowedHosts: readonly string[];
  readonly allowedOrigins: readonly string[];
  /** The session an execution belongs to, or undefined when unknown. */
  readonly sessionOfExecution: (executionId: string) => string | undefined;
}

function refuse(reply: FastifyReply, status: 400 | 401 | 403): FastifyReply {
  if (status === 401) void reply.header('WWW-Authenticate', 'Bearer');
  return reply.code(status).send();
}

function rawPath(request: FastifyRequest): string {
  const index = request.url.indexOf('?');
  return index === -1 ? request.url : request.url.slice(0, index);
}

export function installAccessControl(
  fastify: FastifyInstance,
  options: AccessControlOptions,
): void {
  const { keys } = options;
  fastify.decorateRequest('principal', null);
  fastify.decorateRequest('hiddenExecution', null);

  // Callback hooks, not async ones: a promise per hook per request is measurable on a short
  // start. A refusal answers and does not call `done`, which ends the request there.
  const check = (request: FastifyRequest, reply: FastifyReply): FastifyReply | undefined => {
    const path = rawPath(request);
    const method = request.method;
    if (!keys.hasAnyKey) {
      const host = request.headers.host;
      if (!isAllowedHost(host, options.allowedHosts)) return refuse(reply, 403);
      if (!isAllowedOrigin(method, request.headers.origin, host, options.allowedOrigins)) {
        return refuse(reply, 403);
      }
      return undefined;
    }
    if (isAmbiguousPath(path)) return refuse(reply, 400);
    const surface = isToolPath(path) ? 'mcp' : 'rest';
    const presented = presentedKey(request.headers);
    const principal = presented === undefined ? undefined : keys.authenticate(presented, surface);
    if (principal !== undefined) request.principal = principal;
    if (!keys.guards(surface) || isOpenPath(method, path)) return undefined;
    if (principal === undefined) return refuse(reply, 401);
    if (surface === 'mcp') return undefined;
    const verdict = allowed(request, principal, method, path, options);
    if (typeof verdict === 'object') {
      request.hiddenExecution = verdict.hiddenExecution;
    } else if (!verdict) {
      return refuse(reply, 403);
    }
    return undefined;
  };
  fastify.addHook('onRequest', (request, reply, done) => {
    if (check(request, reply) === undefined) done();
  });

  // Another session's execution is answered exactly like an unknown one (SPEC Errors, 404):
  // after validation, where the route itself would find the id unknown, so the status, body
  // and message cannot tell the two apart.
  fastify.addHook('preHandler', (request, _reply, done) => {
    const executionId = request.hiddenExecution;
    if (executionId === null) done();
    else done(new AppError('EXECUTION_NOT_FOUND', { params: { executionId } }));
  });

  // A restricted key's body is cut at 1 MiB whatever the server-wide limit is.
  fastify.addHook('preParsing', (request, reply, payload, done) => {
    const principal = request.principal;
    if (principal === null || isUnrestrictedAdmin(principal)) {
      done(null, payload);
      return;
    }
    const limited = payload.pipe(limitStream(RESTRICTED_BODY_LIMIT));
    // A body nobody reads (refused before parsing, e.g. an unsupported media type) is still
    // drained: Node leaves a piped request alone, and the kept-alive connection would stall.
    reply.raw.once('finish', () => {
      if (payload.readableEnded) return;
      payload.unpipe(limited);
      payload.resume();
    });
    done(null, limited);
  });
}

/** Whether the request may go on, or the execution of another session it names. */
function allowed(
  request: FastifyRequest,
  principal: Principal,
  method: string,
  path: string,
  options: AccessControlOptions,
): boolean | { readonly hiddenExecution: string } {
  if (isManagementPath(path)) return isUnrestrictedAdmin(principal);
  const routeUrl = request.routeOptions.url;
  if (routeUrl !== undefined && routeRule(method, routeUrl) === undefined) return false;
  if (!roleAllows(principal.role, requiredRole(method, path))) return false;
  const sessions = principal.sessions;
  if (sessions === null) return true;
  const scope = sessionScope(path);
  switch (scope.kind) {
    case 'session':
      return sessions.includes(scope.sessionId);
    case 'execution': {
      const owner = options.sessionOfExecution(scope.executionId);
      // An unknown execution is answered 404 by the route, like any unknown id.
      if (owner === undefined || sessions.includes(owner)) return true;
      return { hiddenExecution: scope.executionId };
    }
    case 'filtered':
      return true;
    case 'none':
      return false;
  }
}

class BodyTooLarge extends Error {
  readonly statusCode = 413;
  readonly code = 'FST_ERR_CTP_BODY_TOO_LARGE';
}

function limitStream(limit: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > limit) callback(new BodyTooLarge(`Request body is larger than ${limit} bytes`));
      else callback(null, chunk);
    },
  });
}
