// An execution entry of tests that need one without a manager or a registry.
import { ExecutionEntry } from '../execution-entry.js';
import type { ExecutionStatus } from '../execution-states.js';

/** Execution `e1` of workflow `w` in session `s`, in `status`; without one, as a new start is. */
export function testEntry(status?: ExecutionStatus): ExecutionEntry {
  return new ExecutionEntry({
    executionId: 'e1',
    sessionId: 's',
    workflowId: 'w',
    workflowVersion: 1,
    priority: 0,
    createdAt: 0,
    parentExecutionId: null,
    depth: 0,
    ...(status === undefined ? {} : { status }),
  });
}
