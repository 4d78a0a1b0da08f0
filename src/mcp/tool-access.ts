// Who may use a tool, resource or prompt of the endpoint (SPEC "Tool endpoint", "Roles"): the
// role of its rule, and for a key limited to sessions a `sessionId` it may reach; an execution
// named next to a `sessionId` must belong to that session, or it is answered like an unknown one.
import { roleAllows } from '../auth/index.js';
import type { Principal } from '../auth/index.js';
import { AppError } from '../core/index.js';
import type { AccessRule, ToolArguments, ToolDeps } from './tool.js';
import { ForbiddenError } from './error-mapping.js';

/**
 * Before the arguments are read: a caller whose role is too low, or a key limited to
 * sessions calling a tool that reaches beyond them, learns nothing more.
 */
export function checkRole(rule: AccessRule, principal: Principal | null): void {
  if (principal === null) return;
  const label = `${rule.noun ?? 'tool'} '${rule.name}'`;
  if (!roleAllows(principal.role, rule.role)) {
    throw new ForbiddenError(`${capitalized(label)} needs the ${rule.role} role`);
  }
  if (principal.sessions !== null && rule.scope === 'global') {
    throw new ForbiddenError(`A key limited to sessions cannot use ${label}`);
  }
}

/** Once the arguments are read: the session a limited key names, and an execution's session. */
export function checkScope(
  rule: AccessRule,
  input: ToolArguments,
  principal: Principal | null,
  deps: ToolDeps,
): void {
  const sessions = principal?.sessions ?? null;
  if (sessions !== null && (rule.scope === 'session' || rule.scope === 'execution')) {
    if (input.sessionId === undefined) {
      throw new ForbiddenError('A key limited to sessions must pass a sessionId argument');
    }
    if (!sessions.includes(input.sessionId)) {
      throw new ForbiddenError(`The key may not reach session '${input.sessionId}'`);
    }
  }
  if (
    rule.scope === 'execution' &&
    input.sessionId !== undefined &&
    input.executionId !== undefined
  ) {
    deps.executions.assertInSession(input.sessionId, input.executionId);
  }
}

/**
 * An execution named without its session (a resource URI, a prompt argument): its own session
 * stands in for the `sessionId` argument, and one of a session the key may not reach is
 * answered like an unknown execution, as the REST API answers it (404).
 */
export function executionArguments(
  executionId: string,
  principal: Principal | null,
  deps: ToolDeps,
): ToolArguments {
  const sessionId = deps.executions.sessionOf(executionId);
  const sessions = principal?.sessions ?? null;
  if (sessionId === undefined || (sessions !== null && !sessions.includes(sessionId))) {
    throw new AppError('EXECUTION_NOT_FOUND', { params: { executionId } });
  }
  return { sessionId, executionId };
}

/**
 * For a resource or prompt: the checks of the tool that reads the same data, with the session
 * and execution its URI or arguments name standing in for the tool's arguments.
 */
export function checkAccess(
  rule: AccessRule,
  named: { readonly sessionId?: string | undefined; readonly executionId?: string | undefined },
  principal: Principal | null,
  deps: ToolDeps,
): void {
  checkRole(rule, principal);
  const input =
    named.executionId === undefined
      ? { sessionId: named.sessionId }
      : executionArguments(named.executionId, principal, deps);
  checkScope(rule, input, principal, deps);
}

/** Whether the caller may use `rule` at all; what completions offer follows the same rules. */
export function mayUse(rule: AccessRule, principal: Principal | null): boolean {
  try {
    checkRole(rule, principal);
    return true;
  } catch {
    return false;
  }
}

/** Whether a key may reach `sessionId`. */
export function reachesSession(principal: Principal | null, sessionId: string): boolean {
  const sessions = principal?.sessions ?? null;
  return sessions === null || sessions.includes(sessionId);
}

function capitalized(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}
