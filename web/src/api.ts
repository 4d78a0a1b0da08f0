// Calls of the REST API: the key kept in sessionStorage goes as a Bearer token, answers are
// unwrapped from the response envelope, and a refusal carries the envelope's message.

const KEY_ITEM = 'svc.api-key';

export function storedKey(): string | null {
  return sessionStorage.getItem(KEY_ITEM);
}

export function storeKey(key: string | null): void {
  if (key === null || key === '') sessionStorage.removeItem(KEY_ITEM);
  else sessionStorage.setItem(KEY_ITEM, key);
}

export interface FieldError {
  readonly field: string;
  readonly message: string;
}

export class ApiError extends Error {
  readonly status: number;
  readonly fields: readonly FieldError[];

  constructor(status: number, message: string, fields: readonly FieldError[] = []) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.fields = fields;
  }
}

interface Envelope {
  readonly message?: unknown;
  readonly data?: unknown;
  readonly errors?: unknown;
}

function authorization(): Record<string, string> {
  const key = storedKey();
  return key === null ? {} : { authorization: `Bearer ${key}` };
}

function parseEnvelope(text: string): Envelope | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function isFieldError(value: unknown): value is FieldError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as FieldError).field === 'string' &&
    typeof (value as FieldError).message === 'string'
  );
}

/** The access checks answer 401, 403 and 400 without a body (SPEC Authentication). */
function refusalWithoutBody(status: number): string {
  switch (status) {
    case 401:
      return '401: this server needs an API key; enter one at the top of the page.';
    case 403:
      return '403: the key (or this host) may not do this.';
    case 400:
      return '400: the server refused an ambiguous path.';
    default:
      return `The server answered ${status}.`;
  }
}

export function errorFromAnswer(status: number, text: string): ApiError {
  const envelope = parseEnvelope(text);
  if (envelope === undefined || typeof envelope.message !== 'string') {
    return new ApiError(status, refusalWithoutBody(status));
  }
  const fields = Array.isArray(envelope.errors) ? envelope.errors.filter(isFieldError) : [];
  return new ApiError(status, envelope.message, fields);
}

/** One API call; answers the envelope's `data`. */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...authorization() };
  const init: RequestInit = { method, headers };
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const text = await response.text();
  if (!response.ok) throw errorFromAnswer(response.status, text);
  return parseEnvelope(text)?.data as T;
}

export interface StreamEvent {
  readonly id: string | null;
  readonly event: string;
  readonly data: unknown;
}

/**
 * Reads a server-sent-events stream with fetch: EventSource cannot send the key header.
 * Resolves when the server ends the stream; rejects on a refusal or a broken connection.
 */
export async function readEventStream(
  path: string,
  onEvent: (event: StreamEvent) => void,
  options: { readonly signal: AbortSignal; readonly lastEventId: string | null },
): Promise<void> {
  const headers: Record<string, string> = { accept: 'text/event-stream', ...authorization() };
  if (options.lastEventId !== null) headers['last-event-id'] = options.lastEventId;
  const response = await fetch(path, { headers, signal: options.signal });
  if (!response.ok || response.body === null) {
    throw errorFromAnswer(response.status, await response.text());
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    // An event ends with a blank line; line ends may be \n, \r\n or \r.
    for (let end = blankLine(buffer); end !== null; end = blankLine(buffer)) {
      const block = buffer.slice(0, end.start);
      buffer = buffer.slice(end.start + end.length);
      const parsed = parseBlock(block);
      if (parsed !== undefined) onEvent(parsed);
    }
  }
}

function blankLine(text: string): { start: number; length: number } | null {
  const match = /\r\n\r\n|\n\n|\r\r/.exec(text);
  return match === null ? null : { start: match.index, length: match[0].length };
}

function parseBlock(block: string): StreamEvent | undefined {
  let id: string | null = null;
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split(/\r\n|\n|\r/)) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const raw = colon === -1 ? '' : line.slice(colon + 1);
    const value = raw.startsWith(' ') ? raw.slice(1) : raw;
    if (field === 'id') id = value;
    else if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length === 0) return undefined;
  const text = data.join('\n');
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: the text itself is the data.
  }
  return { id, event, data: parsed };
}
