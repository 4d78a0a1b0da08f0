export { prepareWorkflow } from './plan.js';
export type { PlannedNode, PrepareOptions, WorkflowPlan } from './plan.js';
export { ManualScheduler, RunClock, realTimers } from './run-clock.js';
export type { TimerHandle, TimerScheduler } from './run-clock.js';
export { childMessageId, plainLineage, sourceMessageId } from './message-ids.js';
export { WorkflowRun } from './workflow-run.js';
export type { EdgeFlow, NodeFlow, RunFlow } from './run-flow.js';
export { messagePayloadBytes } from './run-emitter.js';
export { DEFAULT_MAX_PAYLOAD_BYTES, payloadBytes } from './payload-size.js';
export { NODE_STATUSES, isNodeEnded, isTerminalNodeStatus } from './node-state.js';
export { RUN_LOG_LEVELS } from './run-ports.js';
export type { NodeState, NodeStatus, RunEndStatus, RunOutcome } from './node-state.js';
export type {
  ConfigResolver,
  DeadLetterNotice,
  EngineLogger,
  FailedAttempt,
  LogLevel,
  NodePlacement,
  PendingSignal,
  PlacedNode,
  ReplayPlan,
  RunEventSink,
  RunHost,
  RunLogEntry,
  RunOptions,
  RunServices,
  SignalWait,
} from './run-ports.js';
export type { AttemptSpan, AttemptStart, AttemptStatus, RunTracing } from './run-tracing.js';
