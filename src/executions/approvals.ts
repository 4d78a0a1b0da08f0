// Pending approvals (SPEC Events 9): signal waits of WAIT_FOR_SIGNAL nodes, answered through
// the signal call. They live in memory and disappear after a restart.
import { AppError } from '../core/index.js';
import type { PendingSignal, SignalWait } from '../engine/index.js';
import type { SignalAnswer } from '../plugin-api/index.js';
import type { ExecutionEventBody } from './execution-events.js';

/** One pending approval as the approvals lists show it. */
export interface Approval {
  readonly executionId: string;
  readonly sessionId: string;
  readonly workflowId: string;
  readonly nodeId: string;
  readonly messageId: string;
  readonly prompt: string | null;
  readonly payload: unknown;
  readonly requestedAt: string;
}

interface Waiting {
  readonly approval: Approval;
  readonly resolve: (answer: SignalAnswer) => void;
}

export interface SignalCommand {
  readonly approved: boolean;
  readonly messageId?: string | undefined;
  readonly payload?: unknown;
  readonly comment?: string | undefined;
}

/** What an approval tells the event streams. */
export type ApprovalEvent = Extract<
  ExecutionEventBody,
  { readonly kind: 'approval.requested' | 'approval.answered' | 'approval.timed_out' }
>;

export class Approvals {
  /** Per execution, waits in the order they began. */
  readonly #byExecution = new Map<string, Waiting[]>();
  readonly #now: () => number;
  readonly #notify: (approval: Approval, event: ApprovalEvent) => void;

  constructor(now: () => number, notify: (approval: Approval, event: ApprovalEvent) => void) {
    this.#now = now;
    this.#notify = notify;
  }

  /** Registers a wait of one run (the engine's `awaitSignal`). */
  register(
    run: { executionId: string; sessionId: string; workflowId: string },
    wait: SignalWait,
  ): PendingSignal {
    let resolve: (answer: SignalAnswer) => void = () => undefined;
    const answer = new Promise<SignalAnswer>((done) => {
      resolve = done;
    });
    // Only the run's names: `run` is the execution's live record, whose results, logs and
    // node states are no part of an approval.
    const approval: Approval = {
      executionId: run.executionId,
      sessionId: run.sessionId,
      workflowId: run.workflowId,
      nodeId: wait.nodeId,
      messageId: wait.messageId,
      prompt: wait.prompt,
      payload: wait.payload,
      requestedAt: new Date(this.#now()).toISOString(),
    };
    const waiting: Waiting = { approval, resolve };
    const list = this.#byExecution.get(run.executionId) ?? [];
    list.push(waiting);
    this.#byExecution.set(run.executionId, list);
    this.#notify(approval, {
      kind: 'approval.requested',
      nodeId: approval.nodeId,
      prompt: approval.prompt,
      messageId: approval.messageId,
    });
    return {
      answer,
      cancel: (reason) => {
        if (!this.#remove(waiting)) return;
        // SPEC Events 9: a timed-out approval is not recorded as answered.
        if (reason === 'timed_out') {
          this.#notify(approval, {
            kind: 'approval.timed_out',
            nodeId: approval.nodeId,
            messageId: approval.messageId,
          });
        }
      },
    };
  }

  /** Answers the wait of a node: the named message, or the oldest one it waits on. */
  signal(executionId: string, nodeId: string, command: SignalCommand): Approval {
    const waits = (this.#byExecution.get(executionId) ?? []).filter(
      (waiting) => waiting.approval.nodeId === nodeId,
    );
    const target =
      command.messageId === undefined
        ? waits[0]
        : waits.find((waiting) => waiting.approval.messageId === command.messageId);
    if (target === undefined) {
      throw new AppError('SIGNAL_NOT_EXPECTED', {
        params: {
          nodeId,
          detail:
            command.messageId === undefined
              ? 'it is not waiting for a signal'
              : `it is not waiting for a signal for message '${command.messageId}'`,
        },
      });
    }
    this.#remove(target);
    const answer: SignalAnswer = {
      approved: command.approved,
      ...(command.payload === undefined ? {} : { payload: command.payload }),
      comment: command.comment ?? null,
    };
    target.resolve(answer);
    this.#notify(target.approval, {
      kind: 'approval.answered',
      nodeId: target.approval.nodeId,
      messageId: target.approval.messageId,
      approved: command.approved,
      comment: command.comment ?? null,
    });
    return target.approval;
  }

  forExecution(executionId: string): Approval[] {
    return (this.#byExecution.get(executionId) ?? []).map((waiting) => waiting.approval);
  }

  forSession(sessionId: string): Approval[] {
    const found: Approval[] = [];
    for (const list of this.#byExecution.values()) {
      for (const waiting of list)
        if (waiting.approval.sessionId === sessionId) found.push(waiting.approval);
    }
    return found;
  }

  #remove(waiting: Waiting): boolean {
    const list = this.#byExecution.get(waiting.approval.executionId);
    const index = list?.indexOf(waiting) ?? -1;
    if (list === undefined || index === -1) return false;
    list.splice(index, 1);
    if (list.length === 0) this.#byExecution.delete(waiting.approval.executionId);
    return true;
  }
}
