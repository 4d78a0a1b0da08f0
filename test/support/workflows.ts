// Small workflow drafts used across tests.
import type { EdgeDefinition, NodeDefinition, WorkflowDefinition } from '../../src/engine/index.js';

export function linearWorkflow(
  workflowId = 'wf',
  description = 'A linear workflow',
): WorkflowDefinition {
  return {
    workflowId,
    description,
    nodes: [
      { nodeId: 'start', type: 'MANUAL' },
      { nodeId: 'shape', type: 'MAPPER', config: { mode: 'PROJECTION', expression: '{"n": 1}' } },
      { nodeId: 'print', type: 'CONSOLE_TERMINAL' },
    ],
    edges: [
      { source: 'start', target: 'shape' },
      { source: 'shape', target: 'print' },
    ],
  };
}

/** A chain of `nodes` nodes and extra forward edges up to `edges`, acyclic by construction. */
export function largeWorkflow(
  nodes: number,
  edges: number,
  workflowId = 'large',
): WorkflowDefinition {
  const nodeList: NodeDefinition[] = [{ nodeId: 'n0', type: 'MANUAL' }];
  for (let i = 1; i < nodes - 1; i++) {
    nodeList.push({ nodeId: `n${i}`, type: 'FILTER', config: { expression: `payload.n > ${i}` } });
  }
  nodeList.push({ nodeId: `n${nodes - 1}`, type: 'CONSOLE_TERMINAL' });
  const edgeList: EdgeDefinition[] = [];
  for (let i = 1; i < nodes; i++) edgeList.push({ source: `n${i - 1}`, target: `n${i}` });
  for (let gap = 2; edgeList.length < edges; gap++) {
    for (let i = 1; i + gap < nodes && edgeList.length < edges; i++) {
      edgeList.push({ source: `n${i}`, target: `n${i + gap}` });
    }
  }
  return { workflowId, description: 'large', nodes: nodeList, edges: edgeList };
}

/** MANUAL -> DELAY of a minute -> NOTIFY_TERMINAL: a run that stays going while a test steers it. */
export function slowWorkflow(workflowId = 'slow') {
  return {
    workflowId,
    description: 'waits',
    nodes: [
      { nodeId: 'in', type: 'MANUAL' },
      { nodeId: 'wait', type: 'DELAY', config: { delayMs: 60_000 } },
      { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
    ],
    edges: [
      { source: 'in', target: 'wait' },
      { source: 'wait', target: 'out' },
    ],
  };
}

/** in -> times ten -> a delay per message -> out. */
export const delayedWorkflow = {
  workflowId: 'delayed',
  description: 'three messages, a delay each',
  nodes: [
    { nodeId: 'in', type: 'CONSTANT_SOURCE', config: { messages: [1, 2, 3] } },
    { nodeId: 'times', type: 'MAPPER', config: { expression: '$ * 10' } },
    { nodeId: 'wait', type: 'DELAY', config: { delayMs: 300 } },
    { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
  ],
  edges: [
    { source: 'in', target: 'times' },
    { source: 'times', target: 'wait' },
    { source: 'wait', target: 'out' },
  ],
};

/** in -> ask (waits for an approval) -> out: a run that goes on until it is answered. */
export const approvalWorkflow = {
  workflowId: 'approval',
  description: 'one order waits for an approval',
  nodes: [
    { nodeId: 'in', type: 'CONSTANT_SOURCE', config: { messages: [{ order: 7 }] } },
    { nodeId: 'ask', type: 'WAIT_FOR_SIGNAL', config: { prompt: 'ship it?' } },
    { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
  ],
  edges: [
    { source: 'in', target: 'ask' },
    { source: 'ask', target: 'out' },
  ],
};

/**
 * A chain that fails in its middle: `boom` ends FAILURE with `marker` in its error, and the
 * nodes behind it UPSTREAM_FAILED. The trigger is `trigger` (MANUAL, or API_TRIGGER for a UI).
 */
export function failingWorkflow(
  workflowId: string,
  marker: string,
  trigger = 'MANUAL',
): WorkflowDefinition {
  return {
    workflowId,
    description: 'fails in the middle',
    nodes: [
      { nodeId: 'in', type: trigger },
      { nodeId: 'boom', type: 'MAPPER', config: { expression: `$error("${marker}")` } },
      { nodeId: 'after', type: 'MAPPER', config: { expression: '$' } },
      { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
    ],
    edges: [
      { source: 'in', target: 'boom' },
      { source: 'boom', target: 'after' },
      { source: 'after', target: 'out' },
    ],
  };
}

/** in -> double (gives up negative numbers) -> out. */
export const doubling = (messages: readonly number[] = [1, -2, 3, -4]) => ({
  workflowId: 'doubling',
  description: 'doubles numbers, dead-lettering negative ones',
  nodes: [
    { nodeId: 'in', type: 'CONSTANT_SOURCE', config: { messages } },
    {
      nodeId: 'double',
      type: 'MAPPER',
      config: { expression: '$ < 0 ? $error("negative") : $ * 2', onError: 'DEAD_LETTER' },
    },
    { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
  ],
  edges: [
    { source: 'in', target: 'double' },
    { source: 'double', target: 'out' },
  ],
});

/** One log line for every item of the start payload: CONSOLE_TERMINAL logs each message. */
export const chattyWorkflow = {
  workflowId: 'chatty',
  description: 'one log line a message',
  nodes: [
    { nodeId: 'in', type: 'API_TRIGGER', config: { splitArray: true } },
    { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [{ source: 'in', target: 'out' }],
};
