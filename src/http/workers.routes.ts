// CONTRACT 4 `GET /api/workers`: connected workers, their pools and free slots.
import type { FastifyPluginCallback } from 'fastify';
import type { WorkersView } from '../workers/index.js';
import { respond } from './reply.js';

export interface WorkerRoutesOptions {
  readonly view: () => WorkersView;
}

export const workerRoutes: FastifyPluginCallback<WorkerRoutesOptions> = (app, { view }, done) => {
  app.get('/api/workers', (_request, reply) =>
    Promise.resolve(respond(reply, 200, 'Workers', view())),
  );
  done();
};
