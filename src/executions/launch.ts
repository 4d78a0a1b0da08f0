// What starting a run of an execution takes, for a start and for a restart, retry or recover,
// and what a start answers (CONTRACT section 3: the start body and its `data`).
import type { RecordedApproval, ReplayPlan, WorkflowPlan } from '../engine/index.js';
import type { RunAcceptedEvent } from '../stores/index.js';
import type { ExecutionEntry } from './execution-registry.js';
import type { ExecutionStatus } from './execution-states.js';

export interface StartRequest {
  readonly sessionId: string;
  readonly workflowId: string;
  readonly payload?: unknown;
  readonly priority?: number | undefined;
}

export interface StartOptions {
  /** SPEC: the same key within its window answers the first start and starts nothing. */
  readonly idempotencyKey?: string | undefined;
  /** Sessions the starting key may reach; null or absent: every session. */
  readonly reach?: readonly string[] | null | undefined;
  /** The run of an always-on workflow (docs/always-on.md): no run deadline. */
  readonly alwaysOn?: boolean;
}

export interface StartAnswer {
  readonly executionId: string;
  readonly status: ExecutionStatus;
}

/** Everything a run of an execution needs, for a start and for a restart, retry or recover. */
export interface Launch {
  readonly request: StartRequest;
  readonly plan: WorkflowPlan;
  readonly version: number;
  /** Root of derived message ids; absent: the new execution's own id. */
  readonly lineage?: string;
  readonly restartOf?: string;
  readonly resumedFrom?: string;
  readonly replay?: ReplayPlan;
  /** Answers recorded by the run this one resumes, by node and message. */
  readonly approvals?: ReadonlyMap<string, RecordedApproval>;
  /** Sessions the starting key may reach (StartOptions); absent: every session. */
  readonly reach?: readonly string[] | null | undefined;
  /** The run of an always-on workflow: no run deadline. */
  readonly alwaysOn?: boolean;
}

/** The key of a recorded approval: one answer per node and message. */
export function approvalKey(nodeId: string, messageId: string): string {
  return `${nodeId}\u0000${messageId}`;
}

/** Largest start payload the execution log records; a larger one cannot be recovered. */
const MAX_RECORDED_PAYLOAD = 1_048_576;

/** Size of a payload as the execution log writes it; one it cannot write counts as too large. */
function recordedSize(payload: unknown): number {
  try {
    return (JSON.stringify(payload) as string | undefined)?.length ?? 0;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/** What the execution log records of an accepted execution: enough to recover it. */
export function acceptedRecord(
  entry: ExecutionEntry,
  launch: Launch,
  lineage: string,
  definitionHash: string,
): Omit<RunAcceptedEvent, 'type' | 'at'> {
  const payload = launch.request.payload;
  const recordable = payload === undefined || recordedSize(payload) <= MAX_RECORDED_PAYLOAD;
  return {
    executionId: entry.executionId,
    sessionId: entry.sessionId,
    workflowId: entry.workflowId,
    workflowVersion: entry.workflowVersion,
    definitionHash,
    priority: entry.priority,
    lineage,
    payloadRecorded: recordable,
    ...(recordable && payload !== undefined ? { payload } : {}),
    restartOf: entry.restartOf,
    resumedFrom: entry.resumedFrom,
    parentExecutionId: entry.parentExecutionId,
  };
}
