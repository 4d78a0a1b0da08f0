// `SESSION/WORKFLOW`: how commands name a saved workflow.
import { CliError, EXIT } from './cli-error.js';

export interface WorkflowRef {
  readonly sessionId: string;
  readonly workflowId: string;
}

export function workflowRefOf(target: string): WorkflowRef {
  const [sessionId, workflowId, ...rest] = target.split('/');
  if (
    sessionId === undefined ||
    workflowId === undefined ||
    rest.length > 0 ||
    sessionId === '' ||
    workflowId === ''
  ) {
    throw new CliError(`Name the workflow as SESSION/WORKFLOW, not '${target}'`, {
      exitCode: EXIT.usage,
    });
  }
  return { sessionId, workflowId };
}
