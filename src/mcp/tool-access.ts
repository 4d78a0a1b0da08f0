// Who may call a tool (SPEC "Tool endpoint", "Roles"): the role of the tool, and for a key
// limited to sessions a `sessionId` argument it may reach; an execution named next to a
// `sessionId` must belong to that session, or it is answered like an unknown one.
import { roleAllows } from '../auth/index.js';
import type { Principal } from '../auth/index.js';
import type { Tool, ToolArguments, ToolDeps } from './tool.js';
import { ForbiddenError } from './error-mapping.js';

/**
 * Before the arguments are read: a caller whose role is too low, or a key limited to
 * sessions calling a tool that reaches beyond them, learns nothing more.
 */
export function checkRole(tool: Tool, principal: Principal | null): void {
  if (principal === null) return;
  if (!roleAllows(principal.role, tool.role)) {
    throw new ForbiddenError(`Tool '${tool.name}' needs the ${tool.role} role`);
  }
  if (principal.sessions !== null && tool.scope === 'global') {
    throw new ForbiddenError(`A key limited to sessions cannot use tool '${tool.name}'`);
  }
}

/** Once the arguments are read: the session a limited key names, and an execution's session. */
export function checkScope(
  tool: Tool,
  input: ToolArguments,
  principal: Principal | null,
  deps: ToolDeps,
): void {
  const sessions = principal?.sessions ?? null;
  if (sessions !== null && (tool.scope === 'session' || tool.scope === 'execution')) {
    if (input.sessionId === undefined) {
      throw new ForbiddenError('A key limited to sessions must pass a sessionId argument');
    }
    if (!sessions.includes(input.sessionId)) {
      throw new ForbiddenError(`The key may not reach session '${input.sessionId}'`);
    }
  }
  if (
    tool.scope === 'execution' &&
    input.sessionId !== undefined &&
    input.executionId !== undefined
  ) {
    deps.executions.assertInSession(input.sessionId, input.executionId);
  }
}
