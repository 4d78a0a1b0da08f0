// For the executions layer's own tests: a memory session store holding session `s` with the
// given workflows, each at version 1, and the smallest workflow that runs.
import type { WorkflowDefinition } from '../../engine/index.js';
import { MemorySessionStore } from '../../stores/index.js';

export async function sessionStoreWith(
  workflows: readonly WorkflowDefinition[],
): Promise<MemorySessionStore> {
  const store = new MemorySessionStore();
  await store.putSession({
    sessionId: 's',
    name: 's',
    initiator: 'i',
    description: '',
    createdAt: '',
    updatedAt: '',
  });
  for (const definition of workflows) {
    await store.putWorkflow({
      sessionId: 's',
      workflowId: definition.workflowId,
      createdAt: '',
      versions: [{ version: 1, createdAt: '', author: 'x', note: null, definition }],
    });
  }
  return store;
}

/** A manual trigger feeding a console terminal: ends as soon as it starts. */
export function manualToConsole(workflowId: string): WorkflowDefinition {
  return {
    workflowId,
    description: '',
    nodes: [
      { nodeId: 'in', type: 'MANUAL' },
      { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
    ],
    edges: [{ source: 'in', target: 'out' }],
  };
}
