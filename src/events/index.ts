export { AuditLog } from './audit-log.js';
export type { AuditEntry, AuditOutcome, AuditQuery, AuditRecord } from './audit-log.js';
export { EventBus } from './event-bus.js';
export type { EventFilter, NumberedEvent, Subscription } from './event-bus.js';
export { Supervisors } from './supervisors.js';
export type { ReviewedCommand, SupervisorView } from './supervisors.js';
export { startRuleSupervisors } from './rule-supervisors.js';
export type { RuleSupervisorOptions } from './rule-supervisors.js';
