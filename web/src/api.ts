// Calls of the REST API through the typed client generated from the API description: the key
// kept in sessionStorage goes as a Bearer token, answers are unwrapped from the response
// envelope, and a refusal carries the envelope's message.
import { ApiError, createApiClient, dataOf, errorOf } from '../../src/client/index.js';
import type { CallResult, operations } from '../../src/client/index.js';

export { ApiError };
export { isTerminalStatus } from '../../src/client/index.js';
export type { ApiSchemas } from '../../src/client/index.js';

/** The filters of the execution search. */
export type SearchQuery = NonNullable<operations['searchExecutions']['parameters']['query']>;

const KEY_ITEM = 'svc.api-key';

export function storedKey(): string | null {
  return sessionStorage.getItem(KEY_ITEM);
}

export function storeKey(key: string | null): void {
  if (key === null || key === '') sessionStorage.removeItem(KEY_ITEM);
  else sessionStorage.setItem(KEY_ITEM, key);
}

function authorization(): Record<string, string> {
  const key = storedKey();
  return key === null ? {} : { authorization: `Bearer ${key}` };
}

/** The typed client; every call carries the key in use at the time. */
export const api = createApiClient({ baseUrl: window.location.origin });
api.use({
  onRequest({ request }) {
    const key = storedKey();
    if (key !== null) request.headers.set('authorization', `Bearer ${key}`);
    return request;
  },
});

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

function explained(error: ApiError): ApiError {
  return error.enveloped
    ? error
    : new ApiError(error.status, refusalWithoutBody(error.status), [], false);
}

/** Waits for a call of `api` and answers its envelope's `data`; a refusal throws an ApiError. */
export async function call<D>(request: Promise<CallResult<D>>): Promise<D> {
  try {
    return await dataOf(request);
  } catch (error) {
    throw error instanceof ApiError ? explained(error) : error;
  }
}

export function errorFromAnswer(status: number, text: string): ApiError {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return explained(errorOf(status, body));
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
