// Every route of the server with the access it needs. Roles come from `requiredRole` (one
// place); this table is the declaration a test holds every registered route against, and a
// route missing from it is refused to any key rather than let through.
import type { Role } from './key-ring.js';

/** What a session-limited key may do with a route (SPEC "Roles", session-limited keys). */
export type ScopeRule = 'session' | 'execution' | 'global' | 'open';

export interface RouteRule {
  readonly method: string;
  readonly url: string;
  readonly role: Role;
  readonly scope: ScopeRule;
}

const rule = (method: string, url: string, role: Role, scope: ScopeRule): RouteRule => ({
  method,
  url,
  role,
  scope,
});

export const ROUTE_RULES: readonly RouteRule[] = [
  rule('GET', '/api/sessions', 'VIEWER', 'global'),
  rule('POST', '/api/sessions', 'ADMIN', 'global'),
  rule('POST', '/api/sessions/validate', 'ADMIN', 'global'),
  rule('GET', '/api/sessions/:sessionId', 'VIEWER', 'session'),
  rule('DELETE', '/api/sessions/:sessionId', 'ADMIN', 'session'),
  rule('GET', '/api/sessions/:sessionId/workflows', 'VIEWER', 'session'),
  rule('GET', '/api/sessions/:sessionId/workflows/:workflowId', 'VIEWER', 'session'),
  rule('PUT', '/api/sessions/:sessionId/workflows/:workflowId', 'ADMIN', 'session'),
  rule('DELETE', '/api/sessions/:sessionId/workflows/:workflowId', 'ADMIN', 'session'),
  rule('GET', '/api/sessions/:sessionId/workflows/:workflowId/graph', 'VIEWER', 'session'),
  rule('GET', '/api/sessions/:sessionId/workflows/:workflowId/versions', 'VIEWER', 'session'),
  rule('GET', '/api/sessions/:sessionId/workflows/:workflowId/versions/diff', 'VIEWER', 'session'),
  rule(
    'GET',
    '/api/sessions/:sessionId/workflows/:workflowId/versions/:version',
    'VIEWER',
    'session',
  ),
  rule(
    'POST',
    '/api/sessions/:sessionId/workflows/:workflowId/versions/:version/rollback',
    'ADMIN',
    'session',
  ),
  rule('GET', '/api/plugins', 'VIEWER', 'global'),
  rule('GET', '/api/plugins/:type', 'VIEWER', 'global'),
  rule('POST', '/api/workflow/start', 'OPERATOR', 'global'),
  rule('POST', '/api/workflow/:sessionId/start', 'OPERATOR', 'session'),
  rule('GET', '/api/workflow/:sessionId/status/:id', 'VIEWER', 'session'),
  rule('GET', '/api/workflow/:sessionId/history', 'VIEWER', 'session'),
  rule('GET', '/api/executions', 'VIEWER', 'global'),
  rule('GET', '/api/executions/:id', 'VIEWER', 'execution'),
  rule('GET', '/api/executions/:id/results', 'VIEWER', 'execution'),
  rule('GET', '/api/executions/:id/logs', 'VIEWER', 'execution'),
];

const BY_ROUTE = new Map(ROUTE_RULES.map((entry) => [`${entry.method} ${entry.url}`, entry]));

export function routeRule(method: string, url: string): RouteRule | undefined {
  // HEAD is served by every GET route.
  return BY_ROUTE.get(`${method === 'HEAD' ? 'GET' : method} ${url}`);
}
