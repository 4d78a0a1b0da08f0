// The credit of a node (NodeContext.credit): how many messages its emits can have under way
// below it at once. Each node below holds at most its input buffer and one message it works
// on; a consumer of a broker that holds no more unsettled messages than this never has a
// message waiting in memory that the graph cannot take (docs/brokers.md).
import type { PlannedNode, WorkflowPlan } from './plan.js';

/**
 * The credit functions of each plan, by edge capacity: a plan is shared by the runs of its
 * version, and a run parked for hours should not hold a copy of what every run of it knows.
 */
const byPlan = new WeakMap<WorkflowPlan, Map<number, (nodeId: string) => number>>();

/** Credits by node id, worked out when first asked for and kept with the plan. */
export function creditsOf(plan: WorkflowPlan, capacity: number): (nodeId: string) => number {
  let byCapacity = byPlan.get(plan);
  if (byCapacity === undefined) {
    byCapacity = new Map();
    byPlan.set(plan, byCapacity);
  }
  let credits = byCapacity.get(capacity);
  if (credits === undefined) {
    credits = creditsBelow(plan, capacity);
    byCapacity.set(capacity, credits);
  }
  return credits;
}

function creditsBelow(plan: WorkflowPlan, capacity: number): (nodeId: string) => number {
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
