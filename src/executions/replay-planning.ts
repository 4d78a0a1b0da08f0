// Which nodes a restart, retry or recover runs, replays or leaves out (SPEC "Restart rules",
// "Recover conditions"): the nodes to run and everything after them run again; the finished
// nodes feeding them replay their recorded output; every other node is left out.
import type { WorkflowPlan } from '../engine/index.js';

export interface ReplayShape {
  /** Node ids that run again, in topological order. */
  readonly run: readonly string[];
  /** Node ids whose recorded output is replayed: the parents of what runs. */
  readonly feeders: readonly string[];
  /** Node ids left out of the new run. */
  readonly omitted: ReadonlySet<string>;
}

/** The nodes `from` and everything downstream of them run; their other parents feed them. */
export function replayShape(plan: WorkflowPlan, from: readonly string[]): ReplayShape {
  const running = new Set<number>();
  const pending: number[] = [];
  for (const nodeId of from) {
    const node = plan.byId.get(nodeId);
    if (node !== undefined) pending.push(node.index);
  }
  while (pending.length > 0) {
    const index = pending.pop() as number;
    if (running.has(index)) continue;
    running.add(index);
    pending.push(...(plan.nodes[index]?.children ?? []));
  }
  const feeding = new Set<number>();
  for (const index of running) {
    for (const parent of plan.nodes[index]?.parents ?? []) {
      if (!running.has(parent)) feeding.add(parent);
    }
  }
  const run: string[] = [];
  const feeders: string[] = [];
  const omitted = new Set<string>();
  for (const node of plan.nodes) {
    if (running.has(node.index)) run.push(node.nodeId);
    else if (feeding.has(node.index)) feeders.push(node.nodeId);
    else omitted.add(node.nodeId);
  }
  return { run, feeders, omitted };
}
