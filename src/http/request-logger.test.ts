import Fastify from 'fastify';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { deferredChildLogger } from './request-logger.js';

/** A pino logger whose lines are kept, parsed. */
function keptLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  return { logger, lines };
}

describe('deferredChildLogger', () => {
  it('makes no child until something is logged, then logs with the bindings', () => {
    const { logger, lines } = keptLogger();
    const child = vi.spyOn(logger, 'child');
    const deferred = deferredChildLogger(logger, { reqId: 'r-1' }, {});
    expect(deferred.level).toBe('info');
    expect(child).not.toHaveBeenCalled();
    deferred.debug('below the level');
    expect(lines).toEqual([]);
    expect(child).toHaveBeenCalledTimes(1);
    deferred.error({ reference: 'r-1' }, 'Request failed %s', 'unexpectedly');
    deferred.info('plain');
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines).toMatchObject([
      { reqId: 'r-1', reference: 'r-1', msg: 'Request failed unexpectedly', level: 50 },
      { reqId: 'r-1', msg: 'plain', level: 30 },
    ]);
  });

  it('is the request logger of a Fastify server: a request that logs nothing makes no child', async () => {
    const { logger, lines } = keptLogger();
    const child = vi.spyOn(logger, 'child');
    const server = Fastify({
      loggerInstance: logger,
      disableRequestLogging: true,
      childLoggerFactory: deferredChildLogger,
      genReqId: () => 'req-7',
    });
    server.get('/quiet', () => ({ ok: true }));
    server.get('/loud', (request) => {
      request.log.warn({ seen: true }, 'something to say');
      return { ok: true };
    });
    const made = child.mock.calls.length;
    expect((await server.inject('/quiet')).statusCode).toBe(200);
    expect(child.mock.calls.length).toBe(made);
    expect((await server.inject('/loud')).statusCode).toBe(200);
    expect(child.mock.calls.length).toBe(made + 1);
    expect(lines.at(-1)).toMatchObject({ reqId: 'req-7', seen: true, msg: 'something to say' });
    await server.close();
  });
});
