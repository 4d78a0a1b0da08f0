// Server-sent events on a raw response (SPEC "Events" 2-5): `id:` and `event:` lines, a `:`
// keep-alive comment every 15 s, and a bounded queue per client, so that a slow client never
// slows a run nor grows memory without bound (what does not fit is dropped, oldest first).
import type { FastifyReply, FastifyRequest } from 'fastify';

export interface SseOptions {
  readonly keepAliveMs: number;
  /** Events held for a client that does not read fast enough. */
  readonly maxQueued: number;
}

export class SseStream {
  readonly #reply: FastifyReply;
  readonly #queue: string[] = [];
  readonly #maxQueued: number;
  readonly #keepAlive: ReturnType<typeof setInterval>;
  readonly #onClose: (() => void)[] = [];
  #blocked = false;
  #closed = false;
  dropped = 0;

  constructor(request: FastifyRequest, reply: FastifyReply, options: SseOptions) {
    this.#reply = reply;
    this.#maxQueued = options.maxQueued;
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
      this.#write(':keep-alive\n\n');
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

  send(id: number, event: string, data: unknown): void {
    this.#write(`id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#keepAlive);
    this.#queue.length = 0;
    if (!this.#reply.raw.writableEnded) this.#reply.raw.end();
    for (const callback of this.#onClose.splice(0)) callback();
  }

  #write(chunk: string): void {
    if (this.#closed) return;
    if (this.#blocked) {
      this.#queue.push(chunk);
      if (this.#queue.length > this.#maxQueued) {
        this.#queue.shift();
        this.dropped++;
      }
      return;
    }
    if (!this.#reply.raw.write(chunk)) this.#blocked = true;
  }

  #flush(): void {
    while (!this.#blocked && this.#queue.length > 0) {
      const chunk = this.#queue.shift();
      if (chunk !== undefined && !this.#reply.raw.write(chunk)) this.#blocked = true;
    }
  }
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
