// Run and node controls (CONTRACT section 4) on a run going now; a run control of a start
// still waiting for a slot acts on its queue clock (SPEC States and transitions, rule 1).
import type { WorkflowRun } from '../engine/index.js';
import type { AdmissionQueue } from './admission-queue.js';
import type { ExecutionEntry } from './execution-registry.js';
import type { LiveRuns } from './live-runs.js';

export type RunAction = 'PAUSE' | 'RESUME' | 'STEP';

export type NodeAction = 'PAUSE' | 'RESUME' | 'STEP' | 'STOP' | 'SKIP' | 'UNSKIP';

/** A pause or resume of a waiting start freezes or restarts its queue clock; a step needs a run. */
export function controlRun(
  queue: AdmissionQueue,
  runs: LiveRuns,
  entry: ExecutionEntry,
  action: RunAction,
): void {
  if (action !== 'STEP' && queue.pause(entry.executionId, action === 'PAUSE')) return;
  const run = runs.require(entry);
  if (action === 'PAUSE') run.pause();
  else if (action === 'RESUME') run.resume();
  else run.step();
}

/** Node controls as the run's methods. */
export const NODE_CONTROLS = {
  PAUSE: (run, nodeId) => {
    run.pauseNode(nodeId);
  },
  RESUME: (run, nodeId) => {
    run.resumeNode(nodeId);
  },
  STEP: (run, nodeId) => {
    run.stepNode(nodeId);
  },
  STOP: (run, nodeId) => {
    run.stopNode(nodeId);
  },
  SKIP: (run, nodeId) => {
    run.skipNode(nodeId);
  },
  UNSKIP: (run, nodeId) => {
    run.unskipNode(nodeId);
  },
} as const satisfies Record<NodeAction, (run: WorkflowRun, nodeId: string) => void>;
