// The task of one node (ARCHITECTURE "One runner per node wraps every plugin"): it replays
// recorded output, or runs the plugin: a per-message loop or a whole stream, each message
// through the node's gate first. At the end it decides the node's outcome, saves its end
// marker and hands it to the lifecycle.
import { messageOf } from '../../core/index.js';
import { isStreamNode } from '../../plugin-api/index.js';
import type {
  Emit,
  Message,
  MessageHeaders,
  MessageProcessor,
  StreamNode,
} from '../../plugin-api/index.js';
import type { RecordedMessage } from '../checkpoints.js';
import { END } from '../streams/channel.js';
import { guardWork, handleMessage, logPluginFailure } from './attempts.js';
import type { AttemptParts } from './attempts.js';
import { InFlight } from './in-flight.js';
import { sourceMessageId } from './message-ids.js';
import type { NodeGate } from './node-gate.js';
import { createNodeRuntime } from './node-runtime.js';
import { COMPLETED_END, NodeEnd, SKIPPED_END } from './node-state.js';
import type { NodeTask } from './node-task.js';
import type { TimerHandle } from './run-clock.js';
import type { RunEmitter } from './run-emitter.js';
import type { RunLifecycle } from './run-lifecycle.js';
import type { RunOptions } from './run-ports.js';
import { tracedRuntime } from './run-tracing.js';
import { HeldDeliveries, release, releaseAfter } from './settlements.js';
import type { RunSettlements } from './settlements.js';
import { shareOfEventLoop } from './share-of-event-loop.js';

/** JSON.stringify as it really is: undefined for undefined, functions and symbols. */
const toJson = JSON.stringify as (value: unknown) => string | undefined;
/** SPEC "Log line losses": the output of a node without live logs is logged cut to this. */
const MAX_LOGGED_OUTPUT = 2048;
const FIRST_ATTEMPT: MessageHeaders = Object.freeze({ attempt: 1 });

/** What a node's task works with: the parts of its run, shared by every node of it. */
export interface RunParts extends AttemptParts {
  readonly options: RunOptions;
  /** `options.lineage`, hashed when it has characters a message id must not have. */
  readonly lineage: string;
  readonly emitter: RunEmitter;
  readonly lifecycle: RunLifecycle;
  /** The trackers of triggers' messages with a settlement (docs/brokers.md). */
  readonly settlements: RunSettlements;
  /** The engine logs at TRACE: every message a node takes is logged. */
  readonly trace: boolean;
  /** The engine logs at DEBUG: a node that wrote no live logs has its output logged. */
  readonly debug: boolean;
}

/** Runs one node to its end; never rejects. */
export async function runNode(run: RunParts, task: NodeTask): Promise<void> {
  // Left out of a replay: it neither runs nor replays.
  if (task.finished) return;
  const node = task.node;
  let outcome: NodeEnd;
  let deadline: TimerHandle | undefined;
  const recorded = run.options.replay?.outputs.get(node.nodeId);
  try {
    if (recorded !== undefined) {
      await replay(run, task, recorded);
      outcome = task.pendingEnd ?? COMPLETED_END;
      const marking = run.emitter.markEnd(task, outcome);
      if (marking !== undefined) await marking;
      run.lifecycle.finish(task, outcome);
      return;
    }
    // No new local: every local is kept in each parked node's suspended frame.
    const runtime = tracedRuntime(
      createNodeRuntime(node, run.options),
      task,
      run.options.services.tracing?.(run.options.executionId),
    );
    deadline = armDeadline(run, task);
    if (node.kind === 'trigger') task.markStarted(run.options.clock.now(), run.options.events);
    if (isStreamNode(runtime)) {
      await runStream(run, task, runtime);
    } else {
      // The message loop is inline, not a call: one async frame per node instead of two
      // matters when thousands of runs are parked.
      const input = task.input;
      const inFlight = concurrentWork(run, task, runtime);
      try {
        for (;;) {
          if (input === undefined) break;
          let next = input.receive();
          if (next instanceof Promise) next = await next;
          if (next === END || task.pendingEnd !== undefined) break;
          let pending: Promise<void> | undefined;
          const gate = task.gate;
          if (gate === undefined || gate.free) {
            accept(run, task, next);
            pending = handleMessage(run, task, runtime, next);
          } else {
            let going = atGate(task);
            if (going !== true && going !== false) going = await going;
            // Ended while held: the message is dropped like everything else in its input.
            if (!going) break;
            pending = pastGate(run, task, gate, runtime, next);
          }
          if (run.settlements.tracking) pending = releaseAfter(next, pending, node.nodeId);
          if (pending === undefined) continue;
          if (inFlight === undefined) await pending;
          else await inFlight.add(pending);
        }
        // Awaiting nothing still costs a promise and a turn: most nodes have neither.
        if (inFlight !== undefined) await inFlight.drain();
      } finally {
        if (runtime.close !== undefined) await runtime.close();
      }
    }
    outcome = task.pendingEnd ?? completion(task);
  } catch (error) {
    // A plugin that could not be made or closed failed outside any message.
    if (!(error instanceof NodeEnd) && task.pendingEnd === undefined) {
      logPluginFailure(task, error, {});
    }
    outcome =
      task.pendingEnd ??
      (error instanceof NodeEnd ? error : new NodeEnd('FAILURE', messageOf(error)));
  } finally {
    deadline?.cancel();
  }
  if (run.debug && outcome.status === 'COMPLETED') logOutput(run, task);
  const marking = run.emitter.markEnd(task, outcome);
  if (marking !== undefined) await marking;
  run.lifecycle.finish(task, outcome);
}

/**
 * The messages a plugin works on at once, when it allows more than one: the first failure
 * among them ends the node at once, which ends the others' waits too; a plugin that ignores
 * its signal cannot hold the node.
 */
function concurrentWork(
  run: RunParts,
  task: NodeTask,
  runtime: MessageProcessor,
): InFlight | undefined {
  const limit = runtime.concurrency ?? 1;
  if (limit <= 1) return undefined;
  return new InFlight(limit, (error) => {
    run.lifecycle.endFromOutside(
      task,
      error instanceof NodeEnd ? error : new NodeEnd('FAILURE', messageOf(error)),
    );
  });
}

/**
 * SPEC `engine.deadlineMs`: the node ends TIMED_OUT once its (pausable) time has passed. Apart
 * from `runNode` so that the closure does not give every parked node task a context of its own.
 */
function armDeadline(run: RunParts, task: NodeTask): TimerHandle | undefined {
  const ms = task.node.settings.deadlineMs;
  if (ms === undefined) return undefined;
  return task.context.clock.after(ms, () => {
    run.lifecycle.endFromOutside(
      task,
      new NodeEnd('TIMED_OUT', `Node deadline of ${ms} ms passed`),
    );
  });
}

/**
 * The one control step before a node takes a message (or a source asks for one): the fast
 * path reads one flag; otherwise the node waits while its gate holds it. Answers whether the
 * node may go on, which it may not once it has ended meanwhile.
 */
function atGate(task: NodeTask): Promise<boolean> | boolean {
  const gate = task.gate;
  if (gate === undefined || gate.free) return task.pendingEnd === undefined;
  const waiting = gate.enter();
  if (waiting === undefined) return task.pendingEnd === undefined;
  return waiting.then(() => task.pendingEnd === undefined);
}

/** Counts a message the node takes in; a terminal's is a result. */
function accept(run: RunParts, task: NodeTask, message: Message): void {
  const options = run.options;
  const state = task.state;
  if (state.startedAt === null) task.markStarted(options.clock.now(), options.events);
  state.messagesIn++;
  const node = task.node;
  if (run.trace) {
    options.services.logger.trace(
      {
        executionId: options.executionId,
        nodeId: node.nodeId,
        messageId: message.id,
        payload: message.payload,
      },
      'message in',
    );
  }
  if (node.kind === 'terminal') options.events.result(node.nodeId, message);
}

/**
 * A message past a gate that was closed, skipping or in a step: passed on unchanged (skipped)
 * or handed to the plugin; a step closes once the message has been dealt with.
 */
function pastGate(
  run: RunParts,
  task: NodeTask,
  gate: NodeGate,
  runtime: MessageProcessor,
  message: Message,
): Promise<void> | undefined {
  accept(run, task, message);
  const pending = gate.skipped
    ? run.emitter.passThrough(task, message)
    : handleMessage(run, task, runtime, message);
  if (!gate.stepping) return pending;
  if (pending === undefined) {
    gate.endStep();
    return undefined;
  }
  return pending.finally(() => {
    gate.endStep();
  });
}

/** How a node whose input ended and whose work is done ends, under its trigger rule. */
function completion(task: NodeTask): NodeEnd {
  const node = task.node;
  if (
    node.settings.trigger === 'ONE_SUCCESS' &&
    node.parents.length > 0 &&
    task.parentsSucceeded === 0
  ) {
    return new NodeEnd('UPSTREAM_FAILED', 'No parent completed');
  }
  // The final status is decided here, when the node really ends: one skipped at its end
  // ends SKIPPED, which its children count as success.
  if (task.gate?.skipped === true) return SKIPPED_END;
  return COMPLETED_END;
}

/**
 * A replayed node emits its recorded output again, with the same ids and ports, under the
 * same gate as a source: a paused or stepped run holds it like any node.
 */
async function replay(
  run: RunParts,
  task: NodeTask,
  recorded: readonly RecordedMessage[],
): Promise<void> {
  task.markStarted(run.options.clock.now(), run.options.events);
  for (const message of recorded) {
    let going = atGate(task);
    if (going !== true && going !== false) going = await going;
    if (!going) return;
    const pending = run.emitter.emit(task, message.id, message.headers, {
      port: message.port,
      payload: message.payload,
    });
    if (pending !== undefined) await pending;
    const turn = shareOfEventLoop();
    if (turn !== undefined) await turn;
  }
  task.gate?.endStep();
}

async function runStream(run: RunParts, task: NodeTask, runtime: StreamNode): Promise<void> {
  const node = task.node;
  // What the node took since its last emit: that emit descends from it (docs/brokers.md).
  const held = task.input === undefined ? undefined : new HeldDeliveries();
  const output = runtime.run(inputStream(run, task, held), task.context);
  const iterator =
    Symbol.asyncIterator in output ? output[Symbol.asyncIterator]() : output[Symbol.iterator]();
  // A source's gate stands before each emit it is asked for; a node with input has its
  // gate on the input (`inputStream`), so what it emits for a taken message flows on.
  const source = task.input === undefined;
  let index = 0;
  let finished = false;
  try {
    for (;;) {
      if (source) {
        // The step, if any, covered the emit just made.
        let going = atGate(task);
        if (going !== true && going !== false) going = await going;
        if (!going) return;
      }
      let next = iterator.next();
      if (next instanceof Promise) {
        // A source producing its next message works under its own clock; a node with input
        // may only be waiting for input, which a step cannot hurry.
        task.working = source;
        next = await guardWork(run, task, next, false);
        if (source) task.workDone();
      }
      if (next.done === true || task.pendingEnd !== undefined) {
        finished = next.done === true && task.pendingEnd === undefined;
        return;
      }
      const pending = emitFromStream(run, task, next.value, index++, held);
      if (pending !== undefined) await pending;
      // A stream that never has to wait would hold the event loop for the whole run.
      const turn = shareOfEventLoop();
      if (turn !== undefined) await turn;
    }
  } catch (error) {
    if (error instanceof NodeEnd || task.pendingEnd !== undefined) throw error;
    const reason = messageOf(error);
    held?.releaseAll({ nodeId: node.nodeId, error: reason });
    logPluginFailure(task, error, { messagesOut: task.state.messagesOut });
    if (node.settings.onError === 'FAIL') throw new NodeEnd('FAILURE', reason);
    if (node.settings.onError === 'ERROR_PORT') {
      const id = sourceMessageId(run.lineage, node.key, index);
      await run.emitter.emit(task, id, FIRST_ATTEMPT, {
        port: 'error',
        payload: { error: reason },
      });
    }
  } finally {
    await iterator.return?.();
    // What the node took and never emitted anything for was filtered out; a node ended from
    // outside leaves it to the run's end.
    if (finished) held?.releaseAll();
  }
}

/**
 * One emit of a whole-stream node: a trigger's with a settlement is tracked under its keyed
 * id; another descends from what the node took since its last emit.
 */
function emitFromStream(
  run: RunParts,
  task: NodeTask,
  emit: Emit,
  index: number,
  held: HeldDeliveries | undefined,
): Promise<void> | undefined {
  const node = task.node;
  const settlement = held === undefined ? emit.settlement : undefined;
  if (settlement !== undefined) {
    const tracker = run.settlements.track(settlement, node.nodeId);
    const id = run.settlements.keyedId(node.key, settlement.key);
    const pending = run.emitter.emit(task, id, FIRST_ATTEMPT, emit, undefined, [tracker]);
    if (pending === undefined) {
      tracker.release();
      return undefined;
    }
    return pending.then(() => {
      tracker.release();
    });
  }
  const id = sourceMessageId(run.lineage, node.key, index);
  const trackers = held?.trackers();
  const pending = run.emitter.emit(task, id, FIRST_ATTEMPT, emit, undefined, trackers);
  if (trackers === undefined) return pending;
  if (pending === undefined) {
    held?.releaseAll();
    return undefined;
  }
  return pending.then(() => {
    held?.releaseAll();
  });
}

/** The input of a whole-stream plugin, each message through the node's gate. */
async function* inputStream(
  run: RunParts,
  task: NodeTask,
  held: HeldDeliveries | undefined,
): AsyncGenerator<Message> {
  const input = task.input;
  if (input === undefined) return;
  for (;;) {
    let next = input.receive();
    if (next instanceof Promise) next = await next;
    if (next === END || task.pendingEnd !== undefined) return;
    const gate = task.gate;
    if (gate === undefined || gate.free) {
      accept(run, task, next);
      held?.take(next);
      yield next;
      continue;
    }
    let going = atGate(task);
    if (going !== true && going !== false) going = await going;
    if (!going) return;
    accept(run, task, next);
    if (gate.skipped) {
      const pending = run.emitter.passThrough(task, next);
      if (pending !== undefined) await pending;
      release(next);
    } else {
      held?.take(next);
      yield next;
    }
    // The plugin asks for more: it has dealt with the stepped message.
    gate.endStep();
  }
}

/**
 * The first `length` characters of `text` as a string of their own. A plain slice may share
 * the whole text, and a kept log line would then hold a large payload's encoding for the log
 * retention period.
 */
function detachedPrefix(text: string, length: number): string {
  return Buffer.from(text.slice(0, length), 'utf16le').toString('utf16le');
}

/** SPEC "Log line losses": a node that wrote no live logs has its output logged, cut. */
function logOutput(run: RunParts, task: NodeTask): void {
  const context = task.context;
  const state = task.state;
  if (context.logged || state.messagesOut === 0) return;
  const last = context.lastOutput;
  let output: string;
  try {
    // A long string is cut before it is encoded: encoding all of it only to keep the start
    // would copy the whole payload.
    output =
      (typeof last === 'string' && last.length > MAX_LOGGED_OUTPUT
        ? toJson(last.slice(0, MAX_LOGGED_OUTPUT + 1))
        : toJson(last)) ?? 'undefined';
  } catch {
    output = String(last);
  }
  const cut = output.length > MAX_LOGGED_OUTPUT;
  run.options.events.log({
    nodeId: task.node.nodeId,
    level: 'DEBUG',
    message: cut ? detachedPrefix(output, MAX_LOGGED_OUTPUT) : output,
    fields: { output: 'last', messagesOut: state.messagesOut, cut },
  });
}
