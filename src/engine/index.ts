export { MAX_DESCRIPTION_LENGTH, MAX_EDGES, MAX_NODES } from './dag/model.js';
export type { EdgeDefinition, NodeDefinition, WorkflowDefinition } from './dag/model.js';
export { fieldErrorsOf, formatFieldPath, issueMessage, parseFields } from './dag/field-errors.js';
export type { FieldResult } from './dag/field-errors.js';
export {
  EDGE_OVERFLOW_POLICIES,
  ERROR_PORT,
  NO_WORKERS_MESSAGE,
  ON_ERROR_MODES,
  TRIGGER_RULES,
  nodeSettingsSchema,
  parseNodeSettings,
} from './dag/node-settings.js';
export type {
  EdgeOverflow,
  NodeSettings,
  NodeSettingsOptions,
  OnError,
  TriggerRule,
} from './dag/node-settings.js';
export {
  PLACEMENT_KIND_MESSAGE,
  VALID_MESSAGE,
  validateWorkflow,
  wholeStreamMessage,
} from './dag/validate.js';
export type { WorkflowValidation, WorkflowValidationOptions } from './dag/validate.js';
export { describeGraph, topologicalOrder } from './dag/graph.js';
export type { GraphNode, WorkflowGraph } from './dag/graph.js';
export { diffWorkflows } from './dag/diff.js';
export type { WorkflowDiff } from './dag/diff.js';
export type {
  NodeKind,
  NodePosition,
  PluginCatalog,
  PluginDescriptor,
  SessionRecord,
  SessionStore,
  WorkflowLayout,
  WorkflowRecord,
  WorkflowVersionRecord,
} from './ports.js';
export {
  DEFAULT_MAX_PAYLOAD_BYTES,
  ManualScheduler,
  NODE_STATUSES,
  RUN_LOG_LEVELS,
  RunClock,
  WorkflowRun,
  childMessageId,
  messagePayloadBytes,
  payloadBytes,
  plainLineage,
  isNodeEnded,
  isTerminalNodeStatus,
  prepareWorkflow,
  realTimers,
  sourceMessageId,
} from './runtime/index.js';
export type {
  ConfigResolver,
  DeadLetterNotice,
  EdgeFlow,
  FailedAttempt,
  NodeFlow,
  PendingSignal,
  RunFlow,
  SignalWait,
  EngineLogger,
  LogLevel,
  NodePlacement,
  NodeState,
  NodeStatus,
  PlacedNode,
  PlannedNode,
  PrepareOptions,
  RunEndStatus,
  RunEventSink,
  RunHost,
  RunLogEntry,
  RunOptions,
  RunTracing,
  AttemptSpan,
  AttemptStart,
  AttemptStatus,
  RunServices,
  ReplayPlan,
  RunOutcome,
  TimerHandle,
  TimerScheduler,
  WorkflowPlan,
} from './runtime/index.js';
export { Channel, DroppingChannel, END } from './streams/channel.js';
export type { EdgeLoad, End, Inbox, NodeInput, Outbox, Overflow } from './streams/channel.js';
export { CHECKPOINT_STORE_KINDS } from './checkpoints.js';
export type {
  CheckpointStore,
  CheckpointStoreKind,
  CheckpointWriter,
  EncodedPayload,
  NodeCheckpointSummary,
  NodeRecorder,
  RecordedApproval,
  RecordedMessage,
  RecordingMessage,
} from './checkpoints.js';
