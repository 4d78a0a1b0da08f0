// CONTRACT 4 `GET /api/workers`: connected workers, their pools and free slots.
import type { FastifyInstance } from 'fastify';
import type { WorkersView } from '../workers/index.js';
import { respond } from './reply.js';

export function registerWorkerRoutes(app: FastifyInstance, view: () => WorkersView): void {
  app.get('/api/workers', (_request, reply) =>
    Promise.resolve(respond(reply, 200, 'Workers', view())),
  );
}
