import { describe, expect, it } from 'vitest';
import { defaultSettings } from '../config/index.js';
import { createLoggers } from '../observability/index.js';
import { createBareHttpServer } from './testing/index.js';

async function serverWithLog(accessLog: boolean): Promise<{
  inject: (url: string) => Promise<void>;
  lines: () => Record<string, unknown>[];
}> {
  const written: string[] = [];
  const loggers = createLoggers(
    { root: 'INFO', app: 'INFO', engine: 'INFO' },
    { write: (line: string) => written.push(line) },
  );
  const { fastify } = await createBareHttpServer({ logger: loggers.app, accessLog });
  fastify.get('/api/things', () => ({ ok: true }));
  await fastify.ready();
  return {
    inject: async (url) => {
      await fastify.inject({ method: 'GET', url, headers: { host: 'localhost' } });
    },
    lines: () => written.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe('access log (svc.logging.access-log)', () => {
  it('logs one line per answered request with method, path, status, duration and request id', async () => {
    const server = await serverWithLog(true);
    await server.inject('/api/things?token=hidden');
    await server.inject('/api/nothing');
    const lines = server.lines();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      level: 30,
      access: { method: 'GET', path: '/api/things', status: 200 },
      msg: expect.stringMatching(/^GET \/api\/things 200 [\d.]+ ms$/) as unknown,
    });
    expect(typeof lines[0]?.requestId).toBe('string');
    expect(JSON.stringify(lines)).not.toContain('hidden');
    expect(lines[1]).toMatchObject({ access: { path: '/api/nothing', status: 404 } });
  });

  it('logs no request lines while it is off', async () => {
    const server = await serverWithLog(false);
    await server.inject('/api/things');
    expect(server.lines()).toEqual([]);
  });

  it('is on in dev and off in prod by default', () => {
    expect(defaultSettings('dev')['svc.logging.access-log']).toBe(true);
    expect(defaultSettings('prod')['svc.logging.access-log']).toBe(false);
  });
});
