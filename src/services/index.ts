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
