// Server-sent events on a raw response (SPEC "Events" 2-5): `id:` and `event:` lines, a `:`
// keep-alive comment every 15 s, and a bounded queue per client, so that a slow client never
// slows a run nor grows memory without bound (what does not fit is dropped, oldest first).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FeedReader } from '../events/index.js';

export interface SseOptions {
  readonly keepAliveMs: number;
  /** Events held for a client that does not read fast enough. */
  readonly maxQueued: number;
}

/** An event whose frame is made once, however many streams send it. */
export interface SharedEvent {
  /** The whole frame: `id:`, `event:` and `data:` lines. */
  frame(): string;
}

/**
 * Frames made in this turn of the event loop, shared by every stream that sends the same
 * event in it, and let go at the next turn rather than kept as long as the event is.
 */
const framesThisTurn = new Map<SharedEvent, string>();
let clearing = false;

function frameOf(event: SharedEvent): string {
  let frame = framesThisTurn.get(event);
  if (frame === undefined) {
    frame = event.frame();
    framesThisTurn.set(event, frame);
    if (!clearing) {
      clearing = true;
      setImmediate(() => {
        framesThisTurn.clear();
        clearing = false;
      });
    }
  }
  return frame;
}

/** A frame to send, or an event made into one only when it is sent. */
type Pending = string | SharedEvent;

export class SseStream {
  readonly #reply: FastifyReply;
  /** Frames waiting for the next flush: the newest `maxQueued`, in a ring. */
  readonly #ring: (Pending | undefined)[];
  #head = 0;
  #size = 0;
  readonly #keepAlive: ReturnType<typeof setInterval>;
  readonly #onClose: (() => void)[] = [];
  #blocked = false;
  #scheduled = false;
  #closed = false;
  /** A shared feed whose events follow what the stream queued itself. */
  #reader: FeedReader | undefined;
  dropped = 0;

  constructor(request: FastifyRequest, reply: FastifyReply, options: SseOptions) {
    this.#reply = reply;
    this.#ring = new Array<Pending | undefined>(Math.max(1, options.maxQueued));
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-request-id': request.id,
    });
    raw.write(':ok\n\n');
    raw.on('drain', () => {
      this.#blocked = false;
      this.#flush();
    });
    raw.on('close', () => {
      this.close();
    });
    this.#keepAlive = setInterval(() => {
      this.#enqueue(':keep-alive\n\n');
    }, options.keepAliveMs);
    this.#keepAlive.unref();
  }

  get closed(): boolean {
    return this.#closed;
  }

  onClose(callback: () => void): void {
    if (this.#closed) callback();
    else this.#onClose.push(callback);
  }

  /** `id` null: a frame without an id, which leaves the client's Last-Event-ID as it was. */
  send(id: number | null, event: string, data: unknown): void {
    this.#enqueue(sseFrame(id, event, data));
  }

  /**
   * Queues an event made into a frame only when it is sent: a client that falls behind drops
   * what it cannot take without anything being serialised for it.
   */
  sendEvent(event: SharedEvent): void {
    this.#enqueue(event);
  }

  /**
   * Sends the events of a shared feed after what was queued so far. The feed keeps the
   * events and the frames, made once for all its readers; the stream keeps a cursor.
   */
  follow(reader: FeedReader): void {
    this.#reader = reader;
    reader.wake = () => {
      this.#flush();
    };
    this.onClose(() => {
      reader.close();
    });
  }

  close(): void {
    if (this.#closed) return;
    // What was queued before the end still goes out, blocked or not: it is bounded.
    const rest = this.#take();
    const followed = this.#takeFollowed();
    this.#closed = true;
    clearInterval(this.#keepAlive);
    const raw = this.#reply.raw;
    if (!raw.writableEnded && !raw.destroyed) {
      if (rest !== '') raw.write(rest);
      raw.end(followed);
    }
    for (const callback of this.#onClose.splice(0)) callback();
  }

  #enqueue(pending: Pending): void {
    if (this.#closed) return;
    const capacity = this.#ring.length;
    if (this.#size === capacity) {
      // Full: the oldest frame makes room (SPEC Events 5, live parts are best effort).
      this.#head = (this.#head + 1) % capacity;
      this.#size--;
      this.dropped++;
    }
    this.#ring[(this.#head + this.#size) % capacity] = pending;
    this.#size++;
    if (!this.#blocked && !this.#scheduled) {
      this.#scheduled = true;
      // One write a turn of the event loop for everything queued in it.
      setImmediate(() => {
        this.#scheduled = false;
        this.#flush();
      });
    }
  }

  #flush(): void {
    if (this.#closed || this.#blocked) return;
    const raw = this.#reply.raw;
    if (this.#size > 0 && !raw.write(this.#take())) this.#blocked = true;
    const followed = this.#takeFollowed();
    if (followed !== undefined && !raw.write(followed)) this.#blocked = true;
  }

  /** What the followed feed has for this stream; what it fell behind on counts as dropped. */
  #takeFollowed(): Buffer | undefined {
    if (this.#reader === undefined) return undefined;
    const { bytes, missed } = this.#reader.take();
    this.dropped += missed;
    return bytes;
  }

  /** Everything queued, as one text; the queue is empty afterwards. */
  #take(): string {
    const capacity = this.#ring.length;
    let text = '';
    for (; this.#size > 0; this.#size--) {
      const pending = this.#ring[this.#head];
      this.#ring[this.#head] = undefined;
      this.#head = (this.#head + 1) % capacity;
      if (pending === undefined) continue;
      text += typeof pending === 'string' ? pending : frameOf(pending);
    }
    return text;
  }
}

/** One SSE frame: `id:`, `event:` and the JSON `data:` line. */
export function sseFrame(id: number | null, event: string, data: unknown): string {
  const idLine = id === null ? '' : `id: ${id}\n`;
  return `${idLine}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * SPEC "Events" 3: a client continues after the id it saw last. Null without the header: a
 * new client gets live events only.
 */
export function lastEventId(request: FastifyRequest): number | null {
  const header = request.headers['last-event-id'];
  if (typeof header !== 'string') return null;
  const value = Number(header);
  return Number.isSafeInteger(value) && value >= 0 ? value : null;
}
