export { ExecutionManager, MAX_NESTING_DEPTH } from './execution-manager.js';
export type { ExecutionManagerDeps, StartAnswer, StartRequest } from './execution-manager.js';
export { ExecutionRegistry, isTerminalExecutionStatus } from './execution-registry.js';
export type {
  ExecutionEntry,
  ExecutionQuery,
  ExecutionRecord,
  ExecutionStatus,
  LogEntry,
  NodeRecord,
  RegistryLimits,
  ResultEvent,
} from './execution-registry.js';
