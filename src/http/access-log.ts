// The access log (`svc.logging.access-log`): one line per answered request, in place of
// Fastify's two request lines, which the server turns off.
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

export function installAccessLog(fastify: FastifyInstance, logger: FastifyBaseLogger): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode;
    const ms = Math.round(reply.elapsedTime * 10) / 10;
    // The path without its query: query strings may carry what a log should not keep.
    const query = request.url.indexOf('?');
    const path = query === -1 ? request.url : request.url.slice(0, query);
    // The fields sit under `access`, which the pretty format leaves out: its message says it all.
    logger.info(
      { requestId: request.id, access: { method: request.method, path, status, ms } },
      `${request.method} ${path} ${status} ${ms} ms`,
    );
    done();
  });
}
