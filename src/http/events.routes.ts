// Event streams over SSE (SPEC "Events", CONTRACT section 4): the global event stream, an
// execution's structured log entries, and its progress. The service decides what is sent;
// these routes own the connections.
import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ExecutionService } from '../services/index.js';
import { SseStream, lastEventId } from './sse.js';
import type { SseOptions } from './sse.js';

const eventsQuery = z.object({
  sessionId: z.string().optional(),
  executionId: z.string().optional(),
  /** Comma-separated event kinds; a kind ending in `.*` matches its family. */
  kinds: z.string().optional(),
});

const sessionExecutionParams = z.object({ sessionId: z.string(), id: z.string() });

/** `flow=true`: the run's live flow about once a second besides its state events. */
const progressQuery = z.object({
  flow: z
    .enum(['true', 'false'])
    .optional()
    .meta({ description: 'Also send the run’s live flow about once a second (`flow` events)' }),
});

/**
 * The open event streams, which a stop, a takeover or a lost leadership drops. A stream never
 * ends by itself, and the server's close waits for every response in flight, so a stop would
 * otherwise wait for the clients to go away (for ever, with a keep-alive every 15 s).
 */
export class EventStreams {
  readonly #options: SseOptions;
  readonly #open = new Set<SseStream>();

  constructor(options: SseOptions) {
    this.#options = options;
  }

  open(request: FastifyRequest, reply: FastifyReply): SseStream {
    const stream = new SseStream(request, reply, this.#options);
    this.#open.add(stream);
    stream.onClose(() => {
      this.#open.delete(stream);
    });
    return stream;
  }

  /** Ends every open stream; clients reconnect with Last-Event-ID (SPEC Events 3 and 6). */
  closeAll(): void {
    for (const stream of [...this.#open]) stream.close();
  }
}

export interface EventRoutesOptions {
  readonly executions: ExecutionService;
  readonly streams: EventStreams;
}

export const eventRoutes: FastifyPluginCallback<EventRoutesOptions> = (
  app,
  { executions, streams },
  done,
) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  // SPEC Events 6: a stop drops every open stream.
  app.addHook('preClose', (hookDone) => {
    streams.closeAll();
    hookDone();
  });

  api.get('/api/events', { schema: { querystring: eventsQuery } }, (request, reply) => {
    const stream = streams.open(request, reply);
    executions.followEvents(request.query, lastEventId(request), stream);
    return Promise.resolve();
  });

  api.get(
    '/api/sessions/:sessionId/executions/:id/logs/entries',
    { schema: { params: sessionExecutionParams } },
    (request, reply) => {
      const { sessionId, id } = request.params;
      executions.followExecution('logs', sessionId, id, lastEventId(request), () =>
        streams.open(request, reply),
      );
      return Promise.resolve();
    },
  );

  api.get(
    '/api/workflow/:sessionId/status/:id/stream',
    { schema: { params: sessionExecutionParams, querystring: progressQuery } },
    (request, reply) => {
      const { sessionId, id } = request.params;
      executions.followExecution(
        'progress',
        sessionId,
        id,
        lastEventId(request),
        () => streams.open(request, reply),
        { flow: request.query.flow === 'true' },
      );
      return Promise.resolve();
    },
  );
  done();
};
