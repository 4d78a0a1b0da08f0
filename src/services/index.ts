export { MAX_SAVED_VERSIONS, SessionService } from './session-service.js';
export type {
  CreateSessionInput,
  SavedWorkflow,
  SessionServiceDeps,
  SessionView,
  VersionDiff,
  VersionView,
  WorkflowSummary,
} from './session-service.js';
export { ExecutionService } from './execution-service.js';
export type {
  ExecutionServiceDeps,
  ExecutionStream,
  HistoryQuery,
  NodeAction,
  NodeCommand,
  NodeState,
  RunAction,
  NodeMessagePage,
  NodeMessageQuery,
  RunState,
  SignalAnswer,
} from './execution-service.js';
export type {
  ExecutionPage,
  ExecutionSearch,
  LogQuery,
  ProgressSnapshot,
  StreamProgress,
} from './execution-views.js';
export type { EventQuery, EventSink } from './execution-streams.js';
export {
  MAX_ID_LENGTH,
  createSessionSchema,
  workflowDefinitionBodySchema,
  workflowDefinitionSchema,
} from './api-schemas.js';
export { MAX_LAYOUT_ENTRIES, workflowLayoutBodySchema } from './workflow-layout.js';
export type { LayoutView } from './workflow-layout.js';
export { HookService } from './hook-service.js';
export type {
  ControlBusStatus,
  LimitChanges,
  QueueHold,
  QueuedStartView,
  SchedulerQueue,
} from './scheduler-views.js';
export { AlwaysOn } from './always-on.js';
export type { Activation, AlwaysOnDeps } from './always-on.js';
export type { HookAnswer, HookCall, HookServiceDeps } from './hook-service.js';
export type { FirstResult } from './first-result.js';
export {
  MAX_INPUT_EDITS,
  inputEditSchema,
  inputEditsSchema,
  replayCheckSchema,
  replayVersionSchema,
} from './repair-schemas.js';
export type { ReplayCheckBody } from './repair-schemas.js';
export type { RunLogLine, RunWaitOptions, RunWaitOutcome } from './run-waiter.js';
export { DeadLetterService } from './dead-letter-service.js';
export type {
  DeadLetterPage,
  DeadLetterQuery,
  DeadLetterServiceDeps,
  RedriveAnswer,
} from './dead-letter-service.js';
