// The one ordering of listed records that every adapter honours, so lists do not depend on the
// adapter or the locale. Strings compare by UTF-16 code unit, as JavaScript's `<` does.
import type { SessionRecord, WorkflowRecord } from '../../engine/index.js';

function compareStrings(left: string, right: string): number {
  if (left < right) return -1;
  return left > right ? 1 : 0;
}

/** Oldest first; sessions created at the same instant by id. */
export function compareSessions(left: SessionRecord, right: SessionRecord): number {
  return (
    compareStrings(left.createdAt, right.createdAt) ||
    compareStrings(left.sessionId, right.sessionId)
  );
}

export function compareWorkflows(left: WorkflowRecord, right: WorkflowRecord): number {
  return compareStrings(left.workflowId, right.workflowId);
}
