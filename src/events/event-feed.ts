// Events of one filter, shared by every reader that asked for the same filter (ARCHITECTURE
// "Events"): the bus filters each event once for all of them, each reader keeps only a
// cursor, and readers are woken once a turn of the event loop, not once an event. A reader
// that falls more than `capacity` events behind skips to the newest and counts what it
// missed, so a slow reader never slows a run nor holds more than the feed holds.
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

  constructor(options: {
    readonly bus: EventBus;
    readonly filter: EventFilter;
    readonly capacity: number;
    readonly frame: (event: BusEvent) => string;
    readonly onEmpty: () => void;
  }) {
    this.#ring = new Array<BusEvent | undefined>(Math.max(1, options.capacity));
    this.#frame = options.frame;
    this.#onEmpty = options.onEmpty;
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
    const from = Math.max(reader.cursor, to - this.#ring.length);
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
    this.#ring[this.#written % this.#ring.length] = event;
    this.#written++;
    if (this.#waking) return;
    this.#waking = true;
    setImmediate(() => {
      this.#waking = false;
      this.#made = undefined;
      for (const reader of this.#readers) reader.wake();
    });
  }
}

/** The feeds of a bus by filter key: readers of the same key share one feed. */
export class EventFeeds {
  readonly #bus: EventBus;
  readonly #capacity: number;
  readonly #frame: (event: BusEvent) => string;
  readonly #feeds = new Map<string, EventFeed>();

  constructor(bus: EventBus, options: { capacity: number; frame: (event: BusEvent) => string }) {
    this.#bus = bus;
    this.#capacity = options.capacity;
    this.#frame = options.frame;
  }

  /** `filter` must select the same events for the same `key`. */
  reader(key: string, filter: EventFilter): FeedReader {
    let feed = this.#feeds.get(key);
    if (feed === undefined) {
      const made: EventFeed = new EventFeed({
        bus: this.#bus,
        filter,
        capacity: this.#capacity,
        frame: this.#frame,
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
