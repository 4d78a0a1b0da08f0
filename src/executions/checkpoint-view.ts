// What `GET /api/executions/{id}/checkpoints` shows (CONTRACT section 4): per node, messages
// recorded, bytes, and whether a replay can use them.
import type { CheckpointStore, NodeCheckpointSummary } from '../engine/index.js';

export interface CheckpointView {
  readonly executionId: string;
  /** The checkpoint store's kind; null when nothing is recorded. */
  readonly store: string | null;
  readonly nodes: Readonly<Record<string, Omit<NodeCheckpointSummary, 'nodeId'>>>;
}

export async function checkpointViewOf(
  store: CheckpointStore | undefined,
  executionId: string,
): Promise<CheckpointView> {
  const nodes: Record<string, Omit<NodeCheckpointSummary, 'nodeId'>> = {};
  for (const { nodeId, ...rest } of (await store?.summary(executionId)) ?? []) {
    nodes[nodeId] = rest;
  }
  return { executionId, store: store?.kind ?? null, nodes };
}
