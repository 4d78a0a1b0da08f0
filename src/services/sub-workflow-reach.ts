// A key limited to sessions saves no SUB_WORKFLOW node whose child lives in another session
// (SPEC Roles): the child would run there with the parent's rights, outside the key's reach.
import type { FieldError } from '../core/index.js';
import type { WorkflowDefinition } from '../engine/index.js';

/** The field errors of SUB_WORKFLOW nodes pointing outside `reach`; none when unlimited. */
export function subWorkflowReachErrors(
  definition: WorkflowDefinition,
  reach: readonly string[] | null,
): FieldError[] {
  if (reach === null) return [];
  const errors: FieldError[] = [];
  definition.nodes.forEach((node, index) => {
    if (node.type !== 'SUB_WORKFLOW') return;
    // No sessionId: the caller's own session, which the key reached to save here.
    const sessionId: unknown = node.config?.['sessionId'];
    if (typeof sessionId === 'string' && !reach.includes(sessionId)) {
      errors.push({
        field: `nodes[${index}].config.sessionId`,
        message: `Session '${sessionId}' is outside the sessions of the saving key`,
      });
    }
  });
  return errors;
}
