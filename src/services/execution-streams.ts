// Event streams of executions (SPEC "Events", CONTRACT section 3): the global event stream, an
// execution's structured log entries and its progress. What each client is sent is decided
// here; the edge only owns the connection.
import type {
  BusEvent,
  EventBus,
  EventFeeds,
  EventFilter,
  FeedReader,
  NumberedEvent,
  ProgressHistory,
} from '../events/index.js';
import { isStateEvent, isTerminalExecutionStatus, statusEvent } from '../executions/index.js';
import type { ExecutionEntry, ExecutionRegistry, LogEntry } from '../executions/index.js';
import { streamProgress } from './execution-views.js';
import { followFlow } from './flow-stream.js';
import type { FlowSource } from './flow-stream.js';

/** One client's stream of server-sent events. */
export interface EventSink {
  /** `id` null: an event outside the stream's numbering (a live flow snapshot). */
  send(id: number | null, event: string, data: unknown): void;
  /** An event of the bus, made into a frame once however many clients are sent it. */
  sendEvent(event: BusEvent): void;
  /** Sends the live events of a shared feed after what was sent so far. */
  follow(reader: FeedReader): void;
  onClose(callback: () => void): void;
  close(): void;
}

/** Which events of the global stream a client wants. */
export interface EventQuery {
  readonly sessionId?: string | undefined;
  readonly executionId?: string | undefined;
  /** Comma-separated event kinds; a kind ending in `.*` matches its family. */
  readonly kinds?: string | undefined;
}

export interface StreamSources {
  readonly bus: EventBus;
  /** Live events of the global stream, shared by the clients of the same filter. */
  readonly feeds: EventFeeds;
  readonly progress: ProgressHistory;
  readonly registry: ExecutionRegistry;
  readonly flow: FlowSource;
}

/** What a client of an execution's stream asked for beyond its events. */
export interface ExecutionStreamOptions {
  /** Progress stream: the run's live flow about once a second, as `flow` events. */
  readonly flow?: boolean | undefined;
}

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

/** The global stream: events kept after `after` (Last-Event-ID), then the live ones. */
export function followEvents(
  sources: StreamSources,
  query: EventQuery,
  after: number | null,
  sink: EventSink,
): void {
  const { sessionId, executionId, kinds } = query;
  const kindMatches = kindFilter(kinds);
  const filter: EventFilter = (event) =>
    (sessionId === undefined || event.sessionId === sessionId) &&
    (executionId === undefined || event.executionId === executionId) &&
    kindMatches(event.kind);
  if (after !== null) {
    for (const numbered of sources.bus.since(after, filter)) sink.sendEvent(numbered);
  }
  // Live events follow the caught-up ones: the feed's reader starts with the next event. The
  // whole stream is read from the bus's history as it is, without a filter to run per event.
  const key = [sessionId ?? '', executionId ?? '', kinds?.trim() ?? ''].join('\u0000');
  const whole = sessionId === undefined && executionId === undefined && (kinds ?? '').trim() === '';
  sink.follow(sources.feeds.reader(key, whole ? undefined : filter));
}

/** An execution's log entries after `after`, live until the run ends. */
export function followLogs(
  sources: StreamSources,
  entry: ExecutionEntry,
  after: number | null,
  sink: EventSink,
  _options: ExecutionStreamOptions = {},
): void {
  let sent = after ?? 0;
  // CONTRACT section 3: every stream sends events; a log event is the entry with its kind.
  const sendLog = (line: LogEntry): void => {
    if (line.seq <= sent) return;
    sent = line.seq;
    sink.send(line.seq, 'log', {
      kind: 'log',
      ...line,
      sessionId: entry.sessionId,
      workflowId: entry.workflowId,
    });
  };
  // Live lines that arrive while the stored ones are written are caught by `sent`.
  const subscription = sources.bus.subscribe(
    (event) =>
      event.executionId === entry.executionId && (event.kind === 'log' || isStateEvent(event.kind)),
    (numbered) => {
      const { event } = numbered;
      if (event.kind === 'log') sendLog(event);
      else if (isTerminalExecutionStatus(entry.status)) sink.close();
    },
  );
  sink.onClose(() => {
    subscription.close();
  });
  for (const line of sources.registry.logsOf(entry)) sendLog(line);
  if (isTerminalExecutionStatus(entry.status)) sink.close();
}

/**
 * An execution's state events, each with its progress now, until the run ends; with `flow`,
 * the run's live flow between them.
 */
export function followProgress(
  sources: StreamSources,
  entry: ExecutionEntry,
  after: number | null,
  sink: EventSink,
  options: ExecutionStreamOptions = {},
): void {
  const { bus, registry } = sources;
  const send = (numbered: NumberedEvent): void => {
    sink.send(numbered.seq, numbered.event.kind, {
      ...numbered.event,
      progress: streamProgress(registry, entry),
    });
  };
  // A late client catches up from the progress history (SPEC Events 4), then follows live.
  const missed = sources.progress.since(entry.executionId, after ?? 0);
  let sent = 0;
  for (const numbered of missed) {
    send(numbered);
    sent = numbered.seq;
  }
  // Nothing kept (history expired, or a run of an earlier server process): the current state,
  // as the event of its status, with the time it reached it: an old end is not news.
  if (missed.length === 0 && after === null) {
    const since = entry.endedAt ?? entry.startedAt ?? entry.createdAt;
    send({
      seq: bus.lastSeq,
      event: statusEvent(
        {
          timestamp: new Date(since).toISOString(),
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
      if (isTerminalExecutionStatus(entry.status) && numbered.event.kind.startsWith('execution.')) {
        sink.close();
      }
    },
  );
  sink.onClose(() => {
    subscription.close();
  });
  if (isTerminalExecutionStatus(entry.status)) sink.close();
  else if (options.flow === true) followFlow(sources.flow, entry, sink);
}
