// One message through a per-message plugin (ARCHITECTURE "One runner per node", step 2):
// the call, its element timeout and the node's idle timeout, retries with backoff while a
// retry can help, and `onError` after the last attempt.
import { messageOf } from '../../core/index.js';
import { isEmitStream, StepFailure } from '../../plugin-api/index.js';
import type {
  Emit,
  EmitStream,
  Message,
  MessageProcessor,
  NodeContext,
  ProcessResult,
} from '../../plugin-api/index.js';
import { AttemptContext } from './node-context.js';
import { NodeEnd } from './node-state.js';
import type { NodeTask } from './node-task.js';
import type { TimerHandle } from './run-clock.js';
import type { RunEmitter } from './run-emitter.js';
import type { RunLifecycle } from './run-lifecycle.js';
import type { FailedAttempt } from './run-ports.js';
import { fail } from './settlements.js';
import { shareOfEventLoop } from './share-of-event-loop.js';

const MAX_BACKOFF_MS = 30_000;

class ElementTimeout extends Error {}

function isThenable<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** The parts of a run an attempt works with. */
export interface AttemptParts {
  readonly emitter: RunEmitter;
  readonly lifecycle: RunLifecycle;
}

/**
 * Processes one message the node has taken, and emits what the plugin answers; undefined
 * when everything happened synchronously.
 */
export function handleMessage(
  run: AttemptParts,
  task: NodeTask,
  runtime: MessageProcessor,
  message: Message,
): Promise<void> | undefined {
  if (task.node.settings.elementTimeoutMs !== undefined) {
    return handleAttempt(run, task, runtime, message);
  }
  let result: ProcessResult | Promise<ProcessResult>;
  try {
    result = runtime.process(message, task.context);
  } catch (error) {
    return afterFailure(run, task, runtime, message, 1, error);
  }
  if (isThenable(result)) return settle(run, task, runtime, message, 1, result);
  return emitResult(run, task, runtime, message, 1, result);
}

/**
 * Waits for a plugin's work under the node's clocks: the element timeout fails the attempt
 * and the idle timeout ends the node TIMED_OUT. Without either, the work is awaited as is.
 */
export function guardWork<T>(
  run: AttemptParts,
  task: NodeTask,
  work: Promise<T>,
  perMessage: boolean,
  attempt?: AttemptContext,
): Promise<T> {
  const node = task.node;
  const elementMs = perMessage ? node.settings.elementTimeoutMs : undefined;
  const idleMs = node.idleTimeoutMs;
  if (elementMs === undefined && idleMs === undefined) return work;
  // The node's own clock: its timers freeze when the node or the run is paused.
  const clock = task.context.clock;
  return new Promise<T>((resolve, reject) => {
    const timers: TimerHandle[] = [];
    if (elementMs !== undefined) {
      timers.push(
        clock.after(elementMs, () => {
          const timeout = new ElementTimeout(`Message took longer than ${elementMs} ms`);
          attempt?.abort(timeout);
          reject(timeout);
        }),
      );
    }
    if (idleMs !== undefined) {
      timers.push(
        clock.after(idleMs, () => {
          const end = new NodeEnd('TIMED_OUT', `Node was idle for ${idleMs / 1000} s`);
          // The plugin is told to stop too: what it started (a request, a process, a
          // signal wait) ends with the node rather than outliving it.
          run.lifecycle.markEnded(task, end);
          reject(end);
        }),
      );
    }
    work.then(
      (value) => {
        for (const timer of timers) timer.cancel();
        resolve(value);
      },
      (error: unknown) => {
        for (const timer of timers) timer.cancel();
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** `handle` for a node with an element timeout: the attempt has a signal of its own. */
function handleAttempt(
  run: AttemptParts,
  task: NodeTask,
  runtime: MessageProcessor,
  message: Message,
): Promise<void> | undefined {
  let result: ProcessResult | Promise<ProcessResult>;
  const attemptCtx = new AttemptContext(task.context);
  try {
    result = runtime.process(message, attemptCtx);
  } catch (error) {
    attemptCtx.dispose();
    return afterFailure(run, task, runtime, message, 1, error);
  }
  if (isThenable(result)) {
    return settle(run, task, runtime, message, 1, result, attemptCtx);
  }
  return emitResult(run, task, runtime, message, 1, result, attemptCtx);
}

/**
 * With `engine.elementTimeoutMs` each attempt gets a signal of its own, aborted when its
 * time passes, so what the plugin started (a process, a request) stops with the attempt.
 */
function attemptContext(task: NodeTask): NodeContext {
  return task.node.settings.elementTimeoutMs === undefined
    ? task.context
    : new AttemptContext(task.context);
}

async function settle(
  run: AttemptParts,
  task: NodeTask,
  runtime: MessageProcessor,
  message: Message,
  attempt: number,
  result: Promise<ProcessResult>,
  attemptCtx: NodeContext = task.context,
): Promise<void> {
  let emits: ProcessResult;
  const scoped = attemptCtx instanceof AttemptContext ? attemptCtx : undefined;
  task.working = true;
  try {
    emits = await guardWork(run, task, result, true, scoped);
    task.workDone();
  } catch (error) {
    scoped?.dispose();
    await afterFailure(run, task, runtime, message, attempt, error);
    return;
  }
  // Mostly emitted at once, into room in the children's inputs: nothing to wait for then.
  const emitting = emitResult(run, task, runtime, message, attempt, emits, scoped);
  if (emitting !== undefined) await emitting;
}

/**
 * Emits what an attempt answered. An `EmitStream` is pulled under the attempt's context,
 * whose signal and element timeout stay with it until the stream is done.
 */
function emitResult(
  run: AttemptParts,
  task: NodeTask,
  runtime: MessageProcessor,
  message: Message,
  attempt: number,
  result: ProcessResult,
  scoped?: AttemptContext,
): Promise<void> | undefined {
  if (isEmitStream(result)) return emitStream(run, task, runtime, message, attempt, result, scoped);
  scoped?.dispose();
  return run.emitter.emitAll(task, message, result);
}

/**
 * Pulls an `EmitStream` one emit at a time: the next only once the children took the last
 * (their channels' back-pressure), none while the node is held paused, and none once the node
 * ended, so a stop takes effect between two emits. Each wait for the next emit runs under the
 * element and idle timeouts. What the stream throws fails the message as a throw of `process`
 * would: a retry asks for the stream again and emits from its first item under the same ids
 * (delivery is at-least-once), and an error emitted by onError follows what went out.
 */
async function emitStream(
  run: AttemptParts,
  task: NodeTask,
  runtime: MessageProcessor,
  message: Message,
  attempt: number,
  stream: EmitStream,
  scoped: AttemptContext | undefined,
): Promise<void> {
  const iterator: Iterator<Emit> | AsyncIterator<Emit> =
    Symbol.asyncIterator in stream ? stream[Symbol.asyncIterator]() : stream[Symbol.iterator]();
  let index = 0;
  let failure: { readonly error: unknown } | undefined;
  // A stream cannot be closed while it is working on a next emit; it is let go instead.
  let pulling = false;
  try {
    for (;;) {
      const gate = task.gate;
      if (gate !== undefined && !gate.free && !gate.stepping && (gate.paused || gate.runPaused)) {
        const waiting = gate.enter();
        if (waiting !== undefined) await waiting;
      }
      if (task.pendingEnd !== undefined) return;
      let next: IteratorResult<Emit> | Promise<IteratorResult<Emit>>;
      try {
        next = iterator.next();
        if (isThenable(next)) {
          pulling = true;
          task.working = true;
          next = await guardWork(run, task, next, true, scoped);
          task.workDone();
          pulling = false;
        }
      } catch (error) {
        failure = { error };
        break;
      }
      if (next.done === true) return;
      const pending = run.emitter.emitChild(task, message, index++, next.value);
      if (pending !== undefined) await pending;
      const turn = shareOfEventLoop();
      if (turn !== undefined) await turn;
    }
  } finally {
    scoped?.dispose();
    if (pulling) void Promise.resolve(iterator.return?.()).catch(() => undefined);
    else await iterator.return?.();
  }
  task.workDone();
  await afterFailure(run, task, runtime, message, attempt, failure.error, index);
}

/**
 * Retries with backoff while a retry can help, then applies onError. `emitted` messages went
 * out before the failure (part of a stream), so an error message takes the next index.
 */
async function afterFailure(
  run: AttemptParts,
  task: NodeTask,
  runtime: MessageProcessor,
  message: Message,
  attempt: number,
  error: unknown,
  emitted = 0,
): Promise<void> {
  if (error instanceof NodeEnd || task.pendingEnd !== undefined) throw error;
  const retryable = !(error instanceof StepFailure) || error.retryable;
  const settings = task.node.settings;
  const { maxAttempts, backoffMs } = settings.retry;
  const state = task.state;
  const ctx = task.context;
  const retrying = retryable && attempt < maxAttempts;
  logPluginFailure(task, error, { messageId: message.id, attempt, retryable, retrying });
  if (settings.onError === 'DEAD_LETTER') noteFailure(task, message.id, attempt, error);
  if (retrying) {
    // The backoff and the next attempt are work under way, like the call that failed.
    task.working = true;
    state.retries++;
    const delay = Math.min(MAX_BACKOFF_MS, backoffMs * 2 ** (attempt - 1));
    if (delay > 0) await ctx.clock.sleep(delay, ctx.signal);
    const next: Message = {
      id: message.id,
      payload: message.payload,
      headers: { ...message.headers, attempt: attempt + 1 },
    };
    let result: ProcessResult | Promise<ProcessResult>;
    const attemptCtx = attemptContext(task);
    try {
      result = runtime.process(next, attemptCtx);
    } catch (retryError) {
      if (attemptCtx instanceof AttemptContext) attemptCtx.dispose();
      await afterFailure(run, task, runtime, message, attempt + 1, retryError);
      return;
    }
    await settle(run, task, runtime, message, attempt + 1, Promise.resolve(result), attemptCtx);
    return;
  }
  task.workDone();
  const reason = messageOf(error);
  switch (settings.onError) {
    case 'SKIP':
      state.skipped++;
      fail(message, { nodeId: task.node.nodeId, error: reason });
      ctx.log.warn('Message skipped after failure', { messageId: message.id, error: reason });
      return;
    case 'ERROR_PORT':
      await run.emitter.emitAll(
        task,
        message,
        { port: 'error', payload: { error: reason, message } },
        emitted,
      );
      return;
    case 'DEAD_LETTER': {
      const attempts = task.failures?.get(message.id) ?? [];
      task.failures?.delete(message.id);
      run.emitter.deadLetter(task, message, reason, attempts);
      return;
    }
    case 'FAIL':
      throw new NodeEnd('FAILURE', reason);
  }
}

/** Keeps a failed attempt of a message for its dead letter. */
function noteFailure(task: NodeTask, messageId: string, attempt: number, error: unknown): void {
  const failures = (task.failures ??= new Map<string, FailedAttempt[]>());
  const attempts = failures.get(messageId) ?? [];
  attempts.push({ attempt, error: messageOf(error) });
  failures.set(messageId, attempts);
}

/**
 * Every failure of a plugin is a WARN line of its node, which the run's sink also writes to
 * the server's log with the execution and node ids: a failure that a retry or `onError`
 * absorbs must still leave a trace an operator can find.
 */
export function logPluginFailure(
  task: NodeTask,
  error: unknown,
  fields: Readonly<Record<string, unknown>>,
): void {
  task.context.log.warn(`Plugin ${task.node.type} failed: ${messageOf(error)}`, {
    ...fields,
    error: messageOf(error),
  });
}
