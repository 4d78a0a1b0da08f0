// The event bus behind every stream (SPEC "Events"): numbered events, a bounded history for
// clients that reconnect with Last-Event-ID, and subscribers that are told synchronously and
// must never block the publisher. The history is bounded by count and by bytes: result events
// carry payloads, and ten thousand large ones would not fit any heap.
import { heldBytesOf } from '../executions/index.js';
import type { ExecutionEvent } from '../executions/index.js';

/** What an event counts besides the payload or log line it carries: its header, about. */
export const EVENT_OVERHEAD_BYTES = 256;

export interface HistoryBudget {
  /**
   * `svc.streaming.event-history-max-bytes`: bytes of events kept in the history; beyond it
   * the oldest go first. Without it only the count bounds the history.
   */
  readonly maxBytes?: number;
  /** Told how many events the byte budget dropped from the history (`svc.memory.dropped`). */
  readonly onDrop?: (events: number) => void;
}

export interface NumberedEvent {
  /** Increasing over the whole bus; any filtered stream of it increases too. */
  readonly seq: number;
  readonly event: ExecutionEvent;
}

/** A published event, numbered. */
export class BusEvent implements NumberedEvent {
  /** What it counts against the history's byte budget. */
  readonly bytes: number;

  constructor(
    readonly seq: number,
    readonly event: ExecutionEvent,
  ) {
    this.bytes = EVENT_OVERHEAD_BYTES + heldBytesOf(event);
  }

  /** The event as one server-sent-events frame. */
  frame(): string {
    return `id: ${this.seq}\nevent: ${this.event.kind}\ndata: ${JSON.stringify(this.event)}\n\n`;
  }
}

export type EventFilter = (event: ExecutionEvent) => boolean;

export interface Subscription {
  close(): void;
}

export class EventBus {
  /** A ring of the newest events: a shift of a long array per event would cost a copy. */
  readonly #history: (BusEvent | undefined)[];
  readonly #historySize: number;
  readonly #subscribers = new Set<{
    filter: EventFilter;
    deliver: (event: BusEvent) => void;
  }>();
  readonly #watchers = new Set<() => void>();
  #waking = false;
  /** The newest event, also when it alone is over the byte budget and left the history. */
  #newest: BusEvent | undefined;
  #seq: number;
  /** The number before the first event of this bus. */
  readonly #start: number;
  readonly #maxBytes: number;
  readonly #onDrop: ((events: number) => void) | undefined;
  /** Bytes of the events in the history. */
  #bytes = 0;
  /** No event numbered below this is in the history any more. */
  #firstKept: number;

  /**
   * `firstSeq` is the number before the first event: a server starts from its boot time in
   * microsecond-like units, so that events after a restart are numbered above those before
   * it and a client resuming with Last-Event-ID misses none (SPEC Events 3).
   */
  constructor(historySize = 10_000, firstSeq = 0, budget: HistoryBudget = {}) {
    this.#historySize = historySize;
    this.#history = new Array<BusEvent | undefined>(historySize);
    this.#seq = firstSeq;
    this.#start = firstSeq;
    this.#firstKept = firstSeq + 1;
    this.#maxBytes = budget.maxBytes ?? Infinity;
    this.#onDrop = budget.onDrop;
  }

  publish(event: ExecutionEvent): void {
    const numbered = new BusEvent(++this.#seq, event);
    const slot = numbered.seq % this.#historySize;
    const overwritten = this.#history[slot];
    if (overwritten !== undefined) this.#bytes -= overwritten.bytes;
    this.#history[slot] = numbered;
    this.#newest = numbered;
    this.#bytes += numbered.bytes;
    if (this.#bytes > this.#maxBytes) this.#shed();
    if (this.#watchers.size > 0 && !this.#waking) this.#wakeWatchers();
    // Subscribers get every event, also one too large for the history to keep.
    for (const subscriber of this.#subscribers) {
      if (subscriber.filter(event)) subscriber.deliver(numbered);
    }
  }

  /** Bytes of the events kept in the history. */
  get historyBytes(): number {
    return this.#bytes;
  }

  /** Drops the oldest events of the history until the rest fit its byte budget. */
  #shed(): void {
    let dropped = 0;
    let at = Math.max(this.#firstKept, this.#seq - this.#historySize + 1);
    for (; at <= this.#seq && this.#bytes > this.#maxBytes; at++) {
      const slot = at % this.#historySize;
      const held = this.#history[slot];
      if (held?.seq !== at) continue;
      this.#history[slot] = undefined;
      this.#bytes -= held.bytes;
      dropped++;
    }
    this.#firstKept = at;
    if (dropped > 0) this.#onDrop?.(dropped);
  }

  /**
   * Numbers the next events above `seq`. A server that takes over as leader skips to its
   * takeover time, as a restarted server starts from its boot time: the events a client saw
   * on the old leader are then numbered below those of the new one (SPEC Events 3).
   */
  skipTo(seq: number): void {
    if (seq > this.#seq) this.#seq = seq;
  }

  /** The number of the newest event published; 0 before the first. */
  get lastSeq(): number {
    return this.#seq;
  }

  /**
   * Events kept in the history after `seq` that pass `filter`, oldest first. A `seq` above
   * the newest number comes from another server (a clock set back): everything kept is after
   * it.
   */
  since(seq: number, filter: EventFilter): BusEvent[] {
    const found: BusEvent[] = [];
    const after = seq > this.#seq ? this.#start : seq;
    const first = Math.max(after + 1, this.#seq - this.#historySize + 1, this.#start + 1);
    for (let at = first; at <= this.#seq; at++) {
      const numbered = this.#history[at % this.#historySize];
      if (numbered !== undefined && numbered.seq === at && filter(numbered.event)) {
        found.push(numbered);
      }
    }
    return found;
  }

  /**
   * The event numbered `seq` while the history keeps it; the newest event also when the byte
   * budget left it out, so that a reader that keeps up gets every event.
   */
  at(seq: number): BusEvent | undefined {
    const numbered = this.#history[seq % this.#historySize];
    if (numbered?.seq === seq) return numbered;
    return this.#newest?.seq === seq ? this.#newest : undefined;
  }

  /**
   * `watcher` is told once a turn of the event loop in which events were published: readers
   * that take what came since their cursor pay nothing per event.
   */
  watch(watcher: () => void): Subscription {
    this.#watchers.add(watcher);
    return {
      close: () => {
        this.#watchers.delete(watcher);
      },
    };
  }

  #wakeWatchers(): void {
    this.#waking = true;
    setImmediate(() => {
      this.#waking = false;
      for (const watcher of this.#watchers) watcher();
    });
  }

  subscribe(filter: EventFilter, deliver: (event: BusEvent) => void): Subscription {
    const subscriber = { filter, deliver };
    this.#subscribers.add(subscriber);
    return {
      close: () => {
        this.#subscribers.delete(subscriber);
      },
    };
  }

  get subscribers(): number {
    return this.#subscribers.size;
  }

  get watchers(): number {
    return this.#watchers.size;
  }
}
