// `start_workflow` with `wait: true`: the tool follows the run it started, reporting progress
// (nodes finished of nodes total) and log lines on the way; a run waiting for an approval asks
// the client's user where the client can ask, and otherwise answers with what is pending.
import type { Approval } from '../../executions/index.js';
import type { ExecutionService, ProgressSnapshot, RunWaitOutcome } from '../../services/index.js';
import type { LogLevel, ToolCaller, ToolContext } from '../tool.js';

/** What a followed start answers. */
export interface FollowedRun {
  readonly executionId: string;
  readonly status: string;
  /** Whether the run reached a final status within the wait. */
  readonly finished: boolean;
  /** Approvals the run still waits for; answer them with signal_node. */
  readonly pendingApprovals: readonly Approval[];
  readonly execution: ProgressSnapshot;
}

const LEVELS: Readonly<Record<string, LogLevel>> = {
  TRACE: 'debug',
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warning',
  ERROR: 'error',
};

export async function followRun(
  executions: ExecutionService,
  executionId: string,
  timeoutMs: number,
  context: ToolContext,
  caller: ToolCaller,
): Promise<FollowedRun> {
  const deadline = Date.now() + timeoutMs;
  const reportProgress = ({ progress, status }: ProgressSnapshot): void => {
    context.progress(
      progress.nodesFinished,
      progress.nodesTotal,
      `${progress.nodesFinished} of ${progress.nodesTotal} nodes done (${status})`,
    );
  };
  reportProgress(executions.status(executionId));
  const asked = new Set<string>();
  // Each wait replays the stored lines; those sent by an earlier wait are not sent again.
  let logged = 0;
  for (;;) {
    const outcome: RunWaitOutcome = await executions.waitFor(executionId, {
      timeoutMs: Math.max(0, deadline - Date.now()),
      signal: context.signal,
      onProgress: reportProgress,
      onLog: (line) => {
        if (line.seq <= logged) return;
        logged = line.seq;
        context.log(LEVELS[line.level] ?? 'info', line.nodeId, {
          message: line.message,
          executionId,
          nodeId: line.nodeId,
          fields: line.fields,
        });
      },
    });
    if (outcome.kind !== 'approval') return answer(outcome.execution, outcome.kind === 'ended', []);
    const { approvals } = outcome;
    // Each approval is asked once: one left unanswered is handed back, not asked again.
    const next = approvals.find((approval) => !asked.has(approval.messageId));
    if (context.ask === undefined || next === undefined) {
      return answer(outcome.execution, false, approvals);
    }
    asked.add(next.messageId);
    const reply = await context.ask(question(next));
    if (reply === undefined) return answer(executions.status(executionId), false, approvals);
    executions.signal(
      executionId,
      next.nodeId,
      { approved: reply.approved, messageId: next.messageId, comment: reply.comment },
      caller.actor,
    );
  }
}

function answer(
  execution: ProgressSnapshot,
  finished: boolean,
  pendingApprovals: readonly Approval[],
): FollowedRun {
  return {
    executionId: execution.executionId,
    status: execution.status,
    finished,
    pendingApprovals,
    execution,
  };
}

function question(approval: Approval): string {
  const payload = JSON.stringify(approval.payload);
  return [
    `Workflow ${approval.workflowId} (execution ${approval.executionId}) waits at node ${approval.nodeId} for an approval.`,
    approval.prompt ?? '',
    `Message: ${payload.length > 500 ? `${payload.slice(0, 500)}...` : payload}`,
  ]
    .filter((line) => line !== '')
    .join('\n');
}
