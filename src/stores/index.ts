// Public surface of the stores layer: the session store adapters and the factory choosing one.
// The conformance suite is not exported here (it imports vitest); tests import its file.
export { createSessionStore } from './create-session-store.js';
export type { SessionStoreOptions } from './create-session-store.js';
export { FileSessionStore } from './file/file-session-store.js';
export type { FileSessionStoreOptions } from './file/file-session-store.js';
export { MemorySessionStore } from './memory/memory-session-store.js';
export { MemorySessionMemory } from './memory/memory-session-memory.js';
export { FileExecutionLog, EXECUTION_LOG_FILE } from './execution-log/file-execution-log.js';
export type { FileExecutionLogOptions } from './execution-log/file-execution-log.js';
export { appendFailureType } from './execution-log/execution-log-events.js';
export type {
  ControlEvent,
  ExecutionLogEvent,
  ExecutionLogStore,
  LimitsEvent,
  NodeEndedEvent,
  NodeStartedEvent,
  RunAcceptedEvent,
  RunEndedEvent,
  RunResumedEvent,
  RunStartedEvent,
} from './execution-log/execution-log-events.js';
export { createCheckpointStore } from './checkpoints/create-checkpoint-store.js';
export type { CheckpointStoreOptions } from './checkpoints/create-checkpoint-store.js';
export { MemoryCheckpointStore } from './checkpoints/memory-checkpoint-store.js';
export type { MemoryCheckpointStoreOptions } from './checkpoints/memory-checkpoint-store.js';
export { FileCheckpointStore } from './checkpoints/file-checkpoint-store.js';
export type { FileCheckpointStoreOptions } from './checkpoints/file-checkpoint-store.js';
