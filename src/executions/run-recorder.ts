// Records one run into its execution: node and run state changes, results and log lines go to
// the registry, the execution log, the meters and the event stream. It knows its host only
// through RunRecorderHost: what a run needs from outside, never the whole executions layer.
import type { Logger } from 'pino';
import type { Clock } from '../core/index.js';
import { isNodeEnded } from '../engine/index.js';
import type {
  CheckpointWriter,
  DeadLetterNotice,
  LogLevel,
  NodeState,
  NodeStatus,
  PendingSignal,
  RecordedApproval,
  RunEventSink,
  RunHost,
  RunLogEntry,
  RunOutcome,
  SignalWait,
  WorkflowPlan,
} from '../engine/index.js';
import type { Meters } from '../observability/index.js';
import type { Message, PluginMeter, SubWorkflowRequest } from '../plugin-api/index.js';
import { NODE_STATUS_EVENTS } from './execution-events.js';
import type { ExecutionJournal } from './execution-journal.js';
import type { ExecutionNotifier } from './execution-notifier.js';
import type { ExecutionEntry, ExecutionRegistry } from './execution-registry.js';
import { isTerminalExecutionStatus } from './execution-states.js';
import { approvalKey } from './launch.js';

/** What a run's recorder needs from outside; one host serves every run. */
export interface RunRecorderHost {
  readonly registry: ExecutionRegistry;
  readonly notifier: ExecutionNotifier;
  readonly meters: Meters;
  readonly clock: Clock;
  /** The stream engine's logger: node log lines and, at TRACE, message payloads. */
  readonly logger: Logger;
  /** The execution log; only a durable one records node starts and ends. */
  readonly journal: ExecutionJournal | undefined;
  /** Where messages given up by `onError: DEAD_LETTER` go; dropped when absent. */
  readonly deadLettered?: ((entry: ExecutionEntry, letter: DeadLetterNotice) => void) | undefined;
  /** The run of `entry` ended. */
  runEnded(entry: ExecutionEntry, outcome: RunOutcome): void;
  /** SUB_WORKFLOW: a child run whose terminals' payloads are the answer. */
  runChild(parent: ExecutionEntry, request: SubWorkflowRequest): Promise<readonly unknown[]>;
  /** A WAIT_FOR_SIGNAL node of `entry` waits for an answer. */
  awaitSignal(entry: ExecutionEntry, wait: SignalWait): PendingSignal;
}

const LOG_METHODS = {
  TRACE: 'trace',
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warn',
  ERROR: 'error',
} as const satisfies Record<LogLevel, string>;

export function isLogLevel(level: string): level is LogLevel {
  return Object.hasOwn(LOG_METHODS, level);
}

/**
 * Records one run into its execution entry and the meters. A class, not an object of
 * closures, because every parked run holds one.
 */
export class RunRecorder implements RunEventSink, RunHost {
  readonly ended: (outcome: RunOutcome) => void;
  /** Nodes whose start the execution log has; made only with a durable log. */
  #loggedStarts: Set<string> | undefined;

  constructor(
    readonly host: RunRecorderHost,
    readonly entry: ExecutionEntry,
    readonly plan: WorkflowPlan,
    public writer: CheckpointWriter | undefined,
    readonly approvals: ReadonlyMap<string, RecordedApproval> | undefined,
  ) {
    this.ended = (outcome) => {
      host.runEnded(entry, outcome);
      void this.writer?.close().catch((error: unknown) => {
        this.checkpointFailed('', error);
      });
    };
  }

  runSubWorkflow(request: SubWorkflowRequest): Promise<readonly unknown[]> {
    return this.host.runChild(this.entry, request);
  }

  /**
   * SPEC Events 9: an answer the resumed run recorded for the same message is used again;
   * a new answer is recorded with the checkpoints before the node goes on.
   */
  awaitSignal(wait: SignalWait): PendingSignal {
    const recorded = this.approvals?.get(approvalKey(wait.nodeId, wait.messageId));
    if (recorded !== undefined) {
      const answer = {
        approved: recorded.approved,
        ...(recorded.payload === undefined ? {} : { payload: recorded.payload }),
        comment: recorded.comment ?? null,
      };
      void this.#recordApproval(recorded);
      this.host.notifier.emit(this.entry, {
        kind: 'approval.answered',
        nodeId: wait.nodeId,
        messageId: wait.messageId,
        approved: recorded.approved,
        comment: answer.comment,
        reused: true,
      });
      return { answer: Promise.resolve(answer), cancel: () => undefined };
    }
    const pending = this.host.awaitSignal(this.entry, wait);
    if (this.writer === undefined) return pending;
    return {
      answer: pending.answer.then(async (answer) => {
        await this.#recordApproval({
          nodeId: wait.nodeId,
          messageId: wait.messageId,
          approved: answer.approved,
          ...(answer.payload === undefined ? {} : { payload: answer.payload }),
          comment: answer.comment ?? null,
        });
        return answer;
      }),
      cancel: (reason) => {
        pending.cancel(reason);
      },
    };
  }

  async #recordApproval(answer: RecordedApproval): Promise<void> {
    try {
      await this.writer?.approval(answer);
    } catch (error) {
      this.checkpointFailed(answer.nodeId, error);
    }
  }

  checkpointFailed(_nodeId: string, _error: unknown): void {
    this.host.meters.count('svc.checkpoint.errors');
  }

  deadLettered(letter: DeadLetterNotice): void {
    this.host.deadLettered?.(this.entry, letter);
  }

  pluginEvent(_nodeId: string, event: string, outcome: string): void {
    this.host.meters.count('svc.plugin.events', { plugin: event, outcome });
  }

  get pluginMeter(): PluginMeter {
    return this.host.meters.forPlugins;
  }

  nodeChanged(state: Readonly<NodeState>, previous?: NodeStatus): void {
    this.#journalNode(state);
    // A node that had taken a message and was paused or waiting goes on: it resumes.
    const resumed =
      state.status === 'RUNNING' &&
      (previous === 'PAUSED' || previous === 'WAITING') &&
      state.startedAt !== null;
    const kind = resumed ? 'node.resumed' : NODE_STATUS_EVENTS[state.status];
    if (kind !== undefined) this.host.notifier.node(this.entry, kind, state);
    if (!isNodeEnded(state)) return;
    const { meters } = this.host;
    const module = state.type;
    meters.count('svc.node.executions', { module, status: state.status });
    if (state.retries > 0) meters.count('svc.node.retries', { module }, state.retries);
    if (state.startedAt !== null && state.endedAt !== null) {
      meters.time('svc.node.duration', { module }, state.endedAt - state.startedAt);
    }
  }

  runChanged(status: 'RUNNING' | 'PAUSED'): void {
    if (isTerminalExecutionStatus(this.entry.status)) return;
    this.entry.transition(status);
    this.host.notifier.emit(
      this.entry,
      status === 'PAUSED'
        ? { kind: 'execution.paused', status }
        : { kind: 'execution.resumed', status },
    );
  }

  result(nodeId: string, message: Message): void {
    const { registry, clock, notifier } = this.host;
    notifier.result(this.entry, registry.addResult(this.entry, nodeId, message, clock.now()));
  }

  log(line: RunLogEntry): void {
    const { registry, clock, logger } = this.host;
    const { traceId } = this.entry;
    const { line: entry, dropped } = registry.addLog(this.entry, line, clock.now(), traceId);
    // SPEC "Log line losses": lines beyond what an execution keeps are dropped and counted.
    if (dropped > 0) this.host.meters.count('svc.tracker.dropped', { type: 'log' }, dropped);
    this.host.notifier.emit(this.entry, { kind: 'log', ...entry });
    logger[LOG_METHODS[line.level]](
      traceId === undefined
        ? { executionId: this.entry.executionId, nodeId: line.nodeId, ...line.fields }
        : {
            executionId: this.entry.executionId,
            nodeId: line.nodeId,
            traceId,
            ...(line.spanId === undefined ? {} : { spanId: line.spanId }),
            ...line.fields,
          },
      line.message,
    );
  }

  edgeDropped(nodeId: string): void {
    this.host.meters.count('svc.edge.dropped', {
      type: this.plan.byId.get(nodeId)?.type ?? 'unknown',
    });
  }

  /** The execution log has every node's start and end (SPEC "Deployment facts"). */
  #journalNode(state: Readonly<NodeState>): void {
    const journal = this.host.journal;
    if (journal?.durable !== true) return;
    const { executionId } = this.entry;
    const started = (this.#loggedStarts ??= new Set());
    if (state.startedAt !== null && !started.has(state.nodeId)) {
      started.add(state.nodeId);
      journal.nodeStarted(executionId, state.nodeId, state.type);
    }
    if (!isNodeEnded(state)) return;
    journal.nodeEnded(
      {
        executionId,
        nodeId: state.nodeId,
        nodeType: state.type,
        status: state.status,
        error: state.error,
        startedAt: state.startedAt,
        messagesIn: state.messagesIn,
        messagesOut: state.messagesOut,
        retries: state.retries,
      },
      state.endedAt ?? undefined,
    );
  }
}
