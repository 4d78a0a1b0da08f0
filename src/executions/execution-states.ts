// The state machine of an execution (SPEC "States and transitions", CONTRACT section 1): its
// statuses, which are terminal, and the only changes of status there are.
import { AppError } from '../core/index.js';

/** CONTRACT section 1: execution statuses. */
export const EXECUTION_STATUSES = [
  'QUEUED',
  'RUNNING',
  'PAUSED',
  'COMPLETED',
  'FAILED',
  'STOPPED',
  'TIMED_OUT',
  'ABORTED',
] as const;

export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];

const STATUSES: ReadonlySet<string> = new Set(EXECUTION_STATUSES);

/** Whether a status read from outside (the execution log) is one of ours. */
export function isExecutionStatus(value: string): value is ExecutionStatus {
  return STATUSES.has(value);
}

/** CONTRACT section 1: terminal are all but QUEUED, RUNNING and PAUSED. */
const TERMINAL = {
  QUEUED: false,
  RUNNING: false,
  PAUSED: false,
  COMPLETED: true,
  FAILED: true,
  STOPPED: true,
  TIMED_OUT: true,
  ABORTED: true,
} as const satisfies Record<ExecutionStatus, boolean>;

export function isTerminalExecutionStatus(status: ExecutionStatus): boolean {
  return TERMINAL[status];
}

/**
 * Every change of status an execution can make. A waiting start gets a slot (RUNNING), times
 * out or is stopped; a paused waiting start stays QUEUED and starts paused. A run pauses and
 * resumes, and ends from either. ABORTED is never reached by a change: boot recovery creates
 * the execution with the status the execution log gives it. A terminal status is final.
 */
export const EXECUTION_TRANSITIONS = {
  QUEUED: ['RUNNING', 'STOPPED', 'TIMED_OUT'],
  RUNNING: ['PAUSED', 'COMPLETED', 'FAILED', 'STOPPED', 'TIMED_OUT'],
  PAUSED: ['RUNNING', 'COMPLETED', 'FAILED', 'STOPPED', 'TIMED_OUT'],
  COMPLETED: [],
  FAILED: [],
  STOPPED: [],
  TIMED_OUT: [],
  ABORTED: [],
} as const satisfies Record<ExecutionStatus, readonly ExecutionStatus[]>;

export function canTransition(from: ExecutionStatus, to: ExecutionStatus): boolean {
  const allowed: readonly ExecutionStatus[] = EXECUTION_TRANSITIONS[from];
  return allowed.includes(to);
}

/** Throws the unexpected ILLEGAL_TRANSITION: a change the table has not is a bug. */
export function assertTransition(
  executionId: string,
  from: ExecutionStatus,
  to: ExecutionStatus,
): void {
  if (!canTransition(from, to)) {
    throw new AppError('ILLEGAL_TRANSITION', { params: { executionId, from, to } });
  }
}
