// Records the REST API answers (CONTRACT sections 3 and 4), as the UI reads them.

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

/** CONTRACT 1: every status but these three is terminal. */
export function isTerminal(status: string): boolean {
  return status !== 'QUEUED' && status !== 'RUNNING' && status !== 'PAUSED';
}

export interface NodeRecord {
  readonly status: string;
  readonly startedAt: string | null;
  readonly endedAt: string | null;
  readonly messagesIn: number;
  readonly messagesOut: number;
  readonly retries: number;
  readonly error: string | null;
}

export interface ExecutionRecord {
  readonly executionId: string;
  readonly sessionId: string;
  readonly workflowId: string;
  readonly workflowVersion: number;
  readonly status: string;
  readonly priority: number;
  readonly createdAt: string;
  readonly startedAt: string | null;
  readonly endedAt: string | null;
  readonly error: string | null;
  readonly restartOf: string | null;
  readonly resumedFrom: string | null;
  readonly parentExecutionId: string | null;
  readonly nodes: Readonly<Record<string, NodeRecord>>;
}

/** `GET /api/workflow/{sid}/status/{id}`: the record with its progress. */
export interface ProgressSnapshot extends ExecutionRecord {
  readonly progress: {
    /** Some results are gone: SPEC's bounds dropped them, or a server restart cut the run off. */
    readonly resultsNotKept: boolean;
    readonly logsNotKept: boolean;
  };
}

export interface ExecutionPage {
  readonly items: readonly ExecutionRecord[];
  readonly nextCursor: string | null;
}

export interface SessionView {
  readonly sessionId: string;
  readonly name: string;
  readonly initiator: string;
  readonly description: string;
  readonly createdAt: string;
  readonly workflows: readonly string[];
}

export interface WorkflowSummary {
  readonly workflowId: string;
  readonly description: string;
  readonly version: number;
  readonly updatedAt: string;
  readonly nodes: number;
  readonly edges: number;
}

export interface GraphNode {
  readonly nodeId: string;
  readonly type: string;
  readonly kind: 'trigger' | 'processor' | 'terminal';
  readonly level: number;
}

export interface GraphEdge {
  readonly source: string;
  readonly target: string;
  readonly sourcePort?: string;
}

export interface WorkflowGraph {
  readonly workflowId: string;
  readonly version: number;
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly GraphEdge[];
  readonly levels: readonly (readonly string[])[];
}

export interface VersionView {
  readonly version: number;
  readonly createdAt: string;
  readonly author: string;
  readonly note: string | null;
  readonly current: boolean;
}

export interface ResultEvent {
  readonly seq: number;
  readonly timestamp: string;
  readonly nodeId: string;
  readonly messageId: string;
  readonly payload: unknown;
}

export interface LogEntry {
  readonly seq: number;
  readonly timestamp: string;
  readonly nodeId: string;
  readonly level: string;
  readonly message: string;
}

export interface Approval {
  readonly executionId: string;
  readonly nodeId: string;
  readonly messageId: string;
  readonly prompt: string | null;
  readonly payload: unknown;
  readonly requestedAt: string;
}

/** A progress-stream event: the state event with the execution as it is now. */
export interface ProgressEvent {
  readonly kind: string;
  readonly timestamp: string;
  readonly nodeId?: string;
  readonly progress?: { readonly status?: string; readonly execution?: ExecutionRecord };
}
