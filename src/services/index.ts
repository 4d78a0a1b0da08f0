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
export { audited, auditedAsync } from './control-desk.js';
export type { AuditTarget, ControlDesk } from './control-desk.js';
export {
  createSessionSchema,
  workflowDefinitionBodySchema,
  workflowDefinitionSchema,
} from './api-schemas.js';
export { controlBusStatus, executionInSession, progressSnapshot } from './execution-views.js';
