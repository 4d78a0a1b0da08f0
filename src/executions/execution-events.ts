// What executions tell the outside world (CONTRACT section 3, "Event"): run and node state
// changes, results and log lines. The executions layer declares the sink; the events layer
// implements it. One union by `kind`, so that every reader is checked against every kind.
import type { LogLevel, NodeStatus, RunEndStatus } from '../engine/index.js';
import type { AdmissionLimits } from './admission.js';
import type { ExecutionStatus } from './execution-states.js';
import type { HELD_BYTES } from './held-bytes.js';

/** What every event carries; `nodeId` only where the event is about one node. */
interface EventHeader {
  /** What a result or log event counts against the event history's byte budget. */
  readonly [HELD_BYTES]?: number;
  readonly timestamp: string;
  /** Null only for events about no execution: scheduler limits, a command without one. */
  readonly executionId: string | null;
  readonly sessionId: string | null;
  readonly workflowId: string | null;
  readonly nodeId?: string;
}

/** The header of an event about one execution. */
export interface ExecutionHeader extends EventHeader {
  readonly executionId: string;
  readonly sessionId: string;
  readonly workflowId: string;
}

/** A run ended; `aborted` only in boot recovery (SPEC "Recover conditions"). */
export type RunEndEventKind =
  | 'execution.completed'
  | 'execution.failed'
  | 'execution.stopped'
  | 'execution.timed_out'
  | 'execution.aborted';

/** The statuses an execution can end in, and the event of each. */
export type EndStatus = RunEndStatus | 'ABORTED';

export type NodeEventKind =
  | 'node.started'
  | 'node.waiting'
  | 'node.paused'
  | 'node.resumed'
  | 'node.completed'
  | 'node.failed'
  | 'node.timed_out'
  | 'node.skipped'
  | 'node.upstream_failed';

/** What an event of one execution says, without the header. */
export type ExecutionEventBody =
  | { readonly kind: 'execution.queued'; readonly status: 'QUEUED'; readonly priority: number }
  | { readonly kind: 'execution.started'; readonly status: 'RUNNING' }
  /** A waiting start is paused and resumed too, and stays QUEUED (SPEC rule 1). */
  | { readonly kind: 'execution.paused'; readonly status: 'PAUSED' | 'QUEUED' }
  | { readonly kind: 'execution.resumed'; readonly status: 'RUNNING' | 'QUEUED' }
  | {
      readonly kind: RunEndEventKind;
      readonly status: EndStatus;
      readonly error: string | null;
    }
  | {
      readonly kind: NodeEventKind;
      readonly nodeId: string;
      readonly status: NodeStatus;
      readonly error: string | null;
      readonly messagesIn: number;
      readonly messagesOut: number;
      readonly retries: number;
    }
  | {
      readonly kind: 'result';
      readonly nodeId: string;
      readonly seq: number;
      readonly messageId: string;
      readonly payload: unknown;
    }
  /** CONTRACT section 3: a structured log entry with its kind. */
  | {
      readonly kind: 'log';
      readonly seq: number;
      readonly nodeId: string;
      readonly level: LogLevel;
      readonly message: string;
      readonly fields: Readonly<Record<string, unknown>>;
    }
  | {
      readonly kind: 'approval.requested';
      readonly nodeId: string;
      readonly messageId: string;
      readonly prompt: string | null;
    }
  | {
      readonly kind: 'approval.answered';
      readonly nodeId: string;
      readonly messageId: string;
      readonly approved: boolean;
      readonly comment: string | null;
      /** The answer a resumed run recorded, used again (SPEC Events 9). */
      readonly reused?: true;
    }
  | { readonly kind: 'approval.timed_out'; readonly nodeId: string; readonly messageId: string };

/** An event about one execution. */
export type ExecutionScopedEvent = ExecutionHeader & ExecutionEventBody;

/** CONTRACT section 3: a control audit entry, as its event. */
export interface ControlEvent extends EventHeader {
  readonly kind: 'control.applied' | 'control.refused';
  readonly id: string;
  readonly command: string;
  readonly outcome: 'APPLIED' | 'REFUSED';
  readonly reason: string | null;
  readonly actor: string | null;
}

export interface SchedulerLimitsEvent extends EventHeader {
  readonly kind: 'scheduler.limits';
  readonly executionId: null;
  readonly sessionId: null;
  readonly workflowId: null;
  readonly limits: AdmissionLimits;
}

export type ExecutionEvent = ExecutionScopedEvent | ControlEvent | SchedulerLimitsEvent;

export type ExecutionEventKind = ExecutionEvent['kind'];

export type ExecutionEventSink = (event: ExecutionEvent) => void;

/** The event of a node reaching a status, when that status has one. */
export const NODE_STATUS_EVENTS = {
  PENDING: undefined,
  RUNNING: 'node.started',
  WAITING: 'node.waiting',
  PAUSED: 'node.paused',
  COMPLETED: 'node.completed',
  FAILURE: 'node.failed',
  TIMED_OUT: 'node.timed_out',
  SKIPPED: 'node.skipped',
  UPSTREAM_FAILED: 'node.upstream_failed',
  STOPPED: undefined,
  CANCELLED: undefined,
} as const satisfies Record<NodeStatus, NodeEventKind | undefined>;

/** The event of an execution reaching an end status. */
export const END_STATUS_EVENTS = {
  COMPLETED: 'execution.completed',
  FAILED: 'execution.failed',
  STOPPED: 'execution.stopped',
  TIMED_OUT: 'execution.timed_out',
  ABORTED: 'execution.aborted',
} as const satisfies Record<EndStatus, RunEndEventKind>;

/** The event of an execution reaching a status. */
export const RUN_STATUS_EVENTS = {
  QUEUED: 'execution.queued',
  RUNNING: 'execution.started',
  PAUSED: 'execution.paused',
  ...END_STATUS_EVENTS,
} as const satisfies Record<ExecutionStatus, ExecutionEventKind>;

/**
 * The event that tells an execution's present status, for a client that joins once the
 * events that led to it are gone.
 */
export function statusEvent(
  header: ExecutionHeader,
  execution: {
    readonly status: ExecutionStatus;
    readonly priority: number;
    readonly error: string | null;
  },
): ExecutionScopedEvent {
  const { status } = execution;
  switch (status) {
    case 'QUEUED':
      return { kind: 'execution.queued', ...header, status, priority: execution.priority };
    case 'RUNNING':
      return { kind: 'execution.started', ...header, status };
    case 'PAUSED':
      return { kind: 'execution.paused', ...header, status };
    case 'COMPLETED':
    case 'FAILED':
    case 'STOPPED':
    case 'TIMED_OUT':
    case 'ABORTED':
      return { kind: END_STATUS_EVENTS[status], ...header, status, error: execution.error };
  }
}

/** Run and node state changes: never dropped, and what progress streams are made of. */
export function isStateEvent(kind: ExecutionEventKind): boolean {
  return kind.startsWith('execution.') || kind.startsWith('node.');
}
