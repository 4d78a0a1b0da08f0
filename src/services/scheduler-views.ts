// What the scheduler shows and takes: limit changes, the control bus status, and the admission
// queue as an operator reads it (docs/scheduler-queue.md): the starts waiting for a slot in the
// order the queue takes them, each with the limits that hold it back, in words and counts.
import type { SupervisorView } from '../events/index.js';
import type { AdmissionLimits, HeldBy, WaitingStart } from '../executions/index.js';

/** Admission limits to change; a limit left out (or undefined) stays as it is. */
export type LimitChanges = {
  readonly [K in keyof AdmissionLimits]?: AdmissionLimits[K] | undefined;
};

/** CONTRACT 4 `GET /api/control/status`: running, queued, limits, supervisors, leader. */
export interface ControlBusStatus {
  readonly running: number;
  readonly queued: number;
  readonly limits: AdmissionLimits;
  readonly supervisors: SupervisorView[];
  /** With high availability, whether this server leads its pair; one server alone always does. */
  readonly leader: boolean;
}

export interface QueueHold extends HeldBy {
  readonly message: string;
}

export interface QueuedStartView {
  /** 1 for the start that gets the next free slot it fits in. */
  readonly position: number;
  readonly executionId: string;
  readonly sessionId: string;
  readonly workflowId: string;
  readonly workflowVersion: number;
  readonly priority: number;
  readonly queuedAt: string;
  /** Paused while it waits: its queue wait is frozen, and it starts paused. */
  readonly paused: boolean;
  readonly waitingFor: readonly QueueHold[];
}

export interface SchedulerQueue {
  readonly running: number;
  readonly queued: number;
  readonly limits: AdmissionLimits;
  readonly items: readonly QueuedStartView[];
}

function holdMessage(hold: HeldBy, start: WaitingStart): string {
  const runs = `${hold.running} ${hold.running === 1 ? 'execution' : 'executions'}, at its limit of ${hold.max}`;
  switch (hold.limit) {
    case 'maxConcurrent':
      return `The server runs ${runs} (maxConcurrent)`;
    case 'maxPerSession':
      return `Session '${start.entry.sessionId}' runs ${runs} (maxPerSession)`;
    case 'maxPerWorkflow':
      return `Workflow '${start.entry.workflowId}' runs ${runs} (maxPerWorkflow)`;
  }
}

/**
 * The queue view. It names every session's starts, so like the audit list it is for keys not
 * limited to sessions (SPEC Authentication).
 */
export function schedulerQueue(
  waiting: readonly WaitingStart[],
  running: number,
  limits: AdmissionLimits,
): SchedulerQueue {
  const items = waiting.map((start, index): QueuedStartView => ({
    position: index + 1,
    executionId: start.entry.executionId,
    sessionId: start.entry.sessionId,
    workflowId: start.entry.workflowId,
    workflowVersion: start.entry.workflowVersion,
    priority: start.entry.priority,
    queuedAt: new Date(start.queuedAt).toISOString(),
    paused: start.paused,
    waitingFor: start.heldBy.map((hold) => ({ ...hold, message: holdMessage(hold, start) })),
  }));
  return { running, queued: waiting.length, limits, items };
}
