// The wire protocol between the control plane and its remote workers: one JSON object per
// line, over one persistent TCP (or TLS) connection per worker (docs/workers.md).
import type { Duplex } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { z } from 'zod';
import { messageOf } from '../core/index.js';
import type { Emit, Message } from '../plugin-api/index.js';

/** Raised by the worker and refused by a control plane that speaks another version. */
export const PROTOCOL_VERSION = 2;

/**
 * Longest line either side accepts, in characters. Payloads inside a run are unbounded, but a
 * connection must not buffer without end: a larger message fails its call.
 */
export const MAX_LINE_CHARS = 64 * 1024 * 1024;

/** A peer silent for this many heartbeats is taken for gone, by either side. */
export const MISSED_HEARTBEATS = 3;

/** Something a peer sent that does not follow the protocol; the connection is dropped. */
export class ProtocolError extends Error {
  override readonly name = 'ProtocolError';
}

/** A message payload on the wire: JSON, or base64 for a byte payload (JSON has no bytes). */
const payloadFields = {
  payload: z.unknown().optional(),
  bytes: z.string().optional(),
};

const wireMessage = z.object({
  id: z.string(),
  headers: z.looseObject({ attempt: z.number().int().min(1) }),
  ...payloadFields,
});

const wireEmit = z.object({
  port: z.string().optional(),
  headers: z.record(z.string(), z.unknown()).optional(),
  ...payloadFields,
});

export type WireMessage = z.output<typeof wireMessage>;
export type WireEmit = z.output<typeof wireEmit>;

/** One call of a plugin's `ctx.meter`, checked again against the catalogue where it is counted. */
const meter = z.object({
  type: z.literal('meter'),
  call: z.string(),
  kind: z.enum(['count', 'observe']),
  name: z.string(),
  value: z.number(),
  tags: z.record(z.string(), z.string()),
});

const ping = z.object({ type: z.literal('ping') });

/** What a worker sends. */
const workerMessage = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('hello'),
    protocol: z.number().int(),
    token: z.string(),
    name: z.string().min(1),
    pool: z.string().min(1),
    slots: z.number().int().min(1),
    pluginTypes: z.array(z.string().min(1)),
  }),
  z.object({ type: z.literal('result'), call: z.string(), emits: z.array(wireEmit) }),
  z.object({
    type: z.literal('failed'),
    call: z.string(),
    error: z.string(),
    retryable: z.boolean(),
  }),
  z.object({ type: z.literal('report'), call: z.string(), event: z.string(), outcome: z.string() }),
  meter,
  ping,
]);

export const REFUSAL_REASONS = ['token', 'standby', 'protocol', 'hello'] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

/** What the control plane sends. */
const controlMessage = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('welcome'),
    workerId: z.string(),
    heartbeatMs: z.number().positive(),
  }),
  z.object({ type: z.literal('refused'), reason: z.enum(REFUSAL_REASONS), message: z.string() }),
  z.object({
    type: z.literal('open'),
    node: z.string(),
    executionId: z.string(),
    sessionId: z.string(),
    workflowId: z.string(),
    nodeId: z.string(),
    nodeType: z.string(),
    config: z.record(z.string(), z.unknown()),
    startPayload: z.unknown().optional(),
  }),
  z.object({
    type: z.literal('process'),
    call: z.string(),
    node: z.string(),
    message: wireMessage,
  }),
  z.object({ type: z.literal('cancel'), call: z.string() }),
  z.object({ type: z.literal('close'), node: z.string() }),
  ping,
]);

export type WorkerMessage = z.output<typeof workerMessage>;
export type ControlMessage = z.output<typeof controlMessage>;
export type HelloMessage = Extract<WorkerMessage, { type: 'hello' }>;
export type OpenMessage = Extract<ControlMessage, { type: 'open' }>;
export type ProcessMessage = Extract<ControlMessage, { type: 'process' }>;

/** One line of the protocol, newline included. */
export function encodeLine(message: WorkerMessage | ControlMessage): string {
  // JSON text never holds a raw line break: one in a string is written `\n`.
  return `${JSON.stringify(message)}\n`;
}

function parseLine<T>(schema: z.ZodType<T>, line: string): T {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    throw new ProtocolError('A line is not valid JSON');
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.map(String).join('.') ?? '';
    throw new ProtocolError(
      `Unexpected message${where === '' ? '' : ` at ${where}`}: ${issue?.message ?? 'invalid'}`,
    );
  }
  return parsed.data;
}

export function parseWorkerMessage(line: string): WorkerMessage {
  return parseLine(workerMessage, line);
}

export function parseControlMessage(line: string): ControlMessage {
  return parseLine(controlMessage, line);
}

/**
 * Splits a byte stream into lines. Characters split between two chunks are kept for the next
 * one, and a line longer than `maxChars` is refused rather than buffered.
 */
export class LineDecoder {
  readonly #decoder = new StringDecoder('utf8');
  readonly #maxChars: number;
  #buffer = '';

  constructor(maxChars = MAX_LINE_CHARS) {
    this.#maxChars = maxChars;
  }

  /** The complete lines the chunk ends; empty lines are skipped. */
  push(chunk: Buffer): string[] {
    const text = this.#decoder.write(chunk);
    const lines: string[] = [];
    let end = text.indexOf('\n');
    if (end === -1) {
      this.#buffer += text;
    } else {
      const first = this.#buffer + text.slice(0, end);
      this.#buffer = '';
      this.#check(first.length);
      if (first !== '') lines.push(first);
      let start = end + 1;
      for (end = text.indexOf('\n', start); end !== -1; end = text.indexOf('\n', start)) {
        this.#check(end - start);
        if (end > start) lines.push(text.slice(start, end));
        start = end + 1;
      }
      this.#buffer = text.slice(start);
    }
    this.#check(this.#buffer.length);
    return lines;
  }

  #check(length: number): void {
    if (length > this.#maxChars) {
      this.#buffer = '';
      throw new ProtocolError(`A line is longer than ${this.#maxChars} characters`);
    }
  }
}

/**
 * Hands each line a connection receives to `onLine`, in order, while `onLine` answers true
 * and the connection is up. A stream that is not lines (one too long) goes to `drop`.
 */
export function readLines(
  socket: Duplex,
  onLine: (line: string) => boolean,
  drop: (reason: string) => void,
): void {
  const decoder = new LineDecoder();
  socket.on('data', (chunk: Buffer) => {
    let lines: string[];
    try {
      lines = decoder.push(chunk);
    } catch (error) {
      drop(messageOf(error));
      return;
    }
    for (const line of lines) {
      if (socket.destroyed || !onLine(line)) return;
    }
  });
}

/** A payload as it travels: byte arrays as base64, anything else as JSON. */
function encodePayload(payload: unknown): { payload?: unknown; bytes?: string } {
  if (payload instanceof Uint8Array) {
    return {
      bytes: Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength).toString('base64'),
    };
  }
  return payload === undefined ? {} : { payload };
}

function decodePayload(wire: {
  readonly payload?: unknown;
  readonly bytes?: string | undefined;
}): unknown {
  return wire.bytes === undefined ? wire.payload : Buffer.from(wire.bytes, 'base64');
}

export function toWireMessage(message: Message): WireMessage {
  return { id: message.id, headers: { ...message.headers }, ...encodePayload(message.payload) };
}

export function fromWireMessage(wire: WireMessage): Message {
  return { id: wire.id, headers: wire.headers, payload: decodePayload(wire) };
}

export function toWireEmit(emit: Emit): WireEmit {
  return {
    ...(emit.port === undefined ? {} : { port: emit.port }),
    ...(emit.headers === undefined ? {} : { headers: { ...emit.headers } }),
    ...encodePayload(emit.payload),
  };
}

export function fromWireEmit(wire: WireEmit): Emit {
  return {
    payload: decodePayload(wire),
    ...(wire.port === undefined ? {} : { port: wire.port }),
    ...(wire.headers === undefined ? {} : { headers: wire.headers }),
  };
}
