// The checkpoint port (SPEC "Checkpoint"): every message a node emits is recorded in order,
// and a node that completes gets an end marker that is durable before its children see the
// completion. Restart, retry and recover replay what these stores hold.
import type { MessageHeaders } from '../plugin-api/index.js';

/** One message a node emitted, as recorded and as a replay emits it again. */
export interface RecordedMessage {
  /** A derived message id: plain, letters, digits, `.`, `-` and `_` only (message-ids.ts). */
  readonly id: string;
  /** The output port it left on. */
  readonly port: string;
  readonly payload: unknown;
  readonly headers: MessageHeaders;
}

/**
 * What a store made of a payload it recorded, opaque to the engine (the file store's JSON
 * text). The engine keeps it with the message it sends on, and hands it back when the next
 * node emits that same payload object on (a filter, a branch, a delay, a terminal), so a
 * payload passed along a chain is encoded once. Payloads are read-only once emitted (plugin
 * API), so what was made of one still holds.
 */
export type EncodedPayload = unknown;

/** A message handed to `NodeRecorder.record`: made by the engine for that call alone. */
export interface RecordingMessage extends RecordedMessage {
  /**
   * In: what this run's store made of this very payload object when an earlier node recorded
   * it, if anything; the store may reuse it instead of encoding the payload again. Out: the
   * store may set it to what it made of the payload, for the engine to pass on.
   */
  encoded?: EncodedPayload;
  /**
   * About the JSON length of the payload, as the engine measured it (payload-size.ts); a
   * store that holds payloads in memory counts its budget by it without measuring again.
   */
  size?: number;
}

/** An answered approval (SPEC Events 9): a resumed run reuses it for the same message. */
export interface RecordedApproval {
  readonly nodeId: string;
  readonly messageId: string;
  readonly approved: boolean;
  readonly payload?: unknown;
  readonly comment?: string | null;
}

/** Records one node of one execution. Made once per node when the node first emits or ends. */
export interface NodeRecorder {
  /**
   * Appends one emitted message; never throws. Answers a promise when the store holds more
   * than it wants to before writing: the node waits for it, as for a full edge.
   */
  record(message: RecordingMessage): Promise<void> | undefined;
  /**
   * The node completed: writes its end marker. Answers undefined when the marker is durable
   * at once, else a promise that resolves once it is; rejects when the marker or a message
   * before it could not be saved (the node then stays unmarked).
   */
  end(): Promise<void> | undefined;
}

/** Records one execution. */
export interface CheckpointWriter {
  node(nodeId: string): NodeRecorder;
  /** Records an answered approval; resolves once it is durable. */
  approval(answer: RecordedApproval): Promise<void> | undefined;
  /** Writes what is buffered; the writer takes nothing afterwards. */
  close(): Promise<void>;
}

/** What `GET /api/executions/{id}/checkpoints` shows of one node. */
export interface NodeCheckpointSummary {
  readonly nodeId: string;
  /** Messages recorded (all of them, also those over a cap that are not held). */
  readonly messages: number;
  /** Bytes of output held, as the store counts them. */
  readonly bytes: number;
  /** The end marker exists and the whole output is held: a replay can use it. */
  readonly complete: boolean;
  /** Output went over a cap of the store and is not all held. */
  readonly truncated: boolean;
}

export const CHECKPOINT_STORE_KINDS = ['memory', 'spill', 'file', 'postgres'] as const;

export type CheckpointStoreKind = (typeof CHECKPOINT_STORE_KINDS)[number];

export interface CheckpointStore {
  readonly kind: CheckpointStoreKind;
  /** Whether checkpoints survive a restart of the server (recover needs it). */
  readonly durable: boolean;
  /** Bytes of node output held (`svc.checkpoint.bytes`). */
  readonly bytes: number;
  /** Loads what a durable store holds and removes leftovers of a crash. */
  open(): Promise<void>;
  /** Writes everything buffered and releases files. */
  close(): Promise<void>;
  /** Starts recording an execution; one writer per execution. */
  writer(executionId: string): CheckpointWriter;
  /** Per node in the order nodes were first recorded; undefined when nothing is held. */
  summary(executionId: string): Promise<readonly NodeCheckpointSummary[] | undefined>;
  /** A node's recorded output, in order; undefined unless its checkpoint is complete. */
  output(executionId: string, nodeId: string): Promise<readonly RecordedMessage[] | undefined>;
  /** Approvals answered in the execution, in the order they were recorded. */
  approvals(executionId: string): Promise<readonly RecordedApproval[]>;
  /** Forgets an execution's checkpoints. */
  drop(executionId: string): Promise<void>;
  /** Executions whose checkpoints are held. */
  executions(): Promise<readonly string[]>;
}
