// Events of one filter, shared by every reader that asked for the same filter (ARCHITECTURE
// "Events"): the bus filters each event once for all of them, each reader keeps only a
// cursor, and readers are woken once a turn of the event loop, not once an event. A reader
// that falls more than `capacity` events behind skips to the newest and counts what it
// missed, so a slow reader never slows a run nor holds more than the feed holds. A byte budget
// bounds the feed too: a thousand events with large payloads would not fit any heap.
import type { BusEvent, EventBus, EventFilter, Subscription } from './event-bus.js';

/** What a reader takes at once: the events' frames as one buffer, made once for all. */
export interface FeedTake {
  readonly bytes: Buffer | undefined;
  /** Events that passed while the reader was too far behind to get them. */
  readonly missed: number;
}

export class FeedReader {
  readonly #feed: EventFeed;
  /** Feed position of the next event to read. */
  cursor: number;
  /** Called once a turn in which events came. */
  wake: () => void = () => undefined;

  constructor(feed: EventFeed, cursor: number) {
    this.#feed = feed;
    this.cursor = cursor;
  }

  /** Everything since the last take, the newest `capacity` at most. */
  take(): FeedTake {
    return this.#feed.take(this);
  }

  close(): void {
    this.#feed.remove(this);
  }
}

class EventFeed {
  readonly #ring: (BusEvent | undefined)[];
  readonly #frame: (event: BusEvent) => string;
  readonly #readers = new Set<FeedReader>();
  readonly #subscription: Subscription;
  readonly #onEmpty: () => void;
  /** Events appended so far: the position of the next one. */
  #written = 0;
  #waking = false;
  /** The last bytes made, for the next reader that takes the same range. */
  #made: { from: number; to: number; bytes: Buffer } | undefined;
  readonly #maxBytes: number;
  readonly #onDrop: ((events: number) => void) | undefined;
  /** Bytes of the events in the ring, as the bus counted them. */
  #bytes = 0;
  /** Position of the oldest event the byte budget left in the ring. */
  #floor = 0;

  constructor(options: FeedOptions & { readonly bus: EventBus; readonly filter: EventFilter }) {
    this.#ring = new Array<BusEvent | undefined>(Math.max(1, options.capacity));
    this.#frame = options.frame;
    this.#onEmpty = options.onEmpty ?? (() => undefined);
    this.#maxBytes = options.maxBytes ?? Infinity;
    this.#onDrop = options.onDrop;
    this.#subscription = options.bus.subscribe(options.filter, (event) => {
      this.#append(event);
    });
  }

  /** A reader that gets the events appended from now on. */
  reader(): FeedReader {
    const reader = new FeedReader(this, this.#written);
    this.#readers.add(reader);
    return reader;
  }

  take(reader: FeedReader): FeedTake {
    const to = this.#written;
    const from = Math.max(reader.cursor, to - this.#ring.length, this.#floor);
    const missed = from - reader.cursor;
    reader.cursor = to;
    if (from === to) return { bytes: undefined, missed };
    const made = this.#made;
    if (made !== undefined && made.from === from && made.to === to) {
      return { bytes: made.bytes, missed };
    }
    let text = '';
    for (let at = from; at < to; at++) {
      const event = this.#ring[at % this.#ring.length];
      if (event !== undefined) text += this.#frame(event);
    }
    const bytes = Buffer.from(text, 'utf8');
    this.#made = { from, to, bytes };
    return { bytes, missed };
  }

  remove(reader: FeedReader): void {
    if (!this.#readers.delete(reader) || this.#readers.size > 0) return;
    this.#subscription.close();
    this.#made = undefined;
    this.#onEmpty();
  }

  #append(event: BusEvent): void {
    const slot = this.#written % this.#ring.length;
    const overwritten = this.#ring[slot];
    if (overwritten !== undefined) this.#bytes -= overwritten.bytes;
    this.#ring[slot] = event;
    this.#bytes += event.bytes;
    this.#written++;
    if (this.#bytes > this.#maxBytes) this.#shed();
    if (this.#waking) return;
    this.#waking = true;
    setImmediate(() => {
      this.#waking = false;
      this.#made = undefined;
      for (const reader of this.#readers) reader.wake();
    });
  }

  /**
   * Drops the oldest events until the rest fit the byte budget; readers behind count them as
   * missed. The newest stays, so that every event reaches a reader that keeps up.
   */
  #shed(): void {
    const length = this.#ring.length;
    let at = Math.max(this.#floor, this.#written - length);
    let dropped = 0;
    for (; at < this.#written - 1 && this.#bytes > this.#maxBytes; at++) {
      const slot = at % length;
      const held = this.#ring[slot];
      if (held === undefined) continue;
      this.#ring[slot] = undefined;
      this.#bytes -= held.bytes;
      dropped++;
    }
    this.#floor = at;
    if (dropped > 0) this.#onDrop?.(dropped);
  }
}

export interface FeedOptions {
  /** Events a feed keeps for readers that fall behind. */
  readonly capacity: number;
  readonly frame: (event: BusEvent) => string;
  /** The feed lost its last reader. */
  readonly onEmpty?: () => void;
  /**
   * Bytes of events a feed keeps (`svc.streaming.event-history-max-bytes`); beyond it the
   * oldest go, all but the newest. Without it only the capacity bounds a feed.
   */
  readonly maxBytes?: number;
  /** Told how many events the byte budget dropped (`svc.memory.dropped`, `store=streams`). */
  readonly onDrop?: (events: number) => void;
}

/** The feeds of a bus by filter key: readers of the same key share one feed. */
export class EventFeeds {
  readonly #bus: EventBus;
  readonly #options: FeedOptions;
  readonly #feeds = new Map<string, EventFeed>();

  constructor(bus: EventBus, options: FeedOptions) {
    this.#bus = bus;
    this.#options = options;
  }

  /** `filter` must select the same events for the same `key`. */
  reader(key: string, filter: EventFilter): FeedReader {
    let feed = this.#feeds.get(key);
    if (feed === undefined) {
      const made: EventFeed = new EventFeed({
        ...this.#options,
        bus: this.#bus,
        filter,
        onEmpty: () => {
          if (this.#feeds.get(key) === made) this.#feeds.delete(key);
        },
      });
      feed = made;
      this.#feeds.set(key, feed);
    }
    return feed.reader();
  }

  /** Feeds with at least one reader. */
  get size(): number {
    return this.#feeds.size;
  }
}
