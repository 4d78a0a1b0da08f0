export { ExecutionManager } from './execution-manager.js';
export type { ExecutionManagerDeps } from './execution-manager.js';
export type { CheckpointView } from './checkpoint-view.js';
export type { ReplayCheckResult, ReplayTarget } from './replay-check.js';
export type { MessageDifference, NodeComparison } from './replay-comparison.js';
export { MAX_NESTING_DEPTH } from './live-runs.js';
export type { NodeMessage, RestartMode } from './restarts.js';
export { describeEdits } from './input-edits.js';
export type { InputEdit } from './input-edits.js';
export type { StartAnswer, StartOptions, StartRequest } from './launch.js';
export { Admission, ON_LIMIT_MODES, REFUSAL_MESSAGES } from './admission.js';
export type { AdmissionLimits, HeldBy, OnLimit, RefusalReason } from './admission.js';
export type { WaitingStart } from './admission-queue.js';
export { IdempotencyKeys } from './idempotency-keys.js';
export { ExecutionEntry, ExecutionRegistry } from './execution-registry.js';
export type { BudgetedHistory } from './execution-registry.js';
export { HELD_BYTES, heldBytesOf } from './held-bytes.js';
export {
  EXECUTION_STATUSES,
  EXECUTION_TRANSITIONS,
  canTransition,
  isTerminalExecutionStatus,
} from './execution-states.js';
export type { ExecutionStatus } from './execution-states.js';
export type {
  ExecutionFields,
  ExecutionQuery,
  ExecutionRecord,
  LogEntry,
  NodeRecord,
  RegistryLimits,
  ResultEvent,
} from './execution-registry.js';
export {
  END_STATUS_EVENTS,
  NODE_STATUS_EVENTS,
  RUN_STATUS_EVENTS,
  isStateEvent,
  statusEvent,
} from './execution-events.js';
export type {
  ControlEvent,
  EndStatus,
  ExecutionEvent,
  ExecutionEventBody,
  ExecutionEventKind,
  ExecutionEventSink,
  ExecutionHeader,
  ExecutionScopedEvent,
  NodeEventKind,
  RunEndEventKind,
  SchedulerLimitsEvent,
} from './execution-events.js';
export { Approvals } from './approvals.js';
export type { Approval, ApprovalEvent, SignalCommand } from './approvals.js';
export { ExecutionJournal, ABORTED_MESSAGE } from './execution-journal.js';
export type { BootRecovery, ExecutionJournalOptions, RunHistory } from './execution-journal.js';
export { Leadership } from './leadership.js';
export type {
  LeaderLease,
  LeaderRole,
  LeadershipHooks,
  LeadershipLogger,
  LeadershipOptions,
  LeadershipState,
} from './leadership.js';
export { leaderOnlyWrites } from './leader-only-writes.js';
