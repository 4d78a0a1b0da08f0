// For the executions layer's own tests: a memory session store holding session `s` (or the
// sessions named) with the given workflows, each at version 1, and the smallest workflow that runs.
import type { WorkflowDefinition } from '../../engine/index.js';
import { MemorySessionStore } from '../../stores/index.js';

export async function sessionStoreWith(
  workflows: readonly WorkflowDefinition[],
  sessionIds: readonly string[] = ['s'],
): Promise<MemorySessionStore> {
  const store = new MemorySessionStore();
  for (const sessionId of sessionIds) {
    await store.putSession({
      sessionId,
      name: sessionId,
      initiator: 'i',
      description: '',
      createdAt: '',
      updatedAt: '',
    });
    for (const definition of workflows) {
      await store.putWorkflow({
        sessionId,
        workflowId: definition.workflowId,
        createdAt: '',
        versions: [{ version: 1, createdAt: '', author: 'x', note: null, definition }],
      });
    }
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
