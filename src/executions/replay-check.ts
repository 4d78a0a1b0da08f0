// Replay check (docs/run-repair.md "Replay check"): runs a recorded run's inputs through a saved
// version, or an unsaved draft, and compares each node's output with what the run recorded. The
// check's run is a sandbox: nodes of a type that is not pure answer from the run's recordings
// (nothing outside is called), it takes no admission slot, is no execution, and saves nothing.
import { isDeepStrictEqual } from 'node:util';
import { AppError } from '../core/index.js';
import type { Clock } from '../core/index.js';
import {
  RunClock,
  WorkflowRun,
  childMessageId,
  prepareWorkflow,
  realTimers,
} from '../engine/index.js';
import type {
  CheckpointWriter,
  ConfigResolver,
  EngineLogger,
  PluginCatalog,
  NodeRecorder,
  PlannedNode,
  RecordedMessage,
  RunEventSink,
  RunServices,
  TimerScheduler,
  WorkflowDefinition,
  WorkflowPlan,
} from '../engine/index.js';
import type { Emit, MessageProcessor } from '../plugin-api/index.js';
import type { ExecutionEntry } from './execution-registry.js';
import type { Launch } from './launch.js';
import type { PlanCache } from './plan-cache.js';
import { compareNode } from './replay-comparison.js';
import type { NodeComparison, OutputMessage } from './replay-comparison.js';
import type { Restarts } from './restarts.js';

/** What a check runs: a saved version of the run's workflow, or a draft definition. */
export type ReplayTarget = { readonly version: number } | { readonly definition: DraftDefinition };

/** A draft may leave its workflow id out: it is checked as the run's workflow. */
export type DraftDefinition = Omit<WorkflowDefinition, 'workflowId'> & {
  readonly workflowId?: string | undefined;
};

export interface ReplayCheckResult {
  readonly executionId: string;
  /** The saved version checked; null for a draft. */
  readonly version: number | null;
  /** How the check's run ended: COMPLETED, or why it did not (a node failed, the timeout). */
  readonly status: string;
  readonly error: string | null;
  /** Every node of the checked definition, in topological order. */
  readonly nodes: readonly NodeComparison[];
}

/** What a check reads of the run it checks (Restarts.recording). */
export interface Recording {
  readonly launch: Launch;
  readonly lineage: string;
  outputOf(nodeId: string): Promise<readonly RecordedMessage[]>;
}

export interface ReplayChecksOptions {
  readonly recording: (
    entry: ExecutionEntry,
    refuse: (detail: string) => never,
  ) => Promise<Recording>;
  /** A saved version's plan, undefined when it is not saved. */
  readonly version: (entry: ExecutionEntry, version: number) => Promise<WorkflowPlan | undefined>;
  /** Prepares a draft; refuses one that does not validate (400). */
  readonly prepare: (definition: WorkflowDefinition) => WorkflowPlan;
  readonly services: RunServices;
  readonly clock: Clock;
  readonly timers: TimerScheduler;
  /** How long a check's run may take before it ends TIMED_OUT. */
  readonly timeoutMs: number;
  /** Checks that may go at once: they hold no slot, so they are bounded here. */
  readonly maxConcurrent: number;
}

/** Nothing of a check's run goes anywhere: no events, results, logs or state changes. */
const SILENT: RunEventSink = {
  nodeChanged: () => undefined,
  result: () => undefined,
  log: () => undefined,
  edgeDropped: () => undefined,
};

export class ReplayChecks {
  readonly #options: ReplayChecksOptions;
  #going = 0;

  constructor(options: ReplayChecksOptions) {
    this.#options = options;
  }

  async check(entry: ExecutionEntry, target: ReplayTarget): Promise<ReplayCheckResult> {
    const { executionId } = entry;
    const refuse = (detail: string): never => {
      throw new AppError('REPLAY_CHECK_REFUSED', { params: { executionId, detail } });
    };
    const { maxConcurrent } = this.#options;
    if (this.#going >= maxConcurrent) {
      refuse(`${String(maxConcurrent)} replay checks are going already; try again when one ends`);
    }
    this.#going++;
    try {
      const plan = await this.#planOf(entry, target);
      const recording = await this.#options.recording(entry, refuse);
      const recorded = new Map<string, readonly RecordedMessage[]>();
      for (const node of recording.launch.plan.nodes) {
        recorded.set(node.nodeId, await recording.outputOf(node.nodeId));
      }
      const outcome = await this.#sandboxRun(
        entry,
        recording,
        keyedLike(plan, recording),
        recorded,
      );
      return {
        executionId,
        version: 'version' in target ? target.version : null,
        status: outcome.status,
        error: outcome.error,
        nodes: plan.nodes.map((node) =>
          compareNode(
            node.nodeId,
            recorded.get(node.nodeId) ?? [],
            outcome.outputs.get(node.nodeId) ?? [],
            outcome.unanswered.get(node.nodeId),
          ),
        ),
      };
    } finally {
      this.#going--;
    }
  }

  async #planOf(entry: ExecutionEntry, target: ReplayTarget): Promise<WorkflowPlan> {
    if ('definition' in target) {
      return this.#options.prepare({ ...target.definition, workflowId: entry.workflowId });
    }
    const plan = await this.#options.version(entry, target.version);
    if (plan === undefined) {
      throw new AppError('VERSION_NOT_FOUND', {
        params: { version: target.version, workflowId: entry.workflowId },
      });
    }
    return plan;
  }

  /**
   * Runs the plan on the run's start payload and lineage (so ids come out as recorded):
   * pure nodes for real, triggers with effects replay their recorded output, other nodes with
   * effects answer each input from their recorded output for it.
   */
  async #sandboxRun(
    entry: ExecutionEntry,
    recording: Recording,
    plan: WorkflowPlan,
    recorded: ReadonlyMap<string, readonly RecordedMessage[]>,
  ) {
    const messages = new Map<string, RecordedMessage>();
    for (const output of recorded.values()) {
      for (const message of output) messages.set(message.id, message);
    }
    const replayed = new Map<string, readonly RecordedMessage[]>();
    const unanswered = new Map<string, string[]>();
    for (const node of plan.nodes) {
      if (node.descriptor.pure === true || node.kind !== 'trigger') continue;
      replayed.set(node.nodeId, recorded.get(node.nodeId) ?? []);
    }
    const { services, clock, timers, timeoutMs } = this.#options;
    const run = new WorkflowRun({
      executionId: `${entry.executionId}.replay-check`,
      sessionId: entry.sessionId,
      workflowId: entry.workflowId,
      lineage: recording.lineage,
      startPayload: recording.launch.request.payload,
      plan,
      clock: new RunClock(clock, timers),
      events: SILENT,
      host: {
        // Reached only by a pure type that runs a sub-workflow, which none should be.
        runSubWorkflow: () => Promise.reject(new Error('A replay check runs no sub-workflow')),
      },
      services,
      deadlineMs: timeoutMs,
      replay: { outputs: replayed, omitted: new Set() },
      substitute: (node) => {
        if (node.descriptor.pure === true) return undefined;
        const missing: string[] = [];
        unanswered.set(node.nodeId, missing);
        return answeredFromRecording(node, messages, missing);
      },
    });
    const collected = new CollectingWriter();
    run.recordTo(collected);
    run.start();
    const outcome = await run.done;
    return { ...outcome, outputs: collected.outputs, unanswered };
  }
}

/**
 * A node with outside effects in a check: for an input the run recorded (same id, same
 * payload), the messages it emitted for it; for any other input nothing, noted in `missing`.
 */
function answeredFromRecording(
  node: PlannedNode,
  messages: ReadonlyMap<string, RecordedMessage>,
  missing: string[],
): MessageProcessor {
  return {
    process: (message) => {
      const received = messages.get(message.id);
      if (received === undefined || !isDeepStrictEqual(received.payload, message.payload)) {
        missing.push(message.id);
        return undefined;
      }
      const emits: Emit[] = [];
      for (let index = 0; ; index++) {
        const sent = messages.get(childMessageId(message.id, node.key, index));
        if (sent === undefined) break;
        emits.push({ payload: sent.payload, port: sent.port });
      }
      return emits;
    },
  };
}

/** Keeps what every node of a check's run emits, in memory, until the check answers. */
class CollectingWriter implements CheckpointWriter {
  readonly outputs = new Map<string, OutputMessage[]>();

  node(nodeId: string): NodeRecorder {
    const output: OutputMessage[] = [];
    this.outputs.set(nodeId, output);
    return {
      // The message is the engine's for this call alone: only its parts are kept.
      record: ({ id, port, payload }) => {
        output.push({ id, port, payload });
        return undefined;
      },
      end: () => undefined,
    };
  }

  approval(): undefined {
    return undefined;
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * The plan with each node keyed as in the version the run used: ids derive from node keys
 * (topological positions), which a node added above would shift, and the check pairs recorded
 * and replayed messages by id. New nodes get keys no node of the run had. No node is placed.
 */
function keyedLike(plan: WorkflowPlan, recording: Recording): WorkflowPlan {
  const used = recording.launch.plan;
  let next = used.nodes.length;
  const nodes = plan.nodes.map((node) => {
    // Placed nodes run here: the check is no execution remote workers could report to.
    const { placement: _placement, ...settings } = node.settings;
    return { ...node, settings, key: used.byId.get(node.nodeId)?.key ?? (next++).toString(36) };
  });
  return { ...plan, nodes, byId: new Map(nodes.map((node) => [node.nodeId, node])) };
}

/** What replay checks take of the executions manager's dependencies. */
export interface ReplayCheckDeps {
  readonly catalog: PluginCatalog;
  readonly workers: boolean;
  readonly clock: Clock;
  readonly timers?: TimerScheduler | undefined;
  readonly logger: EngineLogger;
  readonly resolveConfig?: ConfigResolver | undefined;
  readonly maxPayloadBytes?: number | undefined;
  /** SPEC `svc.session.execution-timeout-seconds`: a check gets at most this, and a minute. */
  readonly runDeadlineMs: number;
}

/** The most a check's run may take, however long runs may take: a check is answered inline. */
const CHECK_TIMEOUT_MS = 60_000;
/** Checks at once: each holds two outputs of a whole run in memory. */
const MAX_CONCURRENT_CHECKS = 4;

/** Replay checks wired to the plans and the recorded runs of the executions manager. */
export function createReplayChecks(
  deps: ReplayCheckDeps,
  plans: PlanCache,
  restarts: Pick<Restarts, 'recording'>,
): ReplayChecks {
  return new ReplayChecks({
    recording: (entry, refuse) => restarts.recording(entry, refuse),
    version: (entry, version) => plans.version(entry.sessionId, entry.workflowId, version),
    prepare: (definition) => prepareWorkflow(definition, deps.catalog, { workers: deps.workers }),
    // No session memory, placement or tracing: nodes that would use session memory answer
    // from recordings, placed pure nodes run here, and a check leaves no trace.
    services: {
      logger: deps.logger,
      resolveConfig: deps.resolveConfig,
      maxPayloadBytes: deps.maxPayloadBytes,
    },
    clock: deps.clock,
    timers: deps.timers ?? realTimers,
    timeoutMs: Math.min(deps.runDeadlineMs, CHECK_TIMEOUT_MS),
    maxConcurrent: MAX_CONCURRENT_CHECKS,
  });
}
