// Events of one filter, shared by every reader that asked for the same filter (ARCHITECTURE
// "Events"): the bus filters each event once for all of them, each reader keeps only a
// cursor, and readers are woken once a turn of the event loop, not once an event. A reader
// that falls more than `capacity` events behind skips to the newest and counts what it
// missed, so a slow reader never slows a run nor holds more than the feed holds. A byte budget
// bounds the feed too: a thousand events with large payloads would not fit any heap. The
// whole stream, unfiltered, needs no copy: its readers read the bus's own history.
import type { BusEvent, EventBus, EventFilter, Subscription } from './event-bus.js';

/** What a reader takes at once: the events' frames as one buffer, made once for all. */
export interface FeedTake {
  readonly bytes: Buffer | undefined;
  /** Events that passed while the reader was too far behind to get them. */
  readonly missed: number;
}

export class FeedReader {
  readonly #feed: Feed;
  /** Feed position of the next event to read. */
  cursor: number;
  /** Called once a turn in which events came. */
  wake: () => void = () => undefined;

  constructor(feed: Feed, cursor: number) {
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

/**
 * The frames as one buffer, each written into it in turn: a text concatenated from a thousand
 * frames is a rope of every piece of every frame, and flattening it cost more than framing.
 */
function encode(frames: readonly string[]): Buffer {
  let length = 0;
  for (const frame of frames) length += frame.length;
  // Exact for ASCII frames; a frame with wider characters makes the buffer grow.
  let bytes = Buffer.allocUnsafe(length);
  let at = 0;
  for (const frame of frames) {
    // A frame can take up to three bytes a character: count it when it might not fit.
    if (bytes.length - at < frame.length * 3) {
      const needed = at + Buffer.byteLength(frame);
      if (needed > bytes.length) {
        const grown = Buffer.allocUnsafe(Math.max(needed, bytes.length * 2));
        bytes.copy(grown, 0, 0, at);
        bytes = grown;
      }
    }
    at += bytes.write(frame, at);
  }
  return at === bytes.length ? bytes : bytes.subarray(0, at);
}

/** Readers, their wake-ups and the bytes they share; where the events are kept is a subclass's. */
abstract class Feed {
  readonly #readers = new Set<FeedReader>();
  readonly #frame: (event: BusEvent) => string;
  readonly #capacity: number;
  readonly #onEmpty: () => void;
  readonly #watch: Subscription;
  /** The position the readers were last woken for. */
  #woken: number;
  /** The last bytes made, for the next reader that takes the same range. */
  #made: (FeedTake & { readonly from: number; readonly to: number }) | undefined;

  constructor(bus: EventBus, options: FeedOptions, start: number) {
    this.#frame = options.frame;
    this.#capacity = Math.max(1, options.capacity);
    this.#onEmpty = options.onEmpty ?? (() => undefined);
    this.#woken = start;
    this.#watch = bus.watch(() => {
      this.#wake();
    });
  }

  /** Position of the next event to come. */
  protected abstract get next(): number;
  /** The event at `position`, while the feed still holds it. */
  protected abstract eventAt(position: number): BusEvent | undefined;
  /** The last reader left: stop taking events. */
  protected abstract detach(): void;

  /** A reader that gets the events that come from now on. */
  reader(): FeedReader {
    const reader = new FeedReader(this, this.next);
    this.#readers.add(reader);
    return reader;
  }

  take(reader: FeedReader): FeedTake {
    const to = this.next;
    const from = Math.max(reader.cursor, to - this.#capacity);
    const behind = from - reader.cursor;
    reader.cursor = to;
    if (from >= to) return { bytes: undefined, missed: behind };
    let made = this.#made;
    if (made?.from !== from || made.to !== to) {
      const frames: string[] = [];
      for (let at = from; at < to; at++) {
        const event = this.eventAt(at);
        if (event !== undefined) frames.push(this.#frame(event));
      }
      const missed = to - from - frames.length;
      made = { from, to, bytes: frames.length === 0 ? undefined : encode(frames), missed };
      this.#made = made;
    }
    return { bytes: made.bytes, missed: behind + made.missed };
  }

  remove(reader: FeedReader): void {
    if (!this.#readers.delete(reader) || this.#readers.size > 0) return;
    this.#watch.close();
    this.detach();
    this.#made = undefined;
    this.#onEmpty();
  }

  #wake(): void {
    const next = this.next;
    if (next === this.#woken) return;
    this.#woken = next;
    this.#made = undefined;
    for (const reader of this.#readers) reader.wake();
  }
}

/** The whole stream: positions are the bus's numbers, the events those of its history. */
class HistoryFeed extends Feed {
  readonly #bus: EventBus;

  constructor(bus: EventBus, options: FeedOptions) {
    super(bus, options, bus.lastSeq + 1);
    this.#bus = bus;
  }

  protected get next(): number {
    return this.#bus.lastSeq + 1;
  }

  protected eventAt(position: number): BusEvent | undefined {
    return this.#bus.at(position);
  }

  protected detach(): void {
    // Nothing of its own to let go: the history is the bus's.
  }
}

/** The events of one filter, copied into a ring of the feed's own as the bus publishes them. */
class FilteredFeed extends Feed {
  readonly #ring: (BusEvent | undefined)[];
  readonly #subscription: Subscription;
  /** Events appended so far: the position of the next one. */
  #written = 0;
  readonly #maxBytes: number;
  readonly #onDrop: ((events: number) => void) | undefined;
  /** Bytes of the events in the ring, as the bus counted them. */
  #bytes = 0;
  /** Position of the oldest event the byte budget left in the ring. */
  #floor = 0;

  constructor(bus: EventBus, filter: EventFilter, options: FeedOptions) {
    super(bus, options, 0);
    this.#ring = new Array<BusEvent | undefined>(Math.max(1, options.capacity));
    this.#maxBytes = options.maxBytes ?? Infinity;
    this.#onDrop = options.onDrop;
    this.#subscription = bus.subscribe(filter, (event) => {
      this.#append(event);
    });
  }

  protected get next(): number {
    return this.#written;
  }

  protected eventAt(position: number): BusEvent | undefined {
    if (position < this.#floor || position < this.#written - this.#ring.length) return undefined;
    return this.#ring[position % this.#ring.length];
  }

  protected detach(): void {
    this.#subscription.close();
  }

  #append(event: BusEvent): void {
    const slot = this.#written % this.#ring.length;
    const overwritten = this.#ring[slot];
    if (overwritten !== undefined) this.#bytes -= overwritten.bytes;
    this.#ring[slot] = event;
    this.#bytes += event.bytes;
    this.#written++;
    if (this.#bytes > this.#maxBytes) this.#shed();
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
  /** Events a reader is given at most at once; a reader further behind skips the oldest. */
  readonly capacity: number;
  readonly frame: (event: BusEvent) => string;
  /** The feed lost its last reader. */
  readonly onEmpty?: () => void;
  /**
   * Bytes of events a filtered feed keeps (`svc.streaming.event-history-max-bytes`); beyond it
   * the oldest go, all but the newest. Without it only the capacity bounds a feed. The whole
   * stream is bounded by the bus's history budget instead.
   */
  readonly maxBytes?: number;
  /** Told how many events the byte budget dropped (`svc.memory.dropped`, `store=streams`). */
  readonly onDrop?: (events: number) => void;
}

/** The feeds of a bus by filter key: readers of the same key share one feed. */
export class EventFeeds {
  readonly #bus: EventBus;
  readonly #options: FeedOptions;
  readonly #feeds = new Map<string, Feed>();

  constructor(bus: EventBus, options: FeedOptions) {
    this.#bus = bus;
    this.#options = options;
  }

  /**
   * `filter` must select the same events for the same `key`; without a filter the reader
   * follows every event, straight from the bus's history.
   */
  reader(key: string, filter?: EventFilter): FeedReader {
    let feed = this.#feeds.get(key);
    if (feed === undefined) {
      const options: FeedOptions = {
        ...this.#options,
        onEmpty: () => {
          if (this.#feeds.get(key) === made) this.#feeds.delete(key);
        },
      };
      const made: Feed =
        filter === undefined
          ? new HistoryFeed(this.#bus, options)
          : new FilteredFeed(this.#bus, filter, options);
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
