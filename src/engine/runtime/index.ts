export { prepareWorkflow } from './plan.js';
export type { PlannedNode, PrepareOptions, WorkflowPlan } from './plan.js';
export { ManualScheduler, RunClock, realTimers } from './run-clock.js';
export type { TimerHandle, TimerScheduler } from './run-clock.js';
export { childMessageId, sourceMessageId } from './message-ids.js';
export { WorkflowRun, isNodeEnded, isTerminalNodeStatus } from './workflow-run.js';
export type {
  ConfigResolver,
  PendingSignal,
  SignalWait,
  EngineLogger,
  LogLevel,
  NodePlacement,
  NodeState,
  NodeStatus,
  RunEndStatus,
  RunListener,
  RunLogEntry,
  RunOptions,
  RunServices,
  ReplayPlan,
  RunOutcome,
  PlacedNode,
} from './workflow-run.js';
