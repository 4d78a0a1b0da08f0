// Restart, restart from a node, retry a node (SPEC "Restart rules") and recover (SPEC "Recover
// conditions"): each builds a new execution of the same workflow version and start payload,
// whose finished feeding nodes replay their recorded output, and admits it like any start.
import { AppError } from '../core/index.js';
import { isNodeEnded } from '../engine/index.js';
import type {
  CheckpointStore,
  RecordedApproval,
  RecordedMessage,
  ReplayPlan,
  WorkflowPlan,
} from '../engine/index.js';
import type { ExecutionJournal, RunHistory } from './execution-journal.js';
import type { ExecutionEntry } from './execution-registry.js';
import { isTerminalExecutionStatus } from './execution-states.js';
import { applyInputEdits, receivedMessages, stillProducing } from './input-edits.js';
import type { InputEdit } from './input-edits.js';
import { approvalKey } from './launch.js';
import type { Launch, StartAnswer } from './launch.js';
import type { PlanCache } from './plan-cache.js';
import { RestartArchive } from './restart-archive.js';
import type { Archived } from './restart-archive.js';
import { replayShape } from './replay-planning.js';
import {
  aboveReplay,
  aboveWholeRestart,
  assertUnchangedAbove,
  hasSameOutput,
} from './version-replay.js';
import { settlesWithin } from './settles-within.js';

const KEEP_CHECKPOINTS = 'set svc.restart.dir, or svc.restart.store-type=postgres,';

/**
 * `version`: a saved version to run instead of the run's own (docs/run-repair.md); `inputs`:
 * edits of what the restart node received.
 */
export type RestartMode =
  | { readonly kind: 'whole'; readonly version?: number | undefined }
  | {
      readonly kind: 'from';
      readonly nodeId: string;
      readonly inputs?: readonly InputEdit[] | undefined;
      /** The node receives the edited messages alone: a dead letter's redrive. */
      readonly only?: boolean | undefined;
      readonly version?: number | undefined;
    }
  | { readonly kind: 'retry'; readonly nodeId: string };

export interface RestartsOptions {
  readonly plans: PlanCache;
  /** Where runs record what their nodes emit; restarts from a node read it back. */
  readonly checkpoints: CheckpointStore | undefined;
  readonly journal: ExecutionJournal | undefined;
  /** SPEC `svc.restart.retained-executions`: the newest executions that can be restarted. */
  readonly retained: number;
  /** SPEC Restart rule 6: how long a restart waits for its new run to be accepted. */
  readonly acceptMs: number;
  /** Admits a new execution like any start. */
  readonly admit: (launch: Launch) => Promise<StartAnswer>;
  /** Stops an execution still going. */
  readonly stop: (executionId: string, reason: string) => void;
  /** The execution left the archive: its run stops recording for a restart. */
  readonly forgotten: (executionId: string) => void;
}

export class Restarts {
  readonly #options: RestartsOptions;
  /** SPEC Restart rule 1: the newest executions. */
  readonly #archive: RestartArchive;
  /** Executions a restart (rule 5) or a recover (rule 4) is under way for. */
  readonly #restarting = new Set<string>();
  readonly #resuming = new Set<string>();

  constructor(options: RestartsOptions) {
    this.#options = options;
    this.#archive = new RestartArchive(options.retained);
  }

  /** Whether the execution is still in the archive. */
  has(executionId: string): boolean {
    return this.#archive.has(executionId);
  }

  /**
   * Keeps the newest executions restartable. One that leaves the archive stops recording,
   * and its checkpoints go unless the store keeps them for recover.
   */
  archive(executionId: string, archived: Archived): void {
    this.#archive.add(executionId, archived, this.#left);
  }

  readonly #left = (executionId: string): void => {
    const { checkpoints: store, forgotten } = this.#options;
    if (store === undefined || store.durable) return;
    forgotten(executionId);
    // The memory stores forget at once; there is nothing left to fail.
    void store.drop(executionId).catch(() => undefined);
  };

  /**
   * A new execution of the same workflow version and start payload. From a node, the
   * finished nodes feeding it replay their recorded output and independent branches are left
   * out. The original is stopped if it is still going.
   */
  async restart(
    entry: ExecutionEntry,
    mode: RestartMode,
    reach: readonly string[] | null = null,
  ): Promise<StartAnswer> {
    const { executionId } = entry;
    const archived = this.#archive.get(executionId) ?? (await this.#fromHistory(entry));
    if (this.#restarting.has(executionId)) {
      throw new AppError('RESTART_IN_PROGRESS', { params: { executionId } });
    }
    this.#restarting.add(executionId);
    try {
      const version = mode.kind === 'retry' ? undefined : mode.version;
      // Without another version nothing is awaited here: a run still going is stopped within
      // this call, as before (SPEC Restart rule 6).
      const target =
        version === undefined || version === archived.launch.version
          ? archived.launch
          : await this.#onVersion(entry, archived, mode.kind, version);
      const replay =
        mode.kind === 'whole' ? undefined : await this.#replayFor(entry, archived, mode, target);
      const { acceptMs } = this.#options;
      if (!isTerminalExecutionStatus(entry.status)) {
        this.#options.stop(executionId, 'Stopped by a restart');
        if (!(await settlesWithin(entry.finished, acceptMs))) {
          throw new AppError('RESTART_NOT_ACCEPTED', {
            params: { executionId, seconds: acceptMs / 1000 },
          });
        }
      }
      return await this.#options.admit({
        request: archived.launch.request,
        plan: target.plan,
        version: target.version,
        lineage: archived.lineage,
        restartOf: executionId,
        reach,
        ...(replay === undefined ? {} : { replay }),
      });
    } finally {
      this.#restarting.delete(executionId);
    }
  }

  /**
   * A run the archive does not hold: one of an earlier server process, or one that left the
   * archive. Its checkpoints are still there when the store keeps them durably, and the
   * durable execution log has its start; else the refusal says which of the two is missing.
   */
  async #fromHistory(
    entry: ExecutionEntry,
    refuse = (reason: string): never => {
      throw new AppError('NOT_RESTARTABLE', { params: { executionId: entry.executionId, reason } });
    },
  ): Promise<Archived> {
    const { checkpoints, journal, retained, plans } = this.#options;
    const { executionId } = entry;
    if (checkpoints?.durable !== true) {
      return refuse(
        entry.restored
          ? `it ran before the server restarted and its checkpoints were kept in memory (${KEEP_CHECKPOINTS} to keep them across restarts)`
          : `only the newest ${retained} executions are kept for restart while checkpoints are kept in memory (${KEEP_CHECKPOINTS} to keep every run the execution log keeps)`,
      );
    }
    const history = journal?.durable === true ? journal.run(executionId) : undefined;
    if (history === undefined) {
      return refuse(
        journal?.durable === true
          ? 'it is no longer in the execution log (svc.execution-log.retained-runs)'
          : `only the newest ${retained} executions are kept for restart without a durable execution log (set svc.execution-log.dir, or svc.execution-log.store-type=postgres)`,
      );
    }
    const { accepted } = history;
    if (!accepted.payloadRecorded) refuse('its start payload was not recorded (over 1 MiB)');
    const { sessionId, workflowId, workflowVersion: version } = accepted;
    const plan = await plans.version(sessionId, workflowId, version);
    if (plan === undefined) {
      return refuse(
        `version ${version} of workflow '${workflowId}', which it ran, is no longer saved`,
      );
    }
    return {
      launch: {
        request: { sessionId, workflowId, payload: accepted.payload, priority: accepted.priority },
        plan,
        version,
      },
      lineage: accepted.lineage,
      source: accepted.restartOf ?? accepted.resumedFrom,
    };
  }

  /**
   * What a replay check reads of a run: how it was launched, and each node's recorded output
   * (also from the run it restarted); `refuse` says why what it needs was not kept.
   */
  async recording(entry: ExecutionEntry, refuse: (detail: string) => never) {
    const { executionId } = entry;
    const archived = this.#archive.get(executionId) ?? (await this.#fromHistory(entry, refuse));
    const outputOf = (nodeId: string) => this.#recordedOutput(executionId, nodeId, refuse);
    return { ...archived, outputOf };
  }

  /** The execution a restart or resume came from, whose checkpoints hold its left-out nodes. */
  #sourceOf(executionId: string): string | null {
    const archived = this.#archive.get(executionId);
    if (archived !== undefined) return archived.source;
    const accepted = this.#options.journal?.run(executionId)?.accepted;
    return accepted?.restartOf ?? accepted?.resumedFrom ?? null;
  }

  /**
   * Another saved version for a restart to run, whose graph above the restart must be
   * unchanged (for a restart from a node, checked with its replay).
   */
  async #onVersion(
    entry: ExecutionEntry,
    archived: Archived,
    kind: RestartMode['kind'],
    version: number,
  ): Promise<Pick<Launch, 'plan' | 'version'>> {
    const own = archived.launch;
    const plan = await this.#options.plans.version(entry.sessionId, entry.workflowId, version);
    if (plan === undefined) {
      throw new AppError('VERSION_NOT_FOUND', {
        params: { version, workflowId: entry.workflowId },
      });
    }
    if (kind === 'whole') {
      assertUnchangedAbove(own.plan, plan, aboveWholeRestart(own.plan, plan), {
        executionId: entry.executionId,
        version,
      });
    }
    return { plan, version };
  }

  /**
   * Whether the output a node recorded in `source` stands for its output in `holder`, which
   * left it out: always on the same version; on another (a replay on another version), only
   * when the node and those above it are the same in both.
   */
  async #sameOutputIn(holder: string, source: string, nodeId: string): Promise<boolean> {
    const [held, recorded] = await Promise.all([this.#planOf(holder), this.#planOf(source)]);
    if (held === undefined || recorded === undefined || held.version === recorded.version) {
      return true;
    }
    return hasSameOutput(recorded.plan, held.plan, nodeId);
  }

  /** The plan and version an execution ran, from the archive or the execution log. */
  async #planOf(executionId: string): Promise<Pick<Launch, 'plan' | 'version'> | undefined> {
    const archived = this.#archive.get(executionId);
    if (archived !== undefined) return archived.launch;
    const accepted = this.#options.journal?.run(executionId)?.accepted;
    if (accepted === undefined) return undefined;
    const { sessionId, workflowId, workflowVersion: version } = accepted;
    const plan = await this.#options.plans.version(sessionId, workflowId, version);
    return plan === undefined ? undefined : { plan, version };
  }

  /** Rules 2 to 4: what a restart from a node replays, or why it cannot. */
  async #replayFor(
    entry: ExecutionEntry,
    archived: Archived,
    mode: Exclude<RestartMode, { readonly kind: 'whole' }>,
    { plan, version }: Pick<Launch, 'plan' | 'version'>,
  ): Promise<ReplayPlan> {
    const { executionId } = entry;
    const refuse = (detail: string): never => {
      throw new AppError('RESTART_REFUSED', { params: { executionId, detail } });
    };
    if (!plan.byId.has(mode.nodeId)) refuse(`node '${mode.nodeId}' is not in the workflow`);
    if (mode.kind === 'retry') {
      const status = entry.nodes.find((node) => node.nodeId === mode.nodeId)?.status;
      if (status !== 'FAILURE' && status !== 'TIMED_OUT') {
        throw new AppError('NODE_DID_NOT_FAIL', {
          params: { executionId, nodeId: mode.nodeId, status: status ?? 'not part of the run' },
        });
      }
    }
    const shape = replayShape(plan, [mode.nodeId]);
    if (version !== archived.launch.version) {
      const above = aboveReplay(plan, shape.feeders, mode.nodeId);
      assertUnchangedAbove(archived.launch.plan, plan, above, { executionId, version });
    }
    const outputs = new Map<string, readonly RecordedMessage[]>();
    for (const feeder of shape.feeders) {
      const state = entry.nodes.find((node) => node.nodeId === feeder);
      if (state !== undefined && !isNodeEnded(state)) {
        refuse(`node '${feeder}' is still producing output`);
      }
      outputs.set(feeder, await this.#recordedOutput(executionId, feeder, refuse));
    }
    if (mode.kind === 'from' && mode.inputs !== undefined && mode.inputs.length > 0) {
      await applyInputEdits(plan, mode.nodeId, outputs, mode.inputs, {
        executionId,
        lineage: archived.lineage,
        only: mode.only === true,
      });
    }
    return { outputs, omitted: shape.omitted };
  }

  /**
   * A node's complete recorded output in an execution, or in the one it restarted when the
   * node was left out of it.
   */
  async #recordedOutput(
    executionId: string,
    nodeId: string,
    refuse: (detail: string) => never,
  ): Promise<readonly RecordedMessage[]> {
    const store = this.#options.checkpoints;
    let holder: string | null = executionId;
    while (holder !== null && store !== undefined) {
      const node = (await store.summary(holder))?.find((summary) => summary.nodeId === nodeId);
      if (node !== undefined) {
        if (node.truncated) {
          refuse(
            `the output of node '${nodeId}' went over the in-memory checkpoint caps (set svc.restart.spill-dir or svc.restart.dir to keep it)`,
          );
        }
        const output = node.complete ? await store.output(holder, nodeId) : undefined;
        if (output === undefined) refuse(`node '${nodeId}' has no complete recorded output`);
        return output;
      }
      const source = this.#sourceOf(holder);
      if (source !== null && !(await this.#sameOutputIn(holder, source, nodeId))) {
        refuse(
          `node '${nodeId}' was left out of execution '${holder}', whose workflow version differs from that of '${source}', which recorded it, in that node or one above it`,
        );
      }
      holder = source;
    }
    return refuse(`node '${nodeId}' has no complete recorded output`);
  }

  /**
   * What a node of a run sent (`out`), or received (`in`: its parents' recorded output on the
   * edges into it, parent by parent in the order of the edges), from the checkpoints.
   */
  async nodeMessages(
    entry: ExecutionEntry,
    nodeId: string,
    direction: 'in' | 'out',
  ): Promise<NodeMessage[]> {
    const { executionId } = entry;
    const refuse = (detail: string): never => {
      throw new AppError('CHECKPOINTS_NOT_KEPT', { params: { executionId, nodeId, detail } });
    };
    const plan = await this.#options.plans.version(
      entry.sessionId,
      entry.workflowId,
      entry.workflowVersion,
    );
    if (plan === undefined) {
      return refuse(`version ${String(entry.workflowVersion)} of its workflow is no longer kept`);
    }
    if (!plan.byId.has(nodeId))
      throw new AppError('NODE_NOT_FOUND', { params: { executionId, nodeId } });
    // Only a run still going has nodes producing: an ended run's unfinished nodes never will.
    const producing = isTerminalExecutionStatus(entry.status)
      ? undefined
      : stillProducing(plan, entry.nodes, nodeId, direction);
    if (producing !== undefined) {
      throw new AppError('NODE_MESSAGES_NOT_YET', {
        params: { executionId, nodeId, producer: producing },
      });
    }
    if (direction === 'out') {
      const output = await this.#recordedOutput(executionId, nodeId, refuse);
      return output.map((message) => messageOf(message));
    }
    const received = await receivedMessages(plan, nodeId, (parent) =>
      this.#recordedOutput(executionId, parent, refuse),
    );
    return received.map(({ message }) => messageOf(message));
  }

  /**
   * Recover: resumes an ABORTED run as a new execution; finished nodes are replayed from
   * their checkpoints and unfinished ones run. A run is resumed once.
   */
  async recover(
    entry: ExecutionEntry,
    reach: readonly string[] | null = null,
  ): Promise<StartAnswer> {
    const { executionId } = entry;
    const refuse = (detail: string): never => {
      throw new AppError('RECOVER_REFUSED', { params: { executionId, detail } });
    };
    const { journal, checkpoints, plans } = this.#options;
    if (journal?.durable !== true) {
      return refuse(
        'recover needs a durable execution log (svc.execution-log.dir, or the postgres store)',
      );
    }
    if (checkpoints?.durable !== true) {
      return refuse(
        'recover needs a file or relational checkpoint store (svc.restart.dir, or the postgres store)',
      );
    }
    if (entry.status !== 'ABORTED') refuse(`it is ${entry.status}, not ABORTED`);
    const history = journal.run(executionId);
    if (history === undefined) return refuse('it is no longer in the execution log');
    if (history.resumedBy !== null) refuse(`it was already resumed as '${history.resumedBy}'`);
    if (this.#resuming.has(executionId)) refuse('it is being resumed');
    this.#resuming.add(executionId);
    try {
      const { plan, version } = await plans.latest(entry.sessionId, entry.workflowId);
      if (plans.hashOf(plan) !== history.accepted.definitionHash) {
        refuse('the workflow changed since the run started');
      }
      if (!history.accepted.payloadRecorded) refuse('its start payload was not recorded');
      const launch = await resumeLaunch(checkpoints, history, plan, version, refuse);
      const answer = await this.#options.admit({ ...launch, reach });
      journal.resumed(executionId, answer.executionId);
      await journal.durableNow();
      return answer;
    } finally {
      this.#resuming.delete(executionId);
    }
  }
}

/** A recorded message as the API shows it. */
export interface NodeMessage {
  readonly messageId: string;
  /** The output port it left its node on. */
  readonly port: string;
  readonly payload: unknown;
  readonly headers: RecordedMessage['headers'];
}

function messageOf(message: RecordedMessage): NodeMessage {
  return {
    messageId: message.id,
    port: message.port,
    payload: message.payload,
    headers: message.headers,
  };
}

/** The launch that resumes an interrupted run: what finished replays, the rest runs. */
async function resumeLaunch(
  store: CheckpointStore,
  history: RunHistory,
  plan: WorkflowPlan,
  version: number,
  refuse: (detail: string) => never,
): Promise<Launch> {
  const { accepted } = history;
  const summary = (await store.summary(accepted.executionId)) ?? [];
  const finished = new Set(summary.filter((node) => node.complete).map((node) => node.nodeId));
  const unfinished = plan.nodes.filter((node) => !finished.has(node.nodeId));
  if (unfinished.length === 0) refuse('every node already finished');
  const shape = replayShape(
    plan,
    unfinished.map((node) => node.nodeId),
  );
  const outputs = new Map<string, readonly RecordedMessage[]>();
  for (const feeder of shape.feeders) {
    const output = await store.output(accepted.executionId, feeder);
    if (output === undefined) refuse(`node '${feeder}' has no complete recorded output`);
    outputs.set(feeder, output);
  }
  const approvals = new Map<string, RecordedApproval>();
  for (const answer of await store.approvals(accepted.executionId)) {
    approvals.set(approvalKey(answer.nodeId, answer.messageId), answer);
  }
  return {
    request: {
      sessionId: accepted.sessionId,
      workflowId: accepted.workflowId,
      payload: accepted.payload,
      priority: accepted.priority,
    },
    plan,
    version,
    lineage: accepted.lineage,
    resumedFrom: accepted.executionId,
    replay: { outputs, omitted: shape.omitted },
    approvals,
  };
}
