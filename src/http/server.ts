// The Fastify server: envelope on every answer, SPEC's input errors, request ids, 404/405.
import compress from '@fastify/compress';
import Fastify, { LogController } from 'fastify';
import type {
  FastifyBaseLogger,
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
} from 'fastify';
import { RESTRICTED_BODY_LIMIT, installAccessControl, isUnrestrictedAdmin } from '../auth/index.js';
import type { AccessControlOptions } from '../auth/index.js';
import { AppError, isAppError, randomIds } from '../core/index.js';
import { errorEnvelope } from './envelope.js';
import { httpStatusOf } from './error-mapping.js';
import { installAccessLog } from './access-log.js';
import { parseJsonBody } from './json-body.js';
import { deferredChildLogger } from './request-logger.js';
import { MAX_PATH_PARAM_LENGTH, answerClientError, routerErrorOf } from './pre-route-errors.js';
import { zodValidatorCompiler } from './request-validation.js';
import { RETRY_AFTER_STATUSES, describeRoute } from './api-contract/index.js';
import type { ErrorStatus } from './api-contract/index.js';
import { answerSerializerCompiler } from './answer-serializer.js';
import { installAnswerCheck } from './answer-check.js';
import type { AnswerMismatch } from './answer-check.js';
import { RequestRateLimiter, isRateLimitedPath } from './rate-limit.js';
import { RouteTable } from './route-table.js';

export interface HttpServerOptions {
  readonly logger: FastifyBaseLogger;
  readonly bodyLimit: number;
  /** Compress answers larger than `threshold` bytes (the prod profile). */
  readonly compression: { readonly enabled: boolean; readonly threshold: number };
  readonly access: AccessControlOptions;
  /** Requests per minute each API caller may make; null: no limit (docs/architecture.md). */
  readonly requestsPerMinute?: number | null;
  /** One INFO line per answered request (`svc.logging.access-log`). */
  readonly accessLog?: boolean;
  /**
   * `Retry-After` of every 503 (a standby, a restart not accepted in time, a server closing)
   * and of every refused start (429): SPEC Errors says to retry those with backoff, and this
   * says after how long. 5 s by default.
   */
  readonly retryAfterSeconds?: number;
  /**
   * Holds every answer to its documented schema and reports each mismatch, answered 500
   * (answer-check.ts); the tests turn it on.
   */
  readonly checkAnswers?: (mismatch: AnswerMismatch) => void;
}

export interface HttpServer {
  readonly fastify: FastifyInstance;
  readonly routes: RouteTable;
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;
const DEFAULT_RETRY_AFTER_SECONDS = 5;

export async function createHttpServer(options: HttpServerOptions): Promise<HttpServer> {
  const retryAfter = String(options.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS);
  const fastify = Fastify({
    loggerInstance: options.logger,
    // Request lines would drown the application log; failures are logged where they happen.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: deferredChildLogger,
    bodyLimit: options.bodyLimit,
    // Fastify's own 503 while closing has no envelope; the hook below answers instead.
    return503OnClosing: false,
    // An id accepted on create can be read and deleted: the limits agree.
    routerOptions: { maxParamLength: MAX_PATH_PARAM_LENGTH },
    // Requests refused before any hook runs are still answered in the envelope.
    clientErrorHandler: (error, socket) => {
      answerClientError(error, socket, options.logger);
    },
    frameworkErrors: (error, request, reply) => {
      void reply.header('X-Request-ID', request.id);
      void sendError(error, request, reply, retryAfter);
    },
    // A caller's own request id is kept when it is a plain token, so logs can be correlated.
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomIds();
    },
  });
  const routes = new RouteTable();

  fastify.setValidatorCompiler(zodValidatorCompiler);
  fastify.setSerializerCompiler(answerSerializerCompiler);
  // Only JSON is accepted as a request body: anything else is answered 415.
  fastify.removeContentTypeParser(['text/plain', 'application/json']);
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    (_request, body, done) => {
      try {
        done(null, parseJsonBody(body as string));
      } catch (error) {
        done(error as AppError, undefined);
      }
    },
  );
  fastify.addHook('onRoute', (route) => {
    describeRoute(route);
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) routes.add(method, route.url);
  });
  let closing = false;
  fastify.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    // On the raw answer, so that answers written past Fastify (the tool endpoint, event
    // streams) carry it too; headers Fastify writes later are merged with it.
    reply.raw.setHeader('X-Request-ID', request.id);
    if (!closing) {
      done();
      return;
    }
    // A request on a kept-alive connection while the server drains: refused, and the
    // connection is not kept.
    void reply.header('Connection', 'close');
    done(new AppError('SERVER_CLOSING'));
  });
  if (options.accessLog === true) installAccessLog(fastify, options.logger);
  installAccessControl(fastify, options.access);
  // After the access check, so a caller is known by its key.
  const perMinute = options.requestsPerMinute ?? null;
  if (perMinute !== null) {
    const limiter = new RequestRateLimiter({ requestsPerMinute: perMinute });
    fastify.addHook('onRequest', async (request, reply) => {
      if (!isRateLimitedPath(pathOf(request))) return;
      const wait = limiter.take(request.principal?.actor ?? `address:${request.ip}`);
      if (wait === 0) return;
      void reply.header('Retry-After', String(wait));
      throw new AppError('RATE_LIMITED', { params: { limit: perMinute, seconds: wait } });
    });
  }
  fastify.setErrorHandler((error, request, reply) => sendError(error, request, reply, retryAfter));
  fastify.setNotFoundHandler((request, reply) => {
    const path = pathOf(request);
    const allowed = routes.allowedMethods(path);
    const error =
      allowed.length > 0
        ? new AppError('METHOD_NOT_ALLOWED', {
            params: { method: request.method, path, allowed: allowed.join(', ') },
          })
        : new AppError('ROUTE_NOT_FOUND', { params: { method: request.method, path } });
    if (allowed.length > 0) void reply.header('Allow', allowed.join(', '));
    return sendError(error, request, reply, retryAfter);
  });
  if (options.checkAnswers !== undefined) installAnswerCheck(fastify, options.checkAnswers);
  if (options.compression.enabled) {
    await fastify.register(compress, { global: true, threshold: options.compression.threshold });
  }
  return { fastify, routes };
}

function sendError(
  error: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
  retryAfter: string,
): FastifyReply {
  const appError = toAppError(error, request);
  // SPEC Roles: for any key but an unrestricted ADMIN key, a POST body that cannot be parsed
  // is refused like an access check, with no body.
  // A request refused by the router has no principal: no hook ran.
  const principal = request.principal ?? null;
  if (
    principal !== null &&
    !isUnrestrictedAdmin(principal) &&
    request.method === 'POST' &&
    appError.code === 'INVALID_REQUEST_BODY' &&
    appError.fieldErrors.some((field) => field.field === 'body')
  ) {
    return reply.code(403).send();
  }
  const status = httpStatusOf(appError.code);
  // A 401 has no body, as the access checks answer it (SPEC Authentication); only a hook call
  // without its secret gets one here.
  if (status === 401) return reply.code(401).header('WWW-Authenticate', 'Hook').send();
  if (status === 500) {
    request.log.error({ err: error, reference: request.id }, 'Request failed unexpectedly');
  }
  // Every 503 is worth a retry, later or elsewhere (SPEC Errors: retry 503 with backoff), and
  // so is every 429: the rate limiter says when its bucket refills, a refused start gets the
  // same wait as a 503.
  if (RETRY_AFTER_STATUSES.includes(status as ErrorStatus) && !reply.hasHeader('Retry-After'))
    void reply.header('Retry-After', retryAfter);
  return reply
    .status(status)
    .type('application/json; charset=utf-8')
    .send(errorEnvelope(status, appError.message, pathOf(request), appError.fieldErrors));
}

/** Fastify's own failures become catalogue errors; anything unknown is an unexpected one. */
function toAppError(error: unknown, request: FastifyRequest): AppError {
  if (isAppError(error)) {
    // A 500 never tells what failed; a 503 (a standby, a restart not accepted in time) is an
    // answer the client acts on.
    return error.kind === 'unexpected' || httpStatusOf(error.code) === 500
      ? internal(request, error)
      : error;
  }
  const fastifyError = error as Partial<FastifyError>;
  const routerError = routerErrorOf(fastifyError, pathOf(request));
  if (routerError !== undefined) return routerError;
  if (fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    const restricted = request.principal !== null && !isUnrestrictedAdmin(request.principal);
    const limit = restricted
      ? Math.min(RESTRICTED_BODY_LIMIT, request.routeOptions.bodyLimit)
      : request.routeOptions.bodyLimit;
    return new AppError('PAYLOAD_TOO_LARGE', { params: { limit } });
  }
  if (fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return new AppError('UNSUPPORTED_MEDIA_TYPE', {
      params: { contentType: request.headers['content-type'] ?? '' },
    });
  }
  const status = fastifyError.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    return new AppError('BAD_REQUEST', {
      params: { detail: fastifyError.message ?? 'Bad request' },
    });
  }
  return internal(request, error);
}

function internal(request: FastifyRequest, cause: unknown): AppError {
  return new AppError('INTERNAL', { params: { reference: request.id }, cause });
}

export function pathOf(request: FastifyRequest): string {
  const index = request.url.indexOf('?');
  return index === -1 ? request.url : request.url.slice(0, index);
}
