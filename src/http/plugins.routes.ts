// Plugin discovery: kind, JSON Schema of the configuration and ports of every plugin type.
import type { FastifyPluginCallback } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../core/index.js';
import type { PluginRegistry } from '../plugins/index.js';
import { respond } from './reply.js';
import { pluginParams } from './schemas.js';

export interface PluginRoutesOptions {
  readonly plugins: PluginRegistry;
}

export const pluginRoutes: FastifyPluginCallback<PluginRoutesOptions> = (
  app,
  { plugins: registry },
  done,
) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/api/plugins', (_request, reply) =>
    Promise.resolve(respond(reply, 200, 'Plugins', registry.list())),
  );

  api.get('/api/plugins/:type', { schema: { params: pluginParams } }, (request, reply) => {
    const description = registry.describe(request.params.type);
    if (!description) {
      throw new AppError('PLUGIN_TYPE_NOT_FOUND', { params: { type: request.params.type } });
    }
    return Promise.resolve(respond(reply, 200, 'Plugin', description));
  });
  done();
};
