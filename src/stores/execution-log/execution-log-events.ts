// What the durable execution log holds (SPEC "Deployment facts", Events 8): run and node
// starts and ends, control commands and scheduler limit changes, one JSON object per line.

/** A start was accepted: the run is running or queued. Written before the start is answered. */
export interface RunAcceptedEvent {
  readonly type: 'run.accepted';
  readonly at: number;
  readonly executionId: string;
  readonly sessionId: string;
  readonly workflowId: string;
  readonly workflowVersion: number;
  /** Digest of the workflow definition the run uses: recover refuses a changed workflow. */
  readonly definitionHash: string;
  readonly priority: number;
  /** Root of the run's derived message ids, shared with its restarts and resumes. */
  readonly lineage: string;
  /** Whether `payload` holds the start payload (an over-large one is not recorded). */
  readonly payloadRecorded: boolean;
  readonly payload?: unknown;
  readonly restartOf: string | null;
  readonly resumedFrom: string | null;
  readonly parentExecutionId: string | null;
}

export interface RunStartedEvent {
  readonly type: 'run.started';
  readonly at: number;
  readonly executionId: string;
}

export interface RunEndedEvent {
  readonly type: 'run.ended';
  readonly at: number;
  readonly executionId: string;
  readonly status: string;
  readonly error: string | null;
}

/** Recover started a new run from this one: a run is resumed once (SPEC rule 4). */
export interface RunResumedEvent {
  readonly type: 'run.resumed';
  readonly at: number;
  readonly executionId: string;
  readonly by: string;
}

export interface NodeStartedEvent {
  readonly type: 'node.started';
  readonly at: number;
  readonly executionId: string;
  readonly nodeId: string;
  readonly nodeType: string;
}

export interface NodeEndedEvent {
  readonly type: 'node.ended';
  readonly at: number;
  readonly executionId: string;
  readonly nodeId: string;
  readonly nodeType: string;
  readonly status: string;
  readonly error: string | null;
  readonly startedAt: number | null;
  readonly messagesIn: number;
  readonly messagesOut: number;
  readonly retries: number;
}

/** A result event of a run as the execution kept it (CONTRACT section 3). */
export interface StoredResult {
  readonly seq: number;
  readonly timestamp: string;
  readonly nodeId: string;
  readonly messageId: string;
  readonly payload: unknown;
}

/** A structured log entry of a run as the execution kept it (CONTRACT section 3). */
export interface StoredLogLine {
  readonly seq: number;
  readonly timestamp: string;
  readonly executionId: string;
  readonly nodeId: string;
  readonly level: string;
  readonly message: string;
  readonly fields: Readonly<Record<string, unknown>>;
}

/**
 * What a run kept of its results and log lines when it ended, within SPEC's bounds, so that a
 * restarted server shows them. Written once per run, before its end: a run that is cut off
 * has none, and says so.
 */
export interface RunOutputsEvent {
  readonly type: 'run.outputs';
  readonly at: number;
  readonly executionId: string;
  readonly results: readonly StoredResult[];
  readonly logs: readonly StoredLogLine[];
  /** Some results of the run had already been dropped (bounds, time to live). */
  readonly resultsNotKept: boolean;
  /** Some log lines of the run had already been dropped (bounds, retention). */
  readonly logsNotKept: boolean;
}

/** A control command, applied or refused, with its sender (an audit entry). */
export interface ControlEvent {
  readonly type: 'control';
  readonly at: number;
  readonly executionId: string | null;
  readonly entry: Readonly<Record<string, unknown>>;
}

export interface LimitsEvent {
  readonly type: 'limits';
  readonly at: number;
  readonly limits: Readonly<Record<string, unknown>>;
}

export type ExecutionLogEvent =
  | RunAcceptedEvent
  | RunStartedEvent
  | RunEndedEvent
  | RunResumedEvent
  | NodeStartedEvent
  | NodeEndedEvent
  | RunOutputsEvent
  | ControlEvent
  | LimitsEvent;

/** `svc.tracker.log.append.failed` tags failures by what the event was about. */
export function appendFailureType(event: ExecutionLogEvent): 'node' | 'run' {
  return event.type === 'node.started' || event.type === 'node.ended' ? 'node' : 'run';
}

/** The execution log's storage. Appends are queued and written in batches. */
export interface ExecutionLogStore {
  /** Whether the log survives a restart of the server. */
  readonly durable: boolean;
  /** Reads every event the log holds, oldest first; a torn last line is ignored. */
  open(): Promise<ExecutionLogEvent[]>;
  /** Queues an event; failures are reported to the store's `onAppendFailed`. */
  append(event: ExecutionLogEvent): void;
  /** Events appended and not yet on storage (`svc.tracker.queue.depth`). */
  readonly pending: number;
  /** Resolves once every event appended so far is on storage (or has failed). */
  durableNow(): Promise<void>;
  /** Replaces the log's content with `events` (which stand for everything appended so far). */
  compact(events: readonly ExecutionLogEvent[]): Promise<void>;
  /** Writes what is queued, waiting at most `timeoutMs`, and closes. */
  close(timeoutMs: number): Promise<void>;
}
