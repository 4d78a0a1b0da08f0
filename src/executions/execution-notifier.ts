// Sends the events of executions to the event sink (CONTRACT section 3, "Event"), each with
// the header every event carries. Without a sink nothing is built.
import { IsoTimes } from '../core/index.js';
import type { Clock } from '../core/index.js';
import type { AdmissionLimits } from './admission.js';
import type { NodeState } from '../engine/index.js';
import type { ExecutionEventBody, ExecutionEventSink, NodeEventKind } from './execution-events.js';
import type { ExecutionEntry, ResultEvent } from './execution-registry.js';
import { HELD_BYTES, heldBytesOf } from './held-bytes.js';

export class ExecutionNotifier {
  readonly #sink: ExecutionEventSink | undefined;
  readonly #clock: Clock;
  readonly #times = new IsoTimes();

  constructor(sink: ExecutionEventSink | undefined, clock: Clock) {
    this.#sink = sink;
    this.#clock = clock;
  }

  /** Sends one event about `entry`. */
  emit(entry: ExecutionEntry, body: ExecutionEventBody): void {
    const sink = this.#sink;
    if (sink === undefined) return;
    // The kind first, as CONTRACT section 3 lists the fields; the body's own fields after.
    const header = {
      kind: body.kind,
      timestamp: this.#times.of(this.#clock.now()),
      executionId: entry.executionId,
      sessionId: entry.sessionId,
      workflowId: entry.workflowId,
    };
    sink(Object.assign(header, body));
  }

  /**
   * A node's state event, written out field by field: most of a run's events are these, and one
   * object literal costs a fifth of a header merged with a body.
   */
  node(entry: ExecutionEntry, kind: NodeEventKind, state: Readonly<NodeState>): void {
    const sink = this.#sink;
    if (sink === undefined) return;
    sink({
      kind,
      timestamp: this.#times.of(this.#clock.now()),
      executionId: entry.executionId,
      sessionId: entry.sessionId,
      workflowId: entry.workflowId,
      nodeId: state.nodeId,
      status: state.status,
      error: state.error,
      messagesIn: state.messagesIn,
      messagesOut: state.messagesOut,
      retries: state.retries,
    });
  }

  /** A result event, built once with the time the registry gave it: results come one a message. */
  result(entry: ExecutionEntry, result: ResultEvent): void {
    const sink = this.#sink;
    if (sink === undefined) return;
    sink({
      kind: 'result',
      timestamp: result.timestamp,
      executionId: entry.executionId,
      sessionId: entry.sessionId,
      workflowId: entry.workflowId,
      nodeId: result.nodeId,
      seq: result.seq,
      messageId: result.messageId,
      payload: result.payload,
      // The event history's budget counts the payload as the results' budget did.
      [HELD_BYTES]: heldBytesOf(result),
    });
  }

  /** The admission limits changed: an event about no execution. */
  limits(limits: AdmissionLimits): void {
    this.#sink?.({
      kind: 'scheduler.limits',
      timestamp: new Date(this.#clock.now()).toISOString(),
      executionId: null,
      sessionId: null,
      workflowId: null,
      limits: { ...limits },
    });
  }
}
