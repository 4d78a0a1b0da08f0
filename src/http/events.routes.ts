// Event streams over SSE (SPEC "Events", CONTRACT section 4): the global event stream, an
// execution's structured log entries, and its progress.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../core/index.js';
import type {
  EventBus,
  EventFeeds,
  EventFilter,
  NumberedEvent,
  ProgressHistory,
} from '../events/index.js';
import { isStateEvent, isTerminalExecutionStatus, statusEvent } from '../executions/index.js';
import type {
  ExecutionEntry,
  ExecutionManager,
  ExecutionRegistry,
  LogEntry,
} from '../executions/index.js';
import { SseStream, lastEventId } from './sse.js';
import type { SseOptions } from './sse.js';

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

/** The open event streams, which a stop, a takeover or a lost leadership drops. */
export interface EventStreams {
  /** Ends every open stream; clients reconnect with Last-Event-ID (SPEC Events 3 and 6). */
  closeAll(): void;
}

export function registerEventRoutes(
  app: FastifyInstance,
  deps: {
    readonly bus: EventBus;
    /** Live events of the global stream, shared by the clients of the same filter. */
    readonly feeds: EventFeeds;
    readonly progress: ProgressHistory;
    readonly executions: ExecutionManager;
    readonly registry: ExecutionRegistry;
    readonly sse: SseOptions;
  },
): EventStreams {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { bus, executions, registry } = deps;

  // SPEC Events 6: a stop drops every open stream. A stream never ends by itself, and the
  // server's close waits for every response in flight, so a stop would otherwise wait for the
  // clients to go away (for ever, with a keep-alive every 15 s).
  const open = new Set<SseStream>();
  const openStream = (request: FastifyRequest, reply: FastifyReply): SseStream => {
    const stream = new SseStream(request, reply, deps.sse);
    open.add(stream);
    stream.onClose(() => {
      open.delete(stream);
    });
    return stream;
  };
  const closeAll = (): void => {
    for (const stream of [...open]) stream.close();
  };
  app.addHook('preClose', (done) => {
    closeAll();
    done();
  });

  api.get('/api/events', { schema: { querystring: eventsQuery } }, (request, reply) => {
    const { sessionId, executionId, kinds } = request.query;
    const kindMatches = kindFilter(kinds);
    const filter: EventFilter = (event) =>
      (sessionId === undefined || event.sessionId === sessionId) &&
      (executionId === undefined || event.executionId === executionId) &&
      kindMatches(event.kind);
    const stream = openStream(request, reply);
    const after = lastEventId(request);
    if (after !== null) {
      for (const numbered of bus.since(after, filter)) stream.sendEvent(numbered);
    }
    // Live events follow the caught-up ones: the feed's reader starts with the next event.
    const key = [sessionId ?? '', executionId ?? '', kinds?.trim() ?? ''].join('\u0000');
    stream.follow(deps.feeds.reader(key, filter));
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
      const stream = openStream(request, reply);
      let sent = lastEventId(request) ?? 0;
      // CONTRACT section 3: every stream sends events; a log event is the entry with its kind.
      const sendLog = (line: LogEntry): void => {
        if (line.seq <= sent) return;
        sent = line.seq;
        stream.send(line.seq, 'log', {
          kind: 'log',
          ...line,
          sessionId: entry.sessionId,
          workflowId: entry.workflowId,
        });
      };
      // Live lines that arrive while the stored ones are written are caught by `sent`.
      const subscription = bus.subscribe(
        (event) =>
          event.executionId === entry.executionId &&
          (event.kind === 'log' || isStateEvent(event.kind)),
        (numbered) => {
          const { event } = numbered;
          if (event.kind === 'log') sendLog(event);
          else if (isTerminalExecutionStatus(entry.status)) stream.close();
        },
      );
      stream.onClose(() => {
        subscription.close();
      });
      for (const line of registry.logsOf(entry)) sendLog(line);
      if (isTerminalExecutionStatus(entry.status)) stream.close();
      return Promise.resolve();
    },
  );

  api.get(
    '/api/workflow/:sessionId/status/:id/stream',
    { schema: { params: z.object({ sessionId: z.string(), id: z.string() }) } },
    (request, reply) => {
      const entry = sessionExecution(request.params.sessionId, request.params.id);
      const stream = openStream(request, reply);
      // CONTRACT section 3: the state events of the run, each with the progress it shows now.
      const send = (numbered: NumberedEvent): void => {
        stream.send(numbered.seq, numbered.event.kind, {
          ...numbered.event,
          progress: progressOf(registry, entry),
        });
      };
      // A late client catches up from the progress history (SPEC Events 4), then follows live.
      const missed = deps.progress.since(entry.executionId, lastEventId(request) ?? 0);
      let sent = 0;
      for (const numbered of missed) {
        send(numbered);
        sent = numbered.seq;
      }
      // Nothing kept (history expired): the current state, as the event of its status.
      if (missed.length === 0 && lastEventId(request) === null) {
        send({
          seq: bus.lastSeq,
          event: statusEvent(
            {
              timestamp: new Date().toISOString(),
              executionId: entry.executionId,
              sessionId: entry.sessionId,
              workflowId: entry.workflowId,
            },
            entry,
          ),
        });
        sent = bus.lastSeq;
      }
      const subscription = bus.subscribe(
        (event) => event.executionId === entry.executionId && isStateEvent(event.kind),
        (numbered) => {
          if (numbered.seq <= sent) return;
          send(numbered);
          if (
            isTerminalExecutionStatus(entry.status) &&
            numbered.event.kind.startsWith('execution.')
          ) {
            stream.close();
          }
        },
      );
      stream.onClose(() => {
        subscription.close();
      });
      if (isTerminalExecutionStatus(entry.status)) stream.close();
      return Promise.resolve();
    },
  );
  return { closeAll };
}

/** How far a run has come: its status, and its nodes by status. */
function progressOf(registry: ExecutionRegistry, entry: ExecutionEntry) {
  const byStatus: Record<string, number> = {};
  let finished = 0;
  for (const node of entry.nodes) {
    byStatus[node.status] = (byStatus[node.status] ?? 0) + 1;
    if (node.endedAt !== null) finished++;
  }
  return {
    status: entry.status,
    nodesTotal: entry.nodes.length,
    nodesFinished: finished,
    byStatus,
    execution: registry.toRecord(entry),
  };
}
