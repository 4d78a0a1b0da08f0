// The credit of a node (NodeContext.credit): how many messages its emits can have under way
// below it at once. Each node below holds at most its input buffer and one message it works
// on; a consumer of a broker that holds no more unsettled messages than this never has a
// message waiting in memory that the graph cannot take (docs/brokers.md).
import type { PlannedNode, WorkflowPlan } from './plan.js';

/** Credits by node id, worked out when first asked for. */
export function creditsOf(plan: WorkflowPlan, capacity: number): (nodeId: string) => number {
  const known = new Map<string, number>();
  return (nodeId) => {
    const cached = known.get(nodeId);
    if (cached !== undefined) return cached;
    const node = plan.byId.get(nodeId);
    const credit = node === undefined ? 1 : creditBelow(plan.nodes, node, capacity);
    known.set(nodeId, credit);
    return credit;
  };
}

function creditBelow(nodes: readonly PlannedNode[], from: PlannedNode, capacity: number): number {
  const seen = new Set<number>();
  const stack = [...from.children];
  let credit = 0;
  while (stack.length > 0) {
    const index = stack.pop();
    if (index === undefined || seen.has(index)) continue;
    seen.add(index);
    const node = nodes[index];
    if (node === undefined) continue;
    credit += (node.settings.edgeBuffer?.size ?? capacity) + 1;
    stack.push(...node.children);
  }
  // The message being emitted, held while the edges below are full.
  return credit + 1;
}
