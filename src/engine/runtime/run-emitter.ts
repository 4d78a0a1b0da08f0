// How a node's output leaves it (ARCHITECTURE "One runner per node", steps 3 and 4): every
// emitted message is recorded with the checkpoint writer, then written to the child channels
// on its port at the pace of the slowest child; and a completed node's end marker is saved.
// A payload over the server's largest (`svc.limits.max-payload`) fails its message instead.
import type { Emit, Message, MessageHeaders } from '../../plugin-api/index.js';
import type { CheckpointWriter, EncodedPayload, RecordingMessage } from '../checkpoints.js';
import { childMessageId, suffixedId } from './message-ids.js';
import { payloadBytes } from './payload-size.js';
import { NodeEnd } from './node-state.js';
import type { NodeTask } from './node-task.js';
import type { FailedAttempt, RunEventSink } from './run-ports.js';
import { shareOfEventLoop } from './share-of-event-loop.js';
import { carry, fail, trackersOf } from './settlements.js';
import type { SettlementTracker } from './settlements.js';

/**
 * Where a message the engine sends on keeps the payload's measured size and what the
 * checkpoint store made of its payload, if anything. A symbol: plugins get the message object
 * itself and neither see the key nor write it out. One slot for both, holding the bare size
 * when the store made nothing (the memory store, no store): a second symbol-keyed member on
 * every message costs more than the rare object.
 */
const CARRIED: unique symbol = Symbol('measured and encoded payload');

/** The size and what the store made of the payload, when it made something. */
interface Encoded {
  readonly size: number;
  readonly encoded: EncodedPayload;
}

/** A bound no payload reaches that keeps sums of sizes finite (a cyclic one counts just over). */
const UNLIMITED = 2 ** 40;

/** A message as the engine sends it between nodes. */
interface SentMessage extends Message {
  [CARRIED]: number | Encoded;
}

function carriedOf(message: Message): number | Encoded | undefined {
  return (message as Partial<SentMessage>)[CARRIED];
}

/**
 * About the JSON length of a message's payload (payload-size.ts): what the engine measured
 * when the message was emitted, else measured now. Memory budgets count held payloads by it.
 */
export function messagePayloadBytes(message: Message): number {
  const carried = carriedOf(message);
  if (carried === undefined) return payloadBytes(message.payload, UNLIMITED);
  return typeof carried === 'number' ? carried : carried.size;
}

/** One per run: the run's tasks by plan index, and the checkpoint writer while it records. */
export class RunEmitter {
  readonly #tasks: readonly NodeTask[];
  readonly #events: RunEventSink;
  /** The engine logs at DEBUG: each node's last output is kept for its completion log. */
  readonly #debug: boolean;
  /** `svc.limits.max-payload`: a larger emitted payload fails its message. */
  readonly #maxPayload: number;
  #checkpoints: CheckpointWriter | undefined;

  constructor(
    tasks: readonly NodeTask[],
    events: RunEventSink,
    debug: boolean,
    maxPayload: number,
  ) {
    this.#tasks = tasks;
    this.#events = events;
    this.#debug = debug;
    this.#maxPayload = maxPayload;
  }

  /** Records every emitted message and end marker with `writer` (SPEC Checkpoint). */
  recordTo(writer: CheckpointWriter | undefined): void {
    this.#checkpoints = writer;
    // Without a writer nothing records: the recorders made so far are let go.
    if (writer === undefined) for (const task of this.#tasks) task.recorder = undefined;
  }

  /**
   * SPEC Checkpoint: a node that completed gets its end marker, durable before its children
   * see the completion. A marker that cannot be saved is reported and the run goes on; the
   * node stays unmarked, so a resume runs it again.
   */
  markEnd(task: NodeTask, outcome: NodeEnd): Promise<void> | undefined {
    const checkpoints = this.#checkpoints;
    if (checkpoints === undefined) return undefined;
    if (outcome.status !== 'COMPLETED' && outcome.status !== 'SKIPPED') return undefined;
    if (task.pendingEnd !== undefined) return undefined;
    const failed = (error: unknown): void => {
      this.#events.checkpointFailed?.(task.node.nodeId, error);
    };
    try {
      return (task.recorder ??= checkpoints.node(task.node.nodeId)).end()?.then(undefined, failed);
    } catch (error) {
      failed(error);
      return undefined;
    }
  }

  /**
   * What a per-message plugin answered for `input`, each emit with its derived id. `first` is
   * the index of the first emit: an error emitted after part of a stream follows what went out.
   */
  emitAll(
    task: NodeTask,
    input: Message,
    result: Emit | readonly Emit[] | undefined,
    first = 0,
  ): Promise<void> | undefined {
    if (result === undefined) return undefined;
    if (!Array.isArray(result)) return this.emitChild(task, input, first, result as Emit);
    const emits = result as readonly Emit[];
    for (let index = 0; index < emits.length; index++) {
      const emit = emits[index];
      if (emit === undefined) continue;
      const pending = this.emitChild(task, input, index, emit);
      if (pending !== undefined) {
        return pending.then(() => this.#emitRest(task, input, emits, index + 1));
      }
    }
    return undefined;
  }

  /** The `index`-th emit a node made for `input`, with the id derived from both. */
  emitChild(task: NodeTask, input: Message, index: number, emit: Emit): Promise<void> | undefined {
    const node = task.node;
    const id =
      index === 0 ? suffixedId(input.id, node.idSuffix) : childMessageId(input.id, node.key, index);
    return this.emit(task, id, input.headers, emit, input);
  }

  /** A skipped node's output: the message unchanged on port `out`, with a derived id. */
  passThrough(task: NodeTask, message: Message): Promise<void> | undefined {
    return this.emit(
      task,
      suffixedId(message.id, task.node.idSuffix),
      message.headers,
      { payload: message.payload },
      message,
    );
  }

  /**
   * Sends one message to every child on its port, at the pace of the slowest child. `input` is
   * the message the node was handling, whose payload it may be passing on; the message
   * descends from `trackers`' trigger messages, by default from those of `input`.
   */
  emit(
    task: NodeTask,
    id: string,
    inherited: MessageHeaders,
    emit: Emit,
    input?: Message,
    trackers?: readonly SettlementTracker[],
  ): Promise<void> | undefined {
    if (task.pendingEnd !== undefined) return undefined;
    // A payload passed on unchanged is neither measured nor encoded again (EncodedPayload).
    const carried =
      input !== undefined && input.payload === emit.payload ? carriedOf(input) : undefined;
    const size =
      carried === undefined
        ? payloadBytes(emit.payload, this.#maxPayload)
        : typeof carried === 'number'
          ? carried
          : carried.size;
    if (size > this.#maxPayload) {
      return this.#tooLarge(task, id, inherited, size, input, trackers);
    }
    task.state.messagesOut++;
    const headers =
      emit.headers === undefined
        ? inherited.attempt === 1
          ? inherited
          : { ...inherited, attempt: 1 }
        : { ...inherited, ...emit.headers, attempt: 1 };
    const message: SentMessage = { id, payload: emit.payload, headers, [CARRIED]: size };
    if (this.#debug) task.context.lastOutput = emit.payload;
    const node = task.node;
    const port = emit.port ?? 'out';
    const targets = port === 'out' ? node.outTargets : (node.routes.get(port) ?? node.anyPort);
    const tracked = trackers ?? (input === undefined ? undefined : trackersOf(input));
    if (tracked !== undefined) carry(message, tracked, targets.length);
    const checkpoints = this.#checkpoints;
    if (checkpoints !== undefined) {
      const recording: RecordingMessage = { id, port, payload: emit.payload, headers, size };
      if (carried !== undefined && typeof carried !== 'number') recording.encoded = carried.encoded;
      const recorded = (task.recorder ??= checkpoints.node(node.nodeId)).record(recording);
      const encoded = recording.encoded;
      if (encoded !== undefined) message[CARRIED] = { size, encoded };
      // The store holds too much unwritten: the node waits for it as for a full edge.
      if (recorded !== undefined) {
        const sent = this.#send(node.index, targets, message);
        return sent === undefined ? recorded : Promise.all([recorded, sent]).then(() => undefined);
      }
    }
    return this.#send(node.index, targets, message);
  }

  /**
   * An emitted payload over `svc.limits.max-payload` fails its message the way a plugin
   * failure that no retry can help does: the node's onError decides (CONTRACT section 2). The
   * payload goes nowhere, so it is let go at once instead of being held by edges and stores.
   */
  #tooLarge(
    task: NodeTask,
    id: string,
    inherited: MessageHeaders,
    tooLarge: number,
    input: Message | undefined,
    trackers: readonly SettlementTracker[] | undefined,
  ): Promise<void> | undefined {
    const reason =
      `Payload of at least ${tooLarge} bytes is larger than svc.limits.max-payload ` +
      `(${this.#maxPayload} bytes)`;
    const failTrackers = (): void => {
      const failure = { nodeId: task.node.nodeId, error: reason };
      if (input !== undefined) fail(input, failure);
      for (const tracker of trackers ?? []) tracker.settle('failed', failure);
    };
    switch (task.node.settings.onError) {
      case 'SKIP':
        task.state.skipped++;
        failTrackers();
        task.context.log.warn('Message skipped after failure', { messageId: id, error: reason });
        return undefined;
      case 'ERROR_PORT': {
        // The input passed the limit; should the error with it not, the error goes alone.
        const payload = input === undefined ? { error: reason } : { error: reason, message: input };
        return this.emit(task, id, inherited, { port: 'error', payload }, input, trackers);
      }
      case 'DEAD_LETTER':
        if (input === undefined) {
          failTrackers();
          task.state.skipped++;
          task.context.log.warn('Message skipped after failure', { messageId: id, error: reason });
        } else {
          this.deadLetter(task, input, reason, [{ attempt: 1, error: reason }]);
        }
        return undefined;
      case 'FAIL':
        failTrackers();
        throw new NodeEnd('FAILURE', reason);
    }
  }

  /**
   * `onError: DEAD_LETTER`: the message is handed to the run's host to keep, counted with the
   * skipped ones (it went nowhere downstream), and the node goes on with its next message.
   */
  deadLetter(
    task: NodeTask,
    message: Message,
    error: string,
    attempts: readonly FailedAttempt[],
  ): void {
    task.state.skipped++;
    fail(message, { nodeId: task.node.nodeId, error });
    task.context.log.warn('Message dead-lettered after failure', {
      messageId: message.id,
      error,
    });
    const { nodeId, type } = task.node;
    this.#events.deadLettered?.({ nodeId, nodeType: type, message, error, attempts });
  }

  async #emitRest(
    task: NodeTask,
    input: Message,
    emits: readonly Emit[],
    from: number,
  ): Promise<void> {
    for (let index = from; index < emits.length; index++) {
      const emit = emits[index];
      if (emit !== undefined) await this.emitChild(task, input, index, emit);
      // A long array is a generating loop of its own: it gives the event loop its turns.
      const turn = shareOfEventLoop();
      if (turn !== undefined) await turn;
    }
  }

  /** `source`: the sending node's plan index, which the children's inputs count by. */
  #send(source: number, targets: readonly number[], message: Message): Promise<void> | undefined {
    const tasks = this.#tasks;
    if (targets.length === 1) return tasks[targets[0] ?? -1]?.input?.send(message, source);
    let waiting: Promise<void>[] | undefined;
    for (const target of targets) {
      const pending = tasks[target]?.input?.send(message, source);
      if (pending !== undefined) (waiting ??= []).push(pending);
    }
    return waiting === undefined ? undefined : Promise.all(waiting).then(() => undefined);
  }
}
