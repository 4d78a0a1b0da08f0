// SseStream on a fake response and fake timers: the keep-alive interval (SPEC Events 2) and the
// bounded queue of a client that does not read (SPEC Events 5), without sockets or waiting.
import { EventEmitter } from 'node:events';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SseStream } from './sse.js';

/** The parts of a Node response SseStream uses; `accepting` is what `write` answers. */
class FakeResponse extends EventEmitter {
  readonly chunks: string[] = [];
  status: number | undefined;
  headers: Record<string, string> = {};
  accepting = true;
  writableEnded = false;
  destroyed = false;

  writeHead(status: number, headers: Record<string, string>): this {
    this.status = status;
    this.headers = headers;
    return this;
  }

  write(chunk: string | Buffer): boolean {
    this.chunks.push(chunk.toString());
    return this.accepting;
  }

  end(chunk?: string | Buffer): this {
    if (chunk !== undefined) this.chunks.push(chunk.toString());
    this.writableEnded = true;
    return this;
  }

  /** Everything written, as one text. */
  get text(): string {
    return this.chunks.join('');
  }
}

function open(options: { keepAliveMs: number; maxQueued: number }): {
  stream: SseStream;
  raw: FakeResponse;
} {
  const raw = new FakeResponse();
  const reply = { raw, hijack: () => reply };
  const request = { id: 'req-1' };
  // Fastify's request and reply types have far more than the stream uses: the fakes cannot
  // satisfy them, so they are cast.
  const stream = new SseStream(
    request as unknown as FastifyRequest,
    reply as unknown as FastifyReply,
    options,
  );
  return { stream, raw };
}

/**
 * Lets `ms` of the faked intervals pass, then the next turn of the real event loop, in which
 * the stream writes what it queued (its `setImmediate` was set before this one).
 */
async function elapse(ms: number): Promise<void> {
  vi.advanceTimersByTime(ms);
  await new Promise((resolve) => setImmediate(resolve));
}

const keepAlives = (raw: FakeResponse): number => raw.text.split(':keep-alive\n\n').length - 1;
const ids = (text: string): number[] =>
  [...text.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));

describe('SseStream (SPEC Events 2, 5)', () => {
  beforeEach(() => {
    // Only the keep-alive interval is faked: writes wait for a real turn of the event loop.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('opens an event stream with the request id and a first comment', () => {
    const { raw } = open({ keepAliveMs: 15_000, maxQueued: 10 });
    expect(raw.status).toBe(200);
    expect(raw.headers).toMatchObject({
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-request-id': 'req-1',
    });
    expect(raw.text).toBe(':ok\n\n');
  });

  it('writes a keep-alive comment once every keepAliveMs, and none before (SPEC Events 2)', async () => {
    const { raw } = open({ keepAliveMs: 15_000, maxQueued: 10 });
    await elapse(14_999);
    expect(keepAlives(raw)).toBe(0);
    await elapse(1);
    expect(keepAlives(raw)).toBe(1);
    await elapse(14_999);
    expect(keepAlives(raw)).toBe(1);
    await elapse(1);
    expect(keepAlives(raw)).toBe(2);
  });

  it('stops the keep-alive when the stream closes', async () => {
    const { stream, raw } = open({ keepAliveMs: 15_000, maxQueued: 10 });
    stream.close();
    expect(raw.writableEnded).toBe(true);
    await elapse(60_000);
    expect(keepAlives(raw)).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('keeps at most maxQueued frames for a socket that does not drain, dropping the oldest (SPEC Events 5)', async () => {
    const { stream, raw } = open({ keepAliveMs: 15_000, maxQueued: 3 });
    raw.accepting = false;
    stream.send(1, 'result', { n: 1 });
    await elapse(0);
    // The first write filled the socket: nothing more is written until it drains.
    expect(ids(raw.text)).toEqual([1]);
    const written = raw.chunks.length;
    for (let n = 2; n <= 10; n++) stream.send(n, 'result', { n });
    await elapse(0);
    expect(raw.chunks).toHaveLength(written);
    expect(stream.dropped).toBe(6);

    raw.accepting = true;
    raw.emit('drain');
    // What was held are the newest three, in order.
    expect(ids(raw.chunks.slice(written).join(''))).toEqual([8, 9, 10]);
    expect(stream.dropped).toBe(6);
    stream.send(11, 'result', { n: 11 });
    await elapse(0);
    expect(ids(raw.text)).toEqual([1, 8, 9, 10, 11]);
  });

  it('drops the oldest frame for a keep-alive that finds the queue full too, so the queue stays bounded (SPEC Events 5)', async () => {
    const { stream, raw } = open({ keepAliveMs: 15_000, maxQueued: 2 });
    raw.accepting = false;
    stream.send(1, 'result', { n: 1 });
    await elapse(0);
    stream.send(2, 'result', { n: 2 });
    stream.send(3, 'result', { n: 3 });
    await elapse(15_000);
    expect(stream.dropped).toBe(1);
    raw.accepting = true;
    raw.emit('drain');
    expect(raw.text).toBe(`:ok\n\n${frame(1)}${frame(3)}:keep-alive\n\n`);
  });
});

function frame(n: number): string {
  return `id: ${n}\nevent: result\ndata: {"n":${n}}\n\n`;
}
