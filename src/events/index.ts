export { AuditLog } from './audit-log.js';
export type { AuditEntry, AuditOutcome, AuditQuery, AuditRecord } from './audit-log.js';
