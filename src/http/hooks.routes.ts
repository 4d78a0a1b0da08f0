// Hook calls (docs/webhooks.md): `POST /api/hooks/{sessionId}/{workflowId}` starts a workflow
// with a WEBHOOK_TRIGGER. The body is read as bytes here, because a signature signs the bytes
// as they came; it is then parsed by the one JSON body parser, and an empty body is no payload.
import type { FastifyPluginCallback } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { HookService } from '../services/index.js';
import { parseJsonBody } from './json-body.js';
import { respond } from './reply.js';
import { headerText, idempotencyKey } from './request-headers.js';

export interface HookRoutesOptions {
  readonly hooks: HookService;
}

const EMPTY = Buffer.alloc(0);

interface HookBody {
  readonly raw: Buffer;
  readonly payload: unknown;
}

export const hookRoutes: FastifyPluginCallback<HookRoutesOptions> = (app, { hooks }, done) => {
  // In this plugin only: every other route keeps the server's parser.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, parsed) => {
    const raw = body as Buffer;
    try {
      const payload = raw.length === 0 ? undefined : parseJsonBody(raw.toString('utf8'));
      parsed(null, { raw, payload } satisfies HookBody);
    } catch (error) {
      parsed(error as Error, undefined);
    }
  });
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/api/hooks/:sessionId/:workflowId',
    { schema: { params: z.object({ sessionId: z.string(), workflowId: z.string() }) } },
    async (request, reply) => {
      const body = request.body as HookBody | undefined;
      const answer = await hooks.call({
        ...request.params,
        body: body?.raw ?? EMPTY,
        payload: body?.payload,
        secret: headerText(request.headers, 'x-hook-secret'),
        signature: headerText(request.headers, 'x-hook-signature'),
        idempotencyKey: idempotencyKey(request.headers),
      });
      switch (answer.kind) {
        case 'accepted':
          void reply.header('X-Execution-ID', answer.start.executionId);
          return respond(reply, 202, 'Execution accepted', answer.start);
        case 'answered':
          void reply.header('X-Execution-ID', answer.executionId);
          return respond(reply, 200, 'The run answered', answer.payload);
        case 'completed':
          void reply.header('X-Execution-ID', answer.executionId);
          return respond(reply, 200, 'The run completed without a terminal message', null);
      }
    },
  );
  done();
};
