// What a node and a run show of themselves: statuses (CONTRACT section 1), the live state of a
// node, how a run ended, and the end a node is given from inside or outside its task.

/** CONTRACT section 1: node statuses. */
export const NODE_STATUSES = [
  'PENDING',
  'RUNNING',
  'WAITING',
  'PAUSED',
  'COMPLETED',
  'FAILURE',
  'TIMED_OUT',
  'UPSTREAM_FAILED',
  'SKIPPED',
  'STOPPED',
  'CANCELLED',
] as const;

export type NodeStatus = (typeof NODE_STATUSES)[number];

/** How a run ended; queueing and abort after a crash belong to the executions layer. */
export type RunEndStatus = 'COMPLETED' | 'FAILED' | 'STOPPED' | 'TIMED_OUT';

export interface NodeState {
  readonly nodeId: string;
  readonly type: string;
  status: NodeStatus;
  startedAt: number | null;
  endedAt: number | null;
  messagesIn: number;
  messagesOut: number;
  /** Messages attempted again after a retryable failure. */
  retries: number;
  /** Messages dropped by `onError: SKIP` or kept as dead letters (`DEAD_LETTER`). */
  skipped: number;
  /** Messages dropped by the node's edge buffer. */
  dropped: number;
  error: string | null;
}

export interface RunOutcome {
  readonly status: RunEndStatus;
  readonly error: string | null;
}

/** SKIPPED is missing on purpose: a skipped node shows it while it still passes messages. */
const TERMINAL_STATUSES: ReadonlySet<NodeStatus> = new Set([
  'COMPLETED',
  'FAILURE',
  'TIMED_OUT',
  'UPSTREAM_FAILED',
  'STOPPED',
  'CANCELLED',
]);

/** The ends of a sink that fail the run. */
export const FAILED_STATUSES: ReadonlySet<NodeStatus> = new Set([
  'FAILURE',
  'TIMED_OUT',
  'UPSTREAM_FAILED',
  'CANCELLED',
  'STOPPED',
]);

/**
 * Whether a status is one only an ended node has. SKIPPED is not: a node shows it while it is
 * skipped and still passing messages, and ends with it only when it ends skipped; ask
 * `isNodeEnded` whether a node has ended.
 */
export function isTerminalNodeStatus(status: NodeStatus): boolean {
  return TERMINAL_STATUSES.has(status);
}

/** Whether a node has ended; its status is then final. */
export function isNodeEnded(state: Readonly<NodeState>): boolean {
  return state.endedAt !== null;
}

/** A fresh state: the node has not started. */
export function pendingState(nodeId: string, type: string): NodeState {
  return {
    nodeId,
    type,
    status: 'PENDING',
    startedAt: null,
    endedAt: null,
    messagesIn: 0,
    messagesOut: 0,
    retries: 0,
    skipped: 0,
    dropped: 0,
    error: null,
  };
}

/** Ends a node from inside its own task, or is set on it from outside: the status and why. */
export class NodeEnd extends Error {
  constructor(
    readonly status: NodeStatus,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The ends of a node that finished on its own, made once: every node of every run ends one of
 * these ways, and an Error captures its stack when made (a tenth of a short run's cost). Shared,
 * so never changed.
 */
export const COMPLETED_END = new NodeEnd('COMPLETED', '');
export const SKIPPED_END = new NodeEnd('SKIPPED', '');
