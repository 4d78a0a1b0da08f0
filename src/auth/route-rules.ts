// Every route of the server with the access it needs. Roles come from `requiredRole` (one
// place); this table is the declaration a test holds every registered route against, and a
// route missing from it is refused to any key rather than let through.
import type { Role } from './key-ring.js';

/**
 * What a session-limited key may do with a route (SPEC "Roles", session-limited keys); `tool`:
 * the tool endpoint, where any valid key gets in and each tool checks role and sessions;
 * `filtered`: any key of the role gets in, and the service answers what its sessions hold only
 * (dead letters, docs/dead-letters.md).
 */
export type ScopeRule = 'session' | 'execution' | 'global' | 'open' | 'tool' | 'filtered';

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
  rule('GET', '/api/sessions/:sessionId/workflows/:workflowId/layout', 'VIEWER', 'session'),
  rule('PUT', '/api/sessions/:sessionId/workflows/:workflowId/layout', 'ADMIN', 'session'),
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
  rule('POST', '/api/sessions/:sessionId/workflows/:workflowId/activate', 'ADMIN', 'session'),
  rule('POST', '/api/sessions/:sessionId/workflows/:workflowId/deactivate', 'ADMIN', 'session'),
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
  rule('POST', '/api/executions/:id/priority', 'OPERATOR', 'execution'),
  rule('POST', '/api/executions/:id/stop', 'OPERATOR', 'execution'),
  rule('POST', '/api/executions/:id/pause', 'OPERATOR', 'execution'),
  rule('POST', '/api/executions/:id/resume', 'OPERATOR', 'execution'),
  rule('POST', '/api/executions/:id/step', 'OPERATOR', 'execution'),
  rule('POST', '/api/executions/:id/nodes/:nodeId/pause', 'OPERATOR', 'execution'),
  rule('POST', '/api/executions/:id/nodes/:nodeId/resume', 'OPERATOR', 'execution'),
  rule('POST', '/api/executions/:id/nodes/:nodeId/step', 'OPERATOR', 'execution'),
  rule('POST', '/api/executions/:id/nodes/:nodeId/stop', 'OPERATOR', 'execution'),
  rule('POST', '/api/executions/:id/nodes/:nodeId/skip', 'OPERATOR', 'execution'),
  rule('POST', '/api/executions/:id/nodes/:nodeId/unskip', 'OPERATOR', 'execution'),
  rule('GET', '/api/executions/:id/breakpoints', 'VIEWER', 'execution'),
  rule('POST', '/api/executions/:id/restart', 'OPERATOR', 'execution'),
  rule('POST', '/api/executions/:id/restart/:nodeId', 'OPERATOR', 'execution'),
  // Saves nothing, but runs the run's pure nodes again (a draft's too): an operator's call.
  rule('POST', '/api/executions/:id/replay-check', 'OPERATOR', 'execution'),
  rule('POST', '/api/executions/:id/nodes/:nodeId/retry', 'OPERATOR', 'execution'),
  rule('POST', '/api/executions/:id/recover', 'OPERATOR', 'execution'),
  rule('GET', '/api/executions/:id/checkpoints', 'VIEWER', 'execution'),
  rule('GET', '/api/executions/:id/nodes/:nodeId/messages', 'VIEWER', 'execution'),
  rule('POST', '/api/executions/:id/nodes/:nodeId/signal', 'OPERATOR', 'execution'),
  rule('GET', '/api/executions/:id/approvals', 'VIEWER', 'execution'),
  rule('GET', '/api/sessions/:sessionId/approvals', 'VIEWER', 'session'),
  rule('PUT', '/api/executions/:id/breakpoints', 'OPERATOR', 'execution'),
  rule('GET', '/api/dead-letters', 'VIEWER', 'filtered'),
  rule('GET', '/api/dead-letters/:id', 'VIEWER', 'filtered'),
  rule('POST', '/api/dead-letters/:id/redrive', 'OPERATOR', 'filtered'),
  rule('DELETE', '/api/dead-letters/:id', 'OPERATOR', 'filtered'),
  rule('GET', '/api/scheduler/limits', 'VIEWER', 'global'),
  rule('GET', '/api/scheduler/queue', 'VIEWER', 'global'),
  rule('GET', '/api/control/audit', 'VIEWER', 'global'),
  rule('GET', '/api/control/supervisors', 'VIEWER', 'global'),
  rule('GET', '/api/control/status', 'VIEWER', 'global'),
  rule('GET', '/api/events', 'VIEWER', 'global'),
  rule('GET', '/api/workers', 'VIEWER', 'global'),
  rule('GET', '/api/sessions/:sessionId/executions/:id/logs/entries', 'VIEWER', 'session'),
  rule('GET', '/api/workflow/:sessionId/status/:id/stream', 'VIEWER', 'session'),
  rule('POST', '/api/scheduler/limits', 'ADMIN', 'global'),
  rule('GET', '/actuator', 'ADMIN', 'global'),
  rule('GET', '/actuator/health', 'ADMIN', 'open'),
  rule('GET', '/actuator/info', 'ADMIN', 'global'),
  rule('GET', '/actuator/metrics', 'ADMIN', 'global'),
  rule('GET', '/actuator/metrics/:name', 'ADMIN', 'global'),
  rule('GET', '/actuator/prometheus', 'ADMIN', 'global'),
  rule('GET', '/actuator/loggers', 'ADMIN', 'global'),
  rule('GET', '/actuator/loggers/:name', 'ADMIN', 'global'),
  rule('POST', '/actuator/loggers/:name', 'ADMIN', 'global'),
  rule('GET', '/actuator/mappings', 'ADMIN', 'global'),
  rule('GET', '/actuator/threaddump', 'ADMIN', 'global'),
  rule('POST', '/api/hooks/:sessionId/:workflowId', 'ADMIN', 'open'),
  rule('POST', '/mcp', 'VIEWER', 'tool'),
  rule('GET', '/mcp', 'VIEWER', 'tool'),
  rule('DELETE', '/mcp', 'VIEWER', 'tool'),
  rule('GET', '/v3/api-docs', 'VIEWER', 'open'),
  rule('GET', '/swagger-ui.html', 'VIEWER', 'open'),
];

/** Swagger UI serves its page and assets under this prefix, all open (SPEC Open paths). */
const DOCUMENTATION_PREFIX = '/swagger-ui';

const BY_ROUTE = new Map(ROUTE_RULES.map((entry) => [`${entry.method} ${entry.url}`, entry]));

export function routeRule(method: string, url: string): RouteRule | undefined {
  // HEAD is served by every GET route.
  const read = method === 'HEAD' ? 'GET' : method;
  const declared = BY_ROUTE.get(`${read} ${url}`);
  if (declared !== undefined) return declared;
  if (
    read === 'GET' &&
    (url === DOCUMENTATION_PREFIX || url.startsWith(`${DOCUMENTATION_PREFIX}/`))
  ) {
    return rule('GET', url, 'VIEWER', 'open');
  }
  return undefined;
}
