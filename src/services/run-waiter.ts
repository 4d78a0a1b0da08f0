// Waiting for a run: a caller that started an execution follows it until it ends, stops at an
// approval it must answer, or gives up after its timeout. The edges report what happens on the
// way (progress, log lines) in their own protocol; the rules of waiting are written once here.
import type { Subscription } from '../events/index.js';
import { isStateEvent, isTerminalExecutionStatus } from '../executions/index.js';
import type { Approval, ExecutionEvent, LogEntry } from '../executions/index.js';
import type { LogQuery } from './execution-views.js';
import type { ProgressSnapshot } from './execution-views.js';

/** A log line of a run, as it is stored and as its event carries it. */
export type RunLogLine = Pick<LogEntry, 'seq' | 'nodeId' | 'level' | 'message' | 'fields'>;

/** What waiting reads of an execution. */
export interface RunSource {
  status(executionId: string): ProgressSnapshot;
  approvals(executionId: string): Approval[];
  logs(executionId: string, query: LogQuery): LogEntry[];
  watch(executionId: string, listener: (event: ExecutionEvent) => void): Subscription;
}

export interface RunWaitOptions {
  readonly timeoutMs: number;
  /** Ends the wait early, as a timeout does (the caller went away). */
  readonly signal?: AbortSignal | undefined;
  /** Each change of a node or run status, with the progress it makes. */
  readonly onProgress?: ((snapshot: ProgressSnapshot) => void) | undefined;
  /** Each log line once, in order: the stored ones first, so a fast run loses none. */
  readonly onLog?: ((line: RunLogLine) => void) | undefined;
}

/**
 * Why the wait ended: the run reached a final status, it waits for approvals (the caller can
 * answer them and wait again), or the time ran out first.
 */
export type RunWaitOutcome =
  | { readonly kind: 'ended'; readonly execution: ProgressSnapshot }
  | {
      readonly kind: 'approval';
      readonly execution: ProgressSnapshot;
      readonly approvals: readonly Approval[];
    }
  | { readonly kind: 'timeout'; readonly execution: ProgressSnapshot };

export function waitForRun(
  source: RunSource,
  executionId: string,
  options: RunWaitOptions,
): Promise<RunWaitOutcome> {
  return new Promise((resolve) => {
    let done = false;
    // Called only once the subscription and the timer below exist: by their own callbacks, or
    // by the first check after both are set up.
    const finish = (outcome: RunWaitOutcome): void => {
      if (done) return;
      done = true;
      subscription.close();
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', giveUp);
      resolve(outcome);
    };
    const giveUp = (): void => {
      finish({ kind: 'timeout', execution: source.status(executionId) });
    };
    // Decides on what the execution is now, so an event missed before subscribing is no loss.
    const check = (): void => {
      const execution = source.status(executionId);
      if (isTerminalExecutionStatus(execution.status)) {
        finish({ kind: 'ended', execution });
        return;
      }
      const approvals = source.approvals(executionId);
      if (approvals.length > 0) finish({ kind: 'approval', execution, approvals });
    };
    let logged = 0;
    const log = (line: RunLogLine): void => {
      if (line.seq <= logged) return;
      logged = line.seq;
      options.onLog?.(line);
    };
    const subscription = source.watch(executionId, (event) => {
      if (done) return;
      if (event.kind === 'log') log(event);
      else if (isStateEvent(event.kind)) options.onProgress?.(source.status(executionId));
      if (isStateEvent(event.kind) || event.kind === 'approval.requested') check();
    });
    // Lines written before the subscription: the run may have gone far while it was started.
    if (options.onLog !== undefined) for (const line of source.logs(executionId, {})) log(line);
    const timer = setTimeout(giveUp, options.timeoutMs);
    options.signal?.addEventListener('abort', giveUp, { once: true });
    if (options.signal?.aborted === true) giveUp();
    else check();
  });
}
