// Pure access rules (SPEC "Authentication"): the role a request needs, open paths, the paths
// a session-limited key may reach, ambiguous paths, and the host and origin checks.
import type { Role } from './key-ring.js';

const READ_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** SPEC "Roles": derived from the path and the method, in this one place. */
export function requiredRole(method: string, path: string): Role {
  if (path.startsWith('/api/')) {
    if (READ_METHODS.has(method)) return 'VIEWER';
    if (path.startsWith('/api/executions/') || path.startsWith('/api/workflow/')) return 'OPERATOR';
    // Redrive and delete of a dead letter are repairs of a run, like its restart.
    if (path.startsWith('/api/dead-letters/')) return 'OPERATOR';
    return 'ADMIN';
  }
  return 'ADMIN';
}

export function isManagementPath(path: string): boolean {
  return path === '/actuator' || path.startsWith('/actuator/');
}

export function isToolPath(path: string): boolean {
  return path === '/mcp' || path.startsWith('/mcp/');
}

function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

function isDocumentationPath(path: string): boolean {
  return (
    path === '/v3/api-docs' || path.startsWith('/v3/api-docs/') || path.startsWith('/swagger-ui')
  );
}

/**
 * Hook calls (docs/webhooks.md): no API key, their own secret; a workflow without a
 * WEBHOOK_TRIGGER answers 404 there.
 */
export function isHookPath(method: string, path: string): boolean {
  return method === 'POST' && path.startsWith('/api/hooks/');
}

/**
 * SPEC "Open paths": health, the API description, its page, and the web UI pages; and hook
 * calls, which a workflow guards with a secret of its own.
 */
export function isOpenPath(method: string, path: string): boolean {
  if (path === '/actuator/health' || path.startsWith('/actuator/health/')) return true;
  if (isHookPath(method, path)) return true;
  if (isDocumentationPath(path)) return READ_METHODS.has(method);
  const uiPage = !isApiPath(path) && !isManagementPath(path) && !isToolPath(path);
  return uiPage && READ_METHODS.has(method);
}

export type SessionScope =
  | { readonly kind: 'session'; readonly sessionId: string }
  | { readonly kind: 'execution'; readonly executionId: string }
  | { readonly kind: 'filtered' }
  | { readonly kind: 'none' };

/**
 * What a session-limited key may reach: `/api/sessions/{session}/...`,
 * `/api/workflow/{session}/...`, and `/api/executions/{id}/...` of its own sessions.
 */
export function sessionScope(path: string): SessionScope {
  const segments = path.split('/');
  // ['', 'api', kind, id, ...rest]
  const [, api, kind, id, ...rest] = segments;
  // The service answers a limited key the dead letters of its sessions only.
  if (api === 'api' && kind === 'dead-letters') return { kind: 'filtered' };
  if (api !== 'api' || id === undefined || id === '') return { kind: 'none' };
  const decoded = safeDecode(id);
  if (kind === 'sessions') return { kind: 'session', sessionId: decoded };
  if (kind === 'workflow' && rest.length > 0) return { kind: 'session', sessionId: decoded };
  if (kind === 'executions') return { kind: 'execution', executionId: decoded };
  return { kind: 'none' };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

const AMBIGUOUS = /;|\/\/|\.\.|\\|%2f|%2e|%25|%5c/i;

/** SPEC: `;`, `//`, `..`, a backslash, or an encoded slash, dot or percent sign. */
export function isAmbiguousPath(rawPath: string): boolean {
  return AMBIGUOUS.test(rawPath);
}

const LOCAL_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The host name of a Host header, without its port. */
export function hostName(hostHeader: string): string {
  const value = hostHeader.trim().toLowerCase();
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    return end === -1 ? value : value.slice(0, end + 1);
  }
  const colon = value.indexOf(':');
  return colon === -1 ? value : value.slice(0, colon);
}

/** SPEC "Host and Origin protection" 1. */
export function isAllowedHost(
  hostHeader: string | undefined,
  allowedHosts: readonly string[],
): boolean {
  if (hostHeader === undefined || hostHeader === '') return false;
  const name = hostName(hostHeader);
  return LOCAL_HOSTS.has(name) || allowedHosts.some((allowed) => hostName(allowed) === name);
}

/** SPEC "Host and Origin protection" 2: changing requests from another origin are refused. */
export function isAllowedOrigin(
  method: string,
  originHeader: string | undefined,
  hostHeader: string | undefined,
  allowedOrigins: readonly string[],
): boolean {
  if (READ_METHODS.has(method) || originHeader === undefined) return true;
  let origin: URL;
  try {
    origin = new URL(originHeader);
  } catch {
    return false;
  }
  if (hostHeader !== undefined && origin.host.toLowerCase() === hostHeader.trim().toLowerCase())
    return true;
  return allowedOrigins.some((allowed) => allowed.toLowerCase() === origin.origin.toLowerCase());
}

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|\[::1\]|localhost)$/i;

/** SPEC "Authentication" 7: the start-up check listens openly only with a key. */
export function isLoopbackAddress(address: string): boolean {
  return LOOPBACK.test(address.trim());
}
