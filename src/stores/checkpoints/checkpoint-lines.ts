// The line format of the file checkpoint store: one JSON object a line, written and read here
// only. A file starts with a header naming its execution, since long ids are hashed into file
// names; then per node a begin line, its messages and on completion an end marker:
//   {"format":1,"execution":"e1"}
//   {"n":"node","begin":true}
//   {"n":"node","m":{"id":"m1","payload":{"x":1}}}
//   {"n":"node","m":{"id":"m2","payload":2,"port":"rejected","headers":{"attempt":1,"k":"v"}}}
//   {"n":"node","end":true}
//   {"a":{"nodeId":"wait","messageId":"m1","approved":true}}
// A byte-array payload is written as `"base64":"..."` instead of `"payload"`, so it is read
// back as bytes rather than as an object of numbers. The port `out` and the headers of a
// first attempt, which nearly every message has, are left out and read back as such; lines
// are a third shorter and quicker to write. Spill files hold bare message objects.
import { createReadStream } from 'node:fs';
import type { MessageHeaders } from '../../plugin-api/index.js';
import type { RecordedApproval, RecordedMessage, RecordingMessage } from '../../engine/index.js';
import { isNotFound } from '../file/write-file-atomic.js';
import { checkpointDamaged } from './checkpoint-errors.js';
import { isRecordedApproval } from './recorded-approval.js';
import { toJson } from './quick-json.js';

export const CHECKPOINT_FILE_FORMAT = 1;

export function headerLine(executionId: string): string {
  return `{"format":${CHECKPOINT_FILE_FORMAT},"execution":${JSON.stringify(executionId)}}\n`;
}

/** What every line of a node starts with; computed once per node. */
export function nodeLineHead(nodeId: string): string {
  return `{"n":${JSON.stringify(nodeId)},`;
}

/** What every message line of a node starts with, up to its message id; made once per node. */
export function messageLinePrefix(head: string): string {
  return `${head}"m":{"id":"`;
}

export function beginLine(head: string): string {
  return `${head}"begin":true}\n`;
}

export function endLine(head: string): string {
  return `${head}"end":true}\n`;
}

/**
 * What follows a message id in a line up to the payload's end: the id's closing quote and the
 * payload member (`","payload":{"x":1}`, `","base64":"AAE="`, or `"` for an undefined
 * payload, which is read back as undefined). The file store's `EncodedPayload`: a node that
 * passes a payload on unchanged writes it again as it is. Message ids are plain
 * (RecordedMessage), so an id goes between quotes as it is. Throws when the payload cannot be
 * JSON (cyclic, BigInt).
 */
function payloadPart(payload: unknown): string {
  if (payload instanceof Uint8Array) {
    const bytes = Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
    return `","base64":"${bytes.toString('base64')}"`;
  }
  const json = toJson(payload);
  return json === undefined ? '"' : '","payload":' + json;
}

/** The payload part the engine handed back for this payload, or one made now and handed out. */
function payloadPartOf(message: RecordingMessage): string {
  const known = message.encoded;
  if (typeof known === 'string') return known;
  const part = payloadPart(message.payload);
  message.encoded = part;
  return part;
}

/**
 * The port and headers members, after the payload: nothing for port `out` and the headers of
 * a first attempt, which nearly every message has; they are read back as such.
 */
function routingMembers(message: RecordedMessage): string {
  const { port } = message;
  const portJson = port === DEFAULT_PORT ? '' : ',"port":' + JSON.stringify(port);
  return portJson + headersJson(message.headers);
}

/** A message as one JSON object, as spill files hold it. Throws when it cannot be JSON. */
export function messageJson(message: RecordedMessage): string {
  return '{"id":"' + message.id + payloadPart(message.payload) + routingMembers(message) + '}';
}

const DEFAULT_PORT = 'out';
const FIRST_ATTEMPT: MessageHeaders = Object.freeze({ attempt: 1 });

/**
 * The `"headers"` member of a message line, empty for the headers of a first attempt. Runs
 * pass the same headers object along a chain, so the last one's answer is kept.
 */
let lastHeaders: MessageHeaders | undefined;
let lastHeadersJson = '';
function headersJson(headers: MessageHeaders): string {
  if (headers === lastHeaders) return lastHeadersJson;
  const json = toJson(headers);
  if (json === undefined) throw new TypeError('the message headers are not a JSON object');
  const member = json === '{"attempt":1}' ? '' : `,"headers":${json}`;
  // Only a frozen object cannot change between two messages.
  if (Object.isFrozen(headers)) {
    lastHeaders = headers;
    lastHeadersJson = member;
  }
  return member;
}

/**
 * The line of a message; `prefix` is the node's `messageLinePrefix`. Takes the payload part
 * from `message.encoded` when the engine handed one back, else makes it and sets it there.
 * Throws when the message cannot be JSON.
 */
export function messageLine(prefix: string, message: RecordingMessage): string {
  const part = payloadPartOf(message);
  // Concatenation, not a template: the common line (port `out`, first attempt) is then built
  // from four pieces, and empty members cost nothing.
  return prefix + message.id + part + routingMembers(message) + '}}\n';
}

/** Throws when the approval cannot be JSON. */
export function approvalLine(answer: RecordedApproval): string {
  return `{"a":${JSON.stringify(answer)}}\n`;
}

/** What a line is and whose, read from its first bytes without parsing a payload. */
export type LineHead =
  | { readonly kind: 'header' }
  | { readonly kind: 'approval' }
  | { readonly kind: 'begin'; readonly nodeId: string }
  | { readonly kind: 'message'; readonly nodeId: string }
  | { readonly kind: 'end'; readonly nodeId: string };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;
const NODE_START = Buffer.from('{"n":"');
const MESSAGE_START = Buffer.from(',"m":{');
const BEGIN_REST = Buffer.from(',"begin":true}');
const END_REST = Buffer.from(',"end":true}');
const APPROVAL_START = Buffer.from('{"a":');
const HEADER_START = Buffer.from('{"format":');

const HEADER_LINE: LineHead = { kind: 'header' };
const APPROVAL_LINE: LineHead = { kind: 'approval' };

function startsWithAt(line: Buffer, token: Buffer, at: number): boolean {
  return (
    line.length >= at + token.length &&
    line.compare(token, 0, token.length, at, at + token.length) === 0
  );
}

/** Undefined when the line has none of the shapes this store writes. */
export function readLineHead(line: Buffer): LineHead | undefined {
  if (startsWithAt(line, NODE_START, 0)) {
    // Quotes and backslashes are single bytes in UTF-8, so the id's end is found on bytes.
    let close = NODE_START.length;
    while (close < line.length && line[close] !== QUOTE) {
      close += line[close] === BACKSLASH ? 2 : 1;
    }
    if (close >= line.length) return undefined;
    let nodeId: unknown;
    try {
      nodeId = JSON.parse(line.toString('utf8', NODE_START.length - 1, close + 1));
    } catch {
      return undefined;
    }
    if (typeof nodeId !== 'string') return undefined;
    const rest = close + 1;
    if (startsWithAt(line, MESSAGE_START, rest)) return { kind: 'message', nodeId };
    if (line.length - rest === END_REST.length && startsWithAt(line, END_REST, rest)) {
      return { kind: 'end', nodeId };
    }
    if (line.length - rest === BEGIN_REST.length && startsWithAt(line, BEGIN_REST, rest)) {
      return { kind: 'begin', nodeId };
    }
    return undefined;
  }
  if (startsWithAt(line, APPROVAL_START, 0)) return APPROVAL_LINE;
  if (startsWithAt(line, HEADER_START, 0)) return HEADER_LINE;
  return undefined;
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseLine(line: Buffer): unknown {
  try {
    return JSON.parse(line.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** The message `messageJson` wrote; undefined when the value is not one. */
function toMessage(value: unknown): RecordedMessage | undefined {
  if (!isObject(value)) return undefined;
  const { id } = value;
  const port = value.port ?? DEFAULT_PORT;
  const headers = value.headers ?? FIRST_ATTEMPT;
  if (typeof id !== 'string' || typeof port !== 'string' || !isObject(headers)) return undefined;
  const payload =
    typeof value.base64 === 'string' ? Buffer.from(value.base64, 'base64') : value.payload;
  return { id, port, payload, headers: headers as MessageHeaders };
}

/** The message of a line `messageJson` wrote; undefined when the line is not one. */
export function readMessageJson(line: Buffer): RecordedMessage | undefined {
  return toMessage(parseLine(line));
}

/** The message of a message line; undefined when the line is not one. */
export function readMessage(line: Buffer): RecordedMessage | undefined {
  const parsed = parseLine(line);
  return toMessage(isObject(parsed) ? parsed.m : undefined);
}

/** The approval of an approval line; undefined when the line is not one. */
export function readApproval(line: Buffer): RecordedApproval | undefined {
  const parsed = parseLine(line);
  const answer = isObject(parsed) ? parsed.a : undefined;
  return isRecordedApproval(answer) ? answer : undefined;
}

/** The execution id of a header line; undefined when the line is not a header of this format. */
export function readHeader(line: Buffer): string | undefined {
  const parsed = parseLine(line);
  if (!isObject(parsed) || parsed.format !== CHECKPOINT_FILE_FORMAT) return undefined;
  return typeof parsed.execution === 'string' ? parsed.execution : undefined;
}

/**
 * Calls `visit` with every complete line of the file, without its newline, streaming. What
 * follows the last newline is a line torn by a crash mid-write and is not visited: every
 * write ends on a newline, and JSON escapes the newlines inside strings. Answers false when
 * the file does not exist.
 */
export async function forEachLine(
  file: string,
  visit: (line: Buffer, lineNumber: number) => void,
): Promise<boolean> {
  let lineNumber = 0;
  let carried: Buffer[] = [];
  try {
    for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 })) {
      const bytes = chunk as Buffer;
      let start = 0;
      let newline = bytes.indexOf(NEWLINE, start);
      while (newline !== -1) {
        const piece = bytes.subarray(start, newline);
        const line = carried.length === 0 ? piece : Buffer.concat([...carried, piece]);
        carried = [];
        visit(line, ++lineNumber);
        start = newline + 1;
        newline = bytes.indexOf(NEWLINE, start);
      }
      if (start < bytes.length) carried.push(bytes.subarray(start));
    }
  } catch (error) {
    if (isNotFound(error)) return false;
    throw error;
  }
  return true;
}

/** The error for a complete line that is not what the store wrote. */
export function damagedLine(file: string, lineNumber: number): Error {
  return checkpointDamaged(file, `line ${lineNumber} is not a checkpoint record`);
}
