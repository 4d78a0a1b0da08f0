// What every control command of `ExecutionService` passes through, whichever edge sent it:
// the supervisors' review, then the audit, applied or refused (SPEC Events 8).
import { AppError, isAppError } from '../core/index.js';
import type { AuditLog, Supervisors } from '../events/index.js';

export interface ControlDesk {
  readonly audit: AuditLog;
  readonly supervisors: Supervisors;
  /** The session of an execution, for supervisors' session rules. */
  readonly sessionOf: (executionId: string) => string | null;
}

export interface AuditTarget {
  readonly command: string;
  readonly executionId?: string | null;
  readonly nodeId?: string | null;
  readonly detail?: string | null;
}

/**
 * Runs a control command after the supervisors reviewed it, and records it in the audit,
 * applied or refused (with the reason of the refusal), as sent by `actor` (SPEC "Audit actor
 * naming"; null when none is recorded); the command's own answer or error is passed on.
 */
export function audited<T>(
  desk: ControlDesk,
  actor: string | null,
  target: AuditTarget,
  command: () => T,
): T {
  const review = reviewed(desk, actor, target);
  try {
    const result = command();
    review.applied();
    return result;
  } catch (error) {
    review.refused(error);
    throw error;
  }
}

/** `audited` for a command that answers later: recorded once it is applied or refused. */
export async function auditedAsync<T>(
  desk: ControlDesk,
  actor: string | null,
  target: AuditTarget,
  command: () => Promise<T>,
): Promise<T> {
  const review = reviewed(desk, actor, target);
  try {
    const result = await command();
    review.applied();
    return result;
  } catch (error) {
    review.refused(error);
    throw error;
  }
}

/** The supervisors' review of a command; a refusal throws when the command is run. */
function reviewed(
  desk: ControlDesk,
  actor: string | null,
  target: AuditTarget,
): { applied(): void; refused(error: unknown): void } {
  const refusedBy = desk.supervisors.review({
    command: target.command,
    actor,
    sessionId: target.executionId == null ? null : desk.sessionOf(target.executionId),
    nodeId: target.nodeId ?? null,
  });
  if (refusedBy !== null) {
    const refusal = new AppError('SUPERVISOR_REFUSED', { params: { id: refusedBy } });
    desk.audit.record({ ...target, outcome: 'REFUSED', reason: refusal.message, actor });
    throw refusal;
  }
  return {
    applied: () => desk.audit.record({ ...target, outcome: 'APPLIED', actor }),
    refused: (error) =>
      desk.audit.record({
        ...target,
        outcome: 'REFUSED',
        reason: isAppError(error) ? error.message : 'Failed unexpectedly',
        actor,
      }),
  };
}
