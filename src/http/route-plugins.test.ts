import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyRing } from '../auth/index.js';
import { createSilentLoggers } from '../observability/index.js';
import { createPluginRegistry } from '../plugins/index.js';
import { pluginRoutes } from './plugins.routes.js';
import { createHttpServer } from './server.js';
import type { HttpServer } from './server.js';
import { workerRoutes } from './workers.routes.js';

// Route plugins get their own Fastify context: what the root sets before them must still
// apply to their routes.
describe('Route plugins under the root hooks and handlers', () => {
  let server: HttpServer;

  beforeAll(async () => {
    server = await createHttpServer({
      logger: createSilentLoggers().app,
      bodyLimit: 1024 * 1024,
      compression: { enabled: false, threshold: 1024 },
      access: {
        keys: new KeyRing({ apiKey: 'secret', apiKeys: [], mcpApiKey: null }),
        allowedHosts: [],
        allowedOrigins: [],
        sessionOfExecution: () => undefined,
      },
    });
    await server.fastify.register(pluginRoutes, {
      plugins: createPluginRegistry({ optionalPlugins: [] }),
    });
    await server.fastify.register(workerRoutes, {
      view: () => ({ accepting: false, workers: [], pools: [] }),
    });
    await server.fastify.ready();
  });
  afterAll(async () => {
    await server.fastify.close();
  });

  const get = (url: string, key: string | null = 'secret') =>
    server.fastify.inject({
      method: 'GET',
      url,
      headers: {
        'x-request-id': 'r-1',
        ...(key === null ? {} : { authorization: `Bearer ${key}` }),
      },
    });

  it('lists the routes of every plugin in the route table', () => {
    const urls = server.routes.entries().map((route) => `${route.method} ${route.url}`);
    expect(urls).toEqual(
      expect.arrayContaining(['GET /api/plugins', 'GET /api/plugins/:type', 'GET /api/workers']),
    );
  });

  it('checks the key and names the request on routes of a plugin (SPEC Authentication)', async () => {
    const refused = await get('/api/workers', null);
    expect(refused.statusCode).toBe(401);
    expect(refused.body).toBe('');
    const answered = await get('/api/workers');
    expect(answered.statusCode).toBe(200);
    expect(answered.headers['x-request-id']).toBe('r-1');
  });

  it("answers a plugin's errors in the envelope of the root's error handler", async () => {
    const unknown = await get('/api/plugins/NOPE');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ status: 404, path: '/api/plugins/NOPE' });
  });

  it('answers a method no plugin serves 405 with Allow, and an unknown path 404', async () => {
    const wrongMethod = await server.fastify.inject({
      method: 'DELETE',
      url: '/api/workers',
      headers: { authorization: 'Bearer secret' },
    });
    expect(wrongMethod.statusCode).toBe(405);
    expect(wrongMethod.headers.allow).toBe('GET, HEAD');
    const unknown = await get('/api/nothing');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ status: 404, message: 'No endpoint GET /api/nothing' });
  });
});
