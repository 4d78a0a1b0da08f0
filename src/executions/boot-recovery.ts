// Boot recovery of a durable execution log (SPEC "Recover conditions"): the newest runs come
// back into history, runs with a start and no end end ABORTED, and their nodes are finished
// as their checkpoints' end markers tell.
import type { CheckpointStore, NodeState, SessionStore } from '../engine/index.js';
import type { AdmissionLimits } from './admission.js';
import { ABORTED_MESSAGE } from './execution-journal.js';
import type { ExecutionJournal, RunHistory } from './execution-journal.js';
import type { ExecutionNotifier } from './execution-notifier.js';
import type { ExecutionEntry, ExecutionRegistry, LogEntry } from './execution-registry.js';
import { isExecutionStatus } from './execution-states.js';
import { isLogLevel } from './run-recorder.js';

export interface BootRecoveryOptions {
  readonly journal: ExecutionJournal;
  readonly registry: ExecutionRegistry;
  readonly notifier: ExecutionNotifier;
  readonly store: SessionStore;
  readonly checkpoints: CheckpointStore | undefined;
  readonly now: () => number;
  /** The newest limit change of the log applies again, without being logged once more. */
  readonly restoreLimits: (limits: Partial<AdmissionLimits>) => void;
}

/** Recovers the execution log; answers the runs it found interrupted. */
export async function recoverExecutionLog(options: BootRecoveryOptions): Promise<string[]> {
  const { journal, registry, notifier, checkpoints: store } = options;
  const recovered = await journal.boot();
  const now = options.now();
  for (const run of recovered.runs) restore(registry, run, now);
  for (const executionId of recovered.aborted) {
    const entry = registry.get(executionId);
    if (entry === undefined) continue;
    await reconcile(options, entry);
    // Clients that follow the events from the start of this server learn of them too.
    notifier.emit(entry, { kind: 'execution.aborted', status: 'ABORTED', error: entry.error });
  }
  if (recovered.limits !== undefined) options.restoreLimits(recovered.limits);
  if (store?.durable === true) {
    const kept = new Set(recovered.runs.map((run) => run.accepted.executionId));
    for (const executionId of await store.executions()) {
      if (!kept.has(executionId)) await store.drop(executionId);
    }
  }
  return [...recovered.aborted];
}

/**
 * Puts a run of the execution log back into history, with the status, error, results and log
 * lines the log gives it. Its outputs move to the registry, which keeps them from here on.
 */
function restore(registry: ExecutionRegistry, run: RunHistory, now: number): void {
  const { accepted, ended } = run;
  const logged = ended?.status;
  const entry = registry.create({
    executionId: accepted.executionId,
    sessionId: accepted.sessionId,
    workflowId: accepted.workflowId,
    workflowVersion: accepted.workflowVersion,
    priority: accepted.priority,
    createdAt: accepted.at,
    parentExecutionId: accepted.parentExecutionId,
    depth: 0,
    restartOf: accepted.restartOf,
    resumedFrom: accepted.resumedFrom,
    status: logged !== undefined && isExecutionStatus(logged) ? logged : 'ABORTED',
    restored: true,
  });
  // A logged end's null error is the answer, not a missing one: only a run with no end at
  // all was cut off.
  entry.error = ended === undefined ? ABORTED_MESSAGE : ended.error;
  entry.startedAt = run.started?.at ?? null;
  entry.endedAt = ended?.at ?? null;
  entry.nodes = [...run.nodes.values()].map((event): NodeState => {
    const done = event.type === 'node.ended';
    return {
      nodeId: event.nodeId,
      type: event.nodeType,
      status: done ? (event.status as NodeState['status']) : 'CANCELLED',
      startedAt: done ? event.startedAt : event.at,
      endedAt: done ? event.at : (ended?.at ?? null),
      messagesIn: done ? event.messagesIn : 0,
      messagesOut: done ? event.messagesOut : 0,
      retries: done ? event.retries : 0,
      skipped: 0,
      dropped: 0,
      error: done ? event.error : ABORTED_MESSAGE,
    };
  });
  restoreOutputs(registry, entry, run, now);
  entry.markFinished();
}

/**
 * The results and log lines the run stored when it ended; a run cut off by the restart stored
 * none, and says it did not keep them once it had moved anything.
 */
function restoreOutputs(
  registry: ExecutionRegistry,
  entry: ExecutionEntry,
  run: RunHistory,
  now: number,
): void {
  const { outputs } = run;
  run.outputs = undefined;
  if (outputs === undefined) {
    const moved = entry.nodes.some((node) => node.messagesIn > 0 || node.messagesOut > 0);
    entry.resultsNotKept = moved;
    entry.logsNotKept = moved;
    return;
  }
  registry.restoreOutputs(
    entry,
    {
      results: outputs.results,
      logs: outputs.logs.filter((line): line is LogEntry => isLogLevel(line.level)),
      resultsNotKept: outputs.resultsNotKept,
      logsNotKept: outputs.logsNotKept,
    },
    Math.min(outputs.at, now),
  );
}

/**
 * An interrupted run's nodes as their end markers tell (SPEC Checkpoint: a node is finished
 * when its marker exists): a crash can come after a marker and before the log has the node's
 * end.
 */
async function reconcile(options: BootRecoveryOptions, entry: ExecutionEntry): Promise<void> {
  const store = options.checkpoints;
  if (store?.durable !== true) return;
  const finished = ((await store.summary(entry.executionId)) ?? []).filter((node) => node.complete);
  if (finished.length === 0) return;
  const workflow = await options.store.getWorkflow(entry.sessionId, entry.workflowId);
  const definition = workflow?.versions.find(
    (version) => version.version === entry.workflowVersion,
  )?.definition;
  const nodes = [...entry.nodes];
  for (const { nodeId, messages } of finished) {
    const known = nodes.findIndex((node) => node.nodeId === nodeId);
    const state = nodes[known];
    if (state?.status === 'COMPLETED' || state?.status === 'SKIPPED') continue;
    const type = definition?.nodes.find((node) => node.nodeId === nodeId)?.type ?? 'UNKNOWN';
    const completed: NodeState = {
      nodeId,
      type: state?.type ?? type,
      status: 'COMPLETED',
      startedAt: state?.startedAt ?? null,
      endedAt: state?.endedAt ?? entry.endedAt,
      messagesIn: state?.messagesIn ?? 0,
      messagesOut: Math.max(state?.messagesOut ?? 0, messages),
      retries: state?.retries ?? 0,
      skipped: 0,
      dropped: 0,
      error: null,
    };
    if (known === -1) nodes.push(completed);
    else nodes[known] = completed;
  }
  entry.nodes = nodes;
}
