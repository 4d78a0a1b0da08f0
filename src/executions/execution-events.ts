// What executions tell the outside world (CONTRACT section 3, "Event"): run and node state
// changes, results and log lines. The executions layer declares the sink; the events layer
// implements it.

export type ExecutionEventKind =
  | 'execution.queued'
  | 'execution.started'
  | 'execution.paused'
  | 'execution.resumed'
  | 'execution.completed'
  | 'execution.failed'
  | 'execution.stopped'
  | 'execution.timed_out'
  | 'execution.aborted'
  | 'node.started'
  | 'node.waiting'
  | 'node.paused'
  | 'node.resumed'
  | 'node.completed'
  | 'node.failed'
  | 'node.timed_out'
  | 'node.skipped'
  | 'node.upstream_failed'
  | 'result'
  | 'log'
  | 'approval.requested'
  | 'approval.answered'
  | 'approval.timed_out'
  | 'control.applied'
  | 'control.refused'
  | 'scheduler.limits';

export interface ExecutionEvent {
  readonly kind: ExecutionEventKind;
  readonly timestamp: string;
  /** Null only for events about no execution: scheduler limits, a command without one. */
  readonly executionId: string | null;
  readonly sessionId: string | null;
  readonly workflowId: string | null;
  readonly nodeId?: string;
  readonly [field: string]: unknown;
}

export type ExecutionEventSink = (event: ExecutionEvent) => void;

/** The event of a node reaching a status, when that status has one. */
export const NODE_STATUS_EVENTS: Readonly<Partial<Record<string, ExecutionEventKind>>> = {
  RUNNING: 'node.started',
  WAITING: 'node.waiting',
  PAUSED: 'node.paused',
  COMPLETED: 'node.completed',
  FAILURE: 'node.failed',
  TIMED_OUT: 'node.timed_out',
  SKIPPED: 'node.skipped',
  UPSTREAM_FAILED: 'node.upstream_failed',
};

export const RUN_STATUS_EVENTS: Readonly<Record<string, ExecutionEventKind>> = {
  QUEUED: 'execution.queued',
  RUNNING: 'execution.started',
  PAUSED: 'execution.paused',
  COMPLETED: 'execution.completed',
  FAILED: 'execution.failed',
  STOPPED: 'execution.stopped',
  TIMED_OUT: 'execution.timed_out',
  ABORTED: 'execution.aborted',
};

/** Run and node state changes: never dropped, and what progress streams are made of. */
export function isStateEvent(kind: ExecutionEventKind): boolean {
  return kind.startsWith('execution.') || kind.startsWith('node.');
}
