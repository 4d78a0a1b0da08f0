export { ExecutionManager, MAX_NESTING_DEPTH } from './execution-manager.js';
export type { ExecutionManagerDeps, StartAnswer, StartRequest } from './execution-manager.js';
export {
  ExecutionEntry,
  ExecutionRegistry,
  isTerminalExecutionStatus,
} from './execution-registry.js';
export type {
  ExecutionFields,
  ExecutionQuery,
  ExecutionRecord,
  ExecutionStatus,
  LogEntry,
  NodeRecord,
  RegistryLimits,
  ResultEvent,
} from './execution-registry.js';
