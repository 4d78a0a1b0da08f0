// How a node's output leaves it (ARCHITECTURE "One runner per node", steps 3 and 4): every
// emitted message is recorded with the checkpoint writer, then written to the child channels
// on its port at the pace of the slowest child; and a completed node's end marker is saved.
import type { Emit, Message, MessageHeaders } from '../../plugin-api/index.js';
import type { CheckpointWriter, EncodedPayload, RecordingMessage } from '../checkpoints.js';
import { childMessageId } from './message-ids.js';
import type { NodeEnd } from './node-state.js';
import type { NodeTask } from './node-task.js';
import type { RunEventSink } from './run-ports.js';
import { shareOfEventLoop } from './share-of-event-loop.js';

/**
 * Where a message the engine sends on keeps what the checkpoint store made of its payload. A
 * symbol: plugins get the message object itself and neither see the key nor write it out.
 */
const ENCODED: unique symbol = Symbol('encoded payload');

/** A message as the engine sends it between nodes. */
interface SentMessage extends Message {
  [ENCODED]: EncodedPayload;
}

/** One per run: the run's tasks by plan index, and the checkpoint writer while it records. */
export class RunEmitter {
  readonly #tasks: readonly NodeTask[];
  readonly #events: RunEventSink;
  /** The engine logs at DEBUG: each node's last output is kept for its completion log. */
  readonly #debug: boolean;
  #checkpoints: CheckpointWriter | undefined;

  constructor(tasks: readonly NodeTask[], events: RunEventSink, debug: boolean) {
    this.#tasks = tasks;
    this.#events = events;
    this.#debug = debug;
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
    return this.emit(
      task,
      childMessageId(input.id, task.node.key, index),
      input.headers,
      emit,
      input,
    );
  }

  /** A skipped node's output: the message unchanged on port `out`, with a derived id. */
  passThrough(task: NodeTask, message: Message): Promise<void> | undefined {
    return this.emit(
      task,
      childMessageId(message.id, task.node.key, 0),
      message.headers,
      { payload: message.payload },
      message,
    );
  }

  /**
   * Sends one message to every child on its port, at the pace of the slowest child. `input` is
   * the message the node was handling, whose payload it may be passing on.
   */
  emit(
    task: NodeTask,
    id: string,
    inherited: MessageHeaders,
    emit: Emit,
    input?: Message,
  ): Promise<void> | undefined {
    if (task.pendingEnd !== undefined) return undefined;
    task.state.messagesOut++;
    const headers =
      emit.headers === undefined
        ? inherited.attempt === 1
          ? inherited
          : { ...inherited, attempt: 1 }
        : { ...inherited, ...emit.headers, attempt: 1 };
    const message: SentMessage = { id, payload: emit.payload, headers, [ENCODED]: undefined };
    if (this.#debug) task.context.lastOutput = emit.payload;
    const node = task.node;
    const port = emit.port ?? 'out';
    const targets = node.routes.get(port) ?? node.anyPort;
    const checkpoints = this.#checkpoints;
    if (checkpoints !== undefined) {
      const recording: RecordingMessage = { id, port, payload: emit.payload, headers };
      // A payload passed on unchanged is not encoded again (EncodedPayload).
      if (input !== undefined && input.payload === emit.payload) {
        recording.encoded = (input as Partial<SentMessage>)[ENCODED];
      }
      const recorded = (task.recorder ??= checkpoints.node(node.nodeId)).record(recording);
      message[ENCODED] = recording.encoded;
      // The store holds too much unwritten: the node waits for it as for a full edge.
      if (recorded !== undefined) {
        const sent = this.#send(targets, message);
        return sent === undefined ? recorded : Promise.all([recorded, sent]).then(() => undefined);
      }
    }
    return this.#send(targets, message);
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

  #send(targets: readonly number[], message: Message): Promise<void> | undefined {
    const tasks = this.#tasks;
    if (targets.length === 1) return tasks[targets[0] ?? -1]?.input?.send(message);
    let waiting: Promise<void>[] | undefined;
    for (const target of targets) {
      const pending = tasks[target]?.input?.send(message);
      if (pending !== undefined) (waiting ??= []).push(pending);
    }
    return waiting === undefined ? undefined : Promise.all(waiting).then(() => undefined);
  }
}
