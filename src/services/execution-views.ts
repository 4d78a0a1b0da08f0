// Views of executions that the REST API and the tool endpoint answer alike.
import { AppError } from '../core/index.js';
import type { ExecutionEntry, ExecutionManager, ExecutionRegistry } from '../executions/index.js';
import type { ControlDesk } from './control-desk.js';

/** CONTRACT 4 `GET /api/control/status`: running, queued, limits, supervisors, leader. */
export function controlBusStatus(executions: ExecutionManager, desk: ControlDesk) {
  return {
    running: executions.running,
    queued: executions.queued,
    limits: executions.limits,
    supervisors: desk.supervisors.list(),
    // With high availability, whether this server leads its pair; one server alone always does.
    leader: executions.isLeader,
  };
}

/** An execution of another session is answered like an unknown one (SPEC Errors, 404). */
export function executionInSession(
  executions: ExecutionManager,
  sessionId: string,
  executionId: string,
): ExecutionEntry {
  const entry = executions.require(executionId);
  if (entry.sessionId !== sessionId)
    throw new AppError('EXECUTION_NOT_FOUND', { params: { executionId } });
  return entry;
}

/** CONTRACT 4 `GET /api/workflow/{sid}/status/{id}`: the record with its progress. */
export function progressSnapshot(registry: ExecutionRegistry, entry: ExecutionEntry) {
  const record = registry.toRecord(entry);
  const counts: Record<string, number> = {};
  for (const node of entry.nodes) counts[node.status] = (counts[node.status] ?? 0) + 1;
  const finished = entry.nodes.filter((node) => node.endedAt !== null).length;
  return {
    ...record,
    progress: {
      nodesTotal: entry.nodes.length,
      nodesFinished: finished,
      percent: entry.nodes.length === 0 ? 0 : Math.round((100 * finished) / entry.nodes.length),
      byStatus: counts,
      results: registry.resultsOf(entry).length,
    },
  };
}
