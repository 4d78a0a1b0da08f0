export { KeyRing, isUnrestrictedAdmin, presentedKey, roleAllows } from './key-ring.js';
export type { KeyRingSettings, Principal, Role, Surface } from './key-ring.js';
export {
  hostName,
  isAllowedHost,
  isAllowedOrigin,
  isAmbiguousPath,
  isLoopbackAddress,
  isManagementPath,
  isOpenPath,
  isToolPath,
  requiredRole,
  sessionScope,
} from './access-rules.js';
export type { SessionScope } from './access-rules.js';
export { ROUTE_RULES, routeRule } from './route-rules.js';
export type { RouteRule, ScopeRule } from './route-rules.js';
export { RESTRICTED_BODY_LIMIT, installAccessControl } from './access-hook.js';
export type { AccessControlOptions } from './access-hook.js';
