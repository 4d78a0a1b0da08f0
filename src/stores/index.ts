// Public surface of the stores layer: the session, checkpoint and execution log adapters, the
// factories choosing one, and the relational database they share in the postgres profile.
// The conformance suites are not exported here (they import vitest); tests import their files.
export { createSessionStore } from './create-session-store.js';
export type { SessionStoreOptions } from './create-session-store.js';
export { FileSessionStore } from './file/file-session-store.js';
export type { FileSessionStoreOptions } from './file/file-session-store.js';
export { MemorySessionStore } from './memory/memory-session-store.js';
export { MemorySessionMemory } from './memory/memory-session-memory.js';
export type { SkippedLines, SkippedLinesListener } from './file/skipped-lines.js';
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
  RunOutputsEvent,
  RunResumedEvent,
  RunStartedEvent,
  StoredLogLine,
  StoredResult,
} from './execution-log/execution-log-events.js';
export { createCheckpointStore } from './checkpoints/create-checkpoint-store.js';
export type { CheckpointStoreOptions } from './checkpoints/create-checkpoint-store.js';
export { MemoryCheckpointStore } from './checkpoints/memory-checkpoint-store.js';
export type { MemoryCheckpointStoreOptions } from './checkpoints/memory-checkpoint-store.js';
export { FileCheckpointStore } from './checkpoints/file-checkpoint-store.js';
export type { FileCheckpointStoreOptions } from './checkpoints/file-checkpoint-store.js';
export { PostgresDatabase } from './postgres/postgres-database.js';
export type { DatabaseReport, PostgresDatabaseOptions } from './postgres/postgres-database.js';
export { MIGRATIONS, SCHEMA_VERSION } from './postgres/migrations.js';
export type { Migration } from './postgres/migrations.js';
export { PostgresSessionStore } from './postgres/postgres-session-store.js';
export { PostgresCheckpointStore } from './postgres/postgres-checkpoint-store.js';
export { PostgresExecutionLog } from './postgres/postgres-execution-log.js';
export { PostgresSessionMemory } from './postgres/postgres-session-memory.js';
export { PostgresIdempotencyStore } from './postgres/postgres-idempotency-store.js';
export { MemoryIdempotencyStore } from './idempotency/idempotency-store.js';
export type { IdempotencyStore } from './idempotency/idempotency-store.js';
export type { PostgresSessionMemoryOptions } from './postgres/postgres-session-memory.js';
export { PostgresLeaderLease } from './postgres/postgres-leader-lease.js';
export type {
  LeaseFence,
  LeaseHold,
  PostgresLeaderLeaseOptions,
} from './postgres/postgres-leader-lease.js';
export type { PostgresExecutionLogOptions } from './postgres/postgres-execution-log.js';
export { PostgresDeadLetterStore } from './postgres/postgres-dead-letter-store.js';
export { MemoryDeadLetterStore } from './dead-letters/memory-dead-letter-store.js';
export type { MemoryDeadLetterStoreOptions } from './dead-letters/memory-dead-letter-store.js';
export { FileDeadLetterStore } from './dead-letters/file-dead-letter-store.js';
export type {
  DeadLetter,
  DeadLetterFilter,
  DeadLetterPageRequest,
  DeadLetterStore,
  DeadLetterStoreList,
  LetterPosition,
} from './dead-letters/dead-letter-store.js';
export { createDeadLetterStore } from './dead-letters/create-dead-letter-store.js';
export type { DeadLetterStoreOptions } from './dead-letters/create-dead-letter-store.js';
