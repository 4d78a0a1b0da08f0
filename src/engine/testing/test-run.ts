// Runs of small workflows made from plain plugin data, with everything the run reports
// recorded, for the engine's own tests.
import { ManualClock, systemClock } from '../../core/index.js';
import type { Emit, Message, NodeRuntime } from '../../plugin-api/index.js';
import type { EdgeDefinition, NodeDefinition } from '../dag/model.js';
import { createTestCatalog } from './test-catalog.js';
import type { TestPluginType } from './test-catalog.js';
import { prepareWorkflow } from '../runtime/plan.js';
import { ManualScheduler, RunClock } from '../runtime/run-clock.js';
import { WorkflowRun } from '../runtime/workflow-run.js';
import type { NodeState, NodeStatus } from '../runtime/node-state.js';
import type {
  DeadLetterNotice,
  NodePlacement,
  ReplayPlan,
  RunHost,
  RunLogEntry,
  RunServices,
} from '../runtime/run-ports.js';
import type { CheckpointWriter } from '../checkpoints.js';

export interface TestRun {
  readonly run: WorkflowRun;
  readonly results: Map<string, Message[]>;
  readonly logs: RunLogEntry[];
  /** Every `nodeChanged`, in order. */
  readonly changes: { nodeId: string; status: NodeStatus }[];
  /** Nodes whose checkpoint could not be saved, in order. */
  readonly checkpointFailures: string[];
  /** Messages given up by `onError: DEAD_LETTER`, in order. */
  readonly deadLetters: DeadLetterNotice[];
  /** Every `runChanged`, in order. */
  readonly runChanges: ('RUNNING' | 'PAUSED')[];
  /** Set with `manualTime`: time moves only when a test advances it. */
  readonly scheduler: ManualScheduler | undefined;
  node(nodeId: string): NodeState;
  /** Payloads a terminal received, in order. */
  payloads(nodeId: string): unknown[];
  /** Statuses a node showed, in order. */
  statusesOf(nodeId: string): NodeStatus[];
}

export interface TestRunOptions {
  readonly manualTime?: boolean;
  readonly deadlineMs?: number;
  readonly capacity?: number;
  readonly checkpoints?: CheckpointWriter;
  readonly replay?: ReplayPlan;
  /** The root of derived message ids; `e1` when not given. */
  readonly lineage?: string;
  /** Where placed nodes run; with it the build counts as one with remote workers. */
  readonly placement?: NodePlacement;
  readonly resolveConfig?: RunServices['resolveConfig'];
  /** Answers signal waits; without it they are refused. */
  readonly awaitSignal?: RunHost['awaitSignal'];
  /** `svc.limits.max-payload`; the engine's default when not given. */
  readonly maxPayloadBytes?: number;
}

/** A trigger that emits the payloads, one per turn of the event loop. */
export const sourceOf = (payloads: readonly unknown[]): TestPluginType => ({
  kind: 'trigger',
  runtime: () => ({
    async *run() {
      for (const payload of payloads) yield await Promise.resolve({ payload });
    },
  }),
});

export const processorOf = (
  process: (message: Message) => Emit | Emit[] | undefined | Promise<Emit | Emit[] | undefined>,
): TestPluginType => ({
  kind: 'processor',
  runtime: (): NodeRuntime => ({ process }),
});

/** A terminal: what it receives is recorded as results. */
export const testSink: TestPluginType = {
  kind: 'terminal',
  runtime: () => ({ process: () => undefined }),
};

/** Builds a run (not started) of the workflow; the type `SINK` is always there. */
export function createTestRun(
  types: Readonly<Record<string, TestPluginType>>,
  nodes: NodeDefinition[],
  edges: EdgeDefinition[],
  options: TestRunOptions = {},
): TestRun {
  const catalog = createTestCatalog({ ...types, SINK: testSink });
  const plan = prepareWorkflow({ workflowId: 'w', description: '', nodes, edges }, catalog, {
    workers: options.placement !== undefined,
  });
  const manual = options.manualTime === true ? new ManualClock() : undefined;
  const scheduler = manual ? new ManualScheduler(manual) : undefined;
  const clock = new RunClock(manual ?? systemClock, scheduler);
  const results = new Map<string, Message[]>();
  const logs: RunLogEntry[] = [];
  const changes: { nodeId: string; status: NodeStatus }[] = [];
  const runChanges: ('RUNNING' | 'PAUSED')[] = [];
  const checkpointFailures: string[] = [];
  const deadLetters: DeadLetterNotice[] = [];
  const run = new WorkflowRun({
    executionId: 'e1',
    sessionId: 's1',
    workflowId: 'w',
    lineage: options.lineage ?? 'e1',
    startPayload: undefined,
    plan,
    clock,
    deadlineMs: options.deadlineMs,
    channelCapacity: options.capacity,
    replay: options.replay,
    services: {
      placement: options.placement,
      resolveConfig: options.resolveConfig,
      maxPayloadBytes: options.maxPayloadBytes,
      logger: { isLevelEnabled: () => false, trace: () => undefined },
    },
    events: {
      nodeChanged: (state) => changes.push({ nodeId: state.nodeId, status: state.status }),
      runChanged: (status) => runChanges.push(status),
      result: (nodeId, message) => results.set(nodeId, [...(results.get(nodeId) ?? []), message]),
      log: (entry) => logs.push(entry),
      edgeDropped: () => undefined,
      checkpointFailed: (nodeId) => checkpointFailures.push(nodeId),
      deadLettered: (letter) => deadLetters.push(letter),
    },
    host: {
      runSubWorkflow: () => Promise.resolve([]),
      ...(options.awaitSignal === undefined ? {} : { awaitSignal: options.awaitSignal }),
    },
  });
  if (options.checkpoints !== undefined) run.recordTo(options.checkpoints);
  const node = (nodeId: string): NodeState => {
    const state = run.nodes.find((candidate) => candidate.nodeId === nodeId);
    if (!state) throw new Error(`no node ${nodeId}`);
    return state;
  };
  return {
    run,
    results,
    logs,
    changes,
    runChanges,
    checkpointFailures,
    deadLetters,
    scheduler,
    node,
    payloads: (nodeId) => (results.get(nodeId) ?? []).map((message) => message.payload),
    statusesOf: (nodeId) =>
      changes.filter((change) => change.nodeId === nodeId).map((change) => change.status),
  };
}

/** Edges of a linear chain through the nodes, in order. */
export const chainOf = (...ids: string[]): EdgeDefinition[] =>
  ids.slice(1).map((target, index) => ({ source: ids[index] ?? '', target }));
