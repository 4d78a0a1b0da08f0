// Event streams over SSE (SPEC "Events", CONTRACT section 4): the global event stream, an
// execution's structured log entries, and its progress.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../core/index.js';
import type { EventBus, EventFilter } from '../events/index.js';
import { isTerminalExecutionStatus } from '../executions/index.js';
import type { ExecutionEntry, ExecutionManager, ExecutionRegistry } from '../executions/index.js';
import { SseStream, lastEventId } from './sse.js';
import type { SseOptions } from './sse.js';

const STATE_KINDS = /^(execution|node)\./;

const eventsQuery = z.object({
  sessionId: z.string().optional(),
  executionId: z.string().optional(),
  /** Comma-separated event kinds; a kind ending in `.*` matches its family. */
  kinds: z.string().optional(),
});

function kindFilter(kinds: string | undefined): (kind: string) => boolean {
  if (kinds === undefined || kinds.trim() === '') return () => true;
  const wanted = kinds
    .split(',')
    .map((kind) => kind.trim())
    .filter((kind) => kind !== '');
  return (kind) =>
    wanted.some((entry) =>
      entry.endsWith('.*') ? kind.startsWith(entry.slice(0, -1)) : kind === entry,
    );
}

export function registerEventRoutes(
  app: FastifyInstance,
  deps: {
    readonly bus: EventBus;
    readonly executions: ExecutionManager;
    readonly registry: ExecutionRegistry;
    readonly sse: SseOptions;
  },
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { bus, executions, registry } = deps;

  api.get('/api/events', { schema: { querystring: eventsQuery } }, (request, reply) => {
    const { sessionId, executionId, kinds } = request.query;
    const kindMatches = kindFilter(kinds);
    const filter: EventFilter = (event) =>
      (sessionId === undefined || event.sessionId === sessionId) &&
      (executionId === undefined || event.executionId === executionId) &&
      kindMatches(event.kind);
    const stream = new SseStream(request, reply, deps.sse);
    const after = lastEventId(request);
    if (after !== null) {
      for (const numbered of bus.since(after, filter)) {
        stream.send(numbered.seq, numbered.event.kind, numbered.event);
      }
    }
    const subscription = bus.subscribe(filter, (numbered) => {
      stream.send(numbered.seq, numbered.event.kind, numbered.event);
    });
    stream.onClose(() => {
      subscription.close();
    });
    return Promise.resolve();
  });

  const sessionExecution = (sessionId: string, executionId: string): ExecutionEntry => {
    const entry = executions.require(executionId);
    // An execution of another session is answered like an unknown one (SPEC Errors, 404).
    if (entry.sessionId !== sessionId) {
      throw new AppError('EXECUTION_NOT_FOUND', { params: { executionId } });
    }
    return entry;
  };

  api.get(
    '/api/sessions/:sessionId/executions/:id/logs/entries',
    { schema: { params: z.object({ sessionId: z.string(), id: z.string() }) } },
    (request, reply) => {
      const entry = sessionExecution(request.params.sessionId, request.params.id);
      const stream = new SseStream(request, reply, deps.sse);
      let sent = lastEventId(request) ?? 0;
      const sendLog = (seq: number, line: unknown): void => {
        if (seq <= sent) return;
        sent = seq;
        stream.send(seq, 'log', line);
      };
      // Live lines that arrive while the stored ones are written are caught by `sent`.
      const subscription = bus.subscribe(
        (event) =>
          event.executionId === entry.executionId &&
          (event.kind === 'log' || STATE_KINDS.test(event.kind)),
        (numbered) => {
          const { event } = numbered;
          if (event.kind === 'log') {
            const { kind: _kind, sessionId: _session, workflowId: _workflow, ...line } = event;
            sendLog(Number(line.seq), line);
          } else if (isTerminalExecutionStatus(entry.status)) {
            stream.close();
          }
        },
      );
      stream.onClose(() => {
        subscription.close();
      });
      for (const line of entry.logs) sendLog(line.seq, line);
      if (isTerminalExecutionStatus(entry.status)) stream.close();
      return Promise.resolve();
    },
  );

  api.get(
    '/api/workflow/:sessionId/status/:id/stream',
    { schema: { params: z.object({ sessionId: z.string(), id: z.string() }) } },
    (request, reply) => {
      const entry = sessionExecution(request.params.sessionId, request.params.id);
      const filter: EventFilter = (event) =>
        event.executionId === entry.executionId && STATE_KINDS.test(event.kind);
      const stream = new SseStream(request, reply, deps.sse);
      const snapshot = (seq: number, cause: string | null): void => {
        stream.send(seq, 'progress', { cause, execution: registry.toRecord(entry) });
      };
      // A late client first catches up with the state changes it missed, then sees the
      // current state, then follows live.
      const after = lastEventId(request);
      const missed = after === null ? [] : bus.since(after, filter);
      for (const numbered of missed) stream.send(numbered.seq, numbered.event.kind, numbered.event);
      const subscription = bus.subscribe(filter, (numbered) => {
        snapshot(numbered.seq, numbered.event.kind);
        if (
          isTerminalExecutionStatus(entry.status) &&
          numbered.event.kind.startsWith('execution.')
        ) {
          stream.close();
        }
      });
      stream.onClose(() => {
        subscription.close();
      });
      snapshot(missed.at(-1)?.seq ?? after ?? 0, null);
      if (isTerminalExecutionStatus(entry.status)) stream.close();
      return Promise.resolve();
    },
  );
}
