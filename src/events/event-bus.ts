// The event bus behind every stream (SPEC "Events"): numbered events, a bounded history for
// clients that reconnect with Last-Event-ID, and subscribers that are told synchronously and
// must never block the publisher.
import type { ExecutionEvent } from '../executions/index.js';

export interface NumberedEvent {
  /** Increasing over the whole bus; any filtered stream of it increases too. */
  readonly seq: number;
  readonly event: ExecutionEvent;
}

/** A published event, numbered. */
export class BusEvent implements NumberedEvent {
  constructor(
    readonly seq: number,
    readonly event: ExecutionEvent,
  ) {}

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
  #seq: number;
  /** The number before the first event of this bus. */
  readonly #start: number;

  /**
   * `firstSeq` is the number before the first event: a server starts from its boot time in
   * microsecond-like units, so that events after a restart are numbered above those before
   * it and a client resuming with Last-Event-ID misses none (SPEC Events 3).
   */
  constructor(historySize = 10_000, firstSeq = 0) {
    this.#historySize = historySize;
    this.#history = new Array<BusEvent | undefined>(historySize);
    this.#seq = firstSeq;
    this.#start = firstSeq;
  }

  publish(event: ExecutionEvent): void {
    const numbered = new BusEvent(++this.#seq, event);
    this.#history[numbered.seq % this.#historySize] = numbered;
    for (const subscriber of this.#subscribers) {
      if (subscriber.filter(event)) subscriber.deliver(numbered);
    }
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
}
