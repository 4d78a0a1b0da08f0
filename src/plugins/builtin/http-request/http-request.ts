// HTTP_REQUEST (optional plugin http-request): one HTTP call per message; the response is the
// emitted payload. Delivery is at-least-once (per-message retries, resumes), so every request
// carries the stable message id as `Idempotency-Key` unless the node sets that header itself.
import {
  serverAttributes,
  definePlugin,
  describeFetchError as describe,
  httpUrl,
  StepFailure,
  z,
} from '../../../plugin-api/index.js';
import type {
  CallSpan,
  Emit,
  Message,
  NodeContext,
  OutgoingCall,
} from '../../../plugin-api/index.js';

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
/** Most response body bytes read; a larger answer fails the message. */
export const MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
/** The `plugin` tag of `svc.plugin.events` for requests. */
export const REQUEST_EVENT = 'http.request';
/** Answers that a later attempt may get right: timeouts, throttling, server errors. */
const RETRYABLE_STATUS = new Set([408, 425, 429, 500, 502, 503, 504]);
/** Methods that send the message payload when the node sets no `body`. */
const METHODS_WITH_BODY = new Set<string>(['POST', 'PUT', 'PATCH', 'DELETE']);

const configSchema = z.looseObject({
  method: z.enum(HTTP_METHODS).default('GET').describe('HTTP method'),
  url: httpUrl().describe('Request URL (http or https)'),
  headers: z.record(z.string(), z.string()).optional().describe('Request headers'),
  body: z
    .unknown()
    .optional()
    .describe(
      'Request body: a string is sent as it is, anything else as JSON. Without it POST, PUT, PATCH and DELETE send the message payload as JSON',
    ),
});

type HttpRequestConfig = z.output<typeof configSchema>;

/** The emitted payload. */
export interface HttpResponsePayload {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Parsed JSON when the answer says it is JSON, else text; null when empty. */
  readonly body: unknown;
}

export const httpRequestPlugin = definePlugin({
  type: 'HTTP_REQUEST',
  kind: 'processor',
  description:
    'Sends one HTTP request per message and emits the response as { status, headers, body }; an error status fails that message.',
  configSchema,
  outputPorts: () => ['out'],
  defaultTimeoutSeconds: 30,
  create: (config) => {
    const call = outgoingCall(config);
    return {
      process: async (message: Message, ctx: NodeContext): Promise<Emit> => {
        const span = ctx.traceCall(call);
        try {
          const payload = await send(config, message, ctx.signal, span);
          span.end();
          ctx.report(REQUEST_EVENT, 'completed');
          return { payload };
        } catch (error) {
          span.end(error);
          ctx.report(REQUEST_EVENT, ctx.signal.aborted ? 'stopped' : 'failed');
          throw error;
        }
      },
    };
  },
});

/**
 * The client span of the node's requests (OpenTelemetry HTTP conventions), made once per node.
 * `url.full` leaves out the query and any user info: URLs often carry a secret there.
 */
export function outgoingCall(config: HttpRequestConfig): OutgoingCall {
  const method = { 'http.request.method': config.method };
  // A URL that does not parse fails each request, as it always did; its span says less.
  const url = URL.parse(config.url);
  if (url === null) return { name: config.method, attributes: method };
  return {
    name: config.method,
    attributes: {
      ...method,
      ...serverAttributes(url),
      'url.full': `${url.origin}${url.pathname}`,
    },
  };
}

interface Body {
  readonly text: string;
  readonly contentType: string;
}

function bodyOf(config: HttpRequestConfig, message: Message): Body | undefined {
  const value =
    config.body !== undefined
      ? config.body
      : METHODS_WITH_BODY.has(config.method)
        ? message.payload
        : undefined;
  if (value === undefined) return undefined;
  if (typeof value === 'string') return { text: value, contentType: 'text/plain; charset=utf-8' };
  let text: string | undefined;
  try {
    text = (JSON.stringify as (value: unknown) => string | undefined)(value);
  } catch (error) {
    throw StepFailure.nonRetryable('The request body cannot be sent as JSON', error);
  }
  return text === undefined ? undefined : { text, contentType: 'application/json' };
}

function requestHeaders(
  config: HttpRequestConfig,
  message: Message,
  body: Body | undefined,
  span: CallSpan,
): Headers {
  let headers: Headers;
  try {
    headers = new Headers(config.headers);
  } catch (error) {
    throw StepFailure.nonRetryable(`Invalid request headers: ${describe(error)}`, error);
  }
  if (!headers.has('idempotency-key')) headers.set('idempotency-key', message.id);
  if (body !== undefined && !headers.has('content-type')) {
    headers.set('content-type', body.contentType);
  }
  // The run's trace context wins over a configured one: the callee's spans belong here.
  for (const [name, value] of Object.entries(span.headers)) headers.set(name, value);
  return headers;
}

/**
 * One request. The URL stays out of error messages: URLs often carry a secret (a token in the
 * query), and errors reach logs and events.
 */
async function send(
  config: HttpRequestConfig,
  message: Message,
  signal: AbortSignal,
  span: CallSpan,
): Promise<HttpResponsePayload> {
  const body = bodyOf(config, message);
  const headers = requestHeaders(config, message, body, span);
  let response: Response;
  try {
    response = await fetch(config.url, {
      method: config.method,
      headers,
      ...(body === undefined ? {} : { body: body.text }),
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw abortReason(signal, config.method);
    throw StepFailure.retryable(`${config.method} request failed: ${describe(error)}`, error);
  }
  span.set({ 'http.response.status_code': response.status });
  const text = await readText(response, config.method, signal);
  if (response.status >= 400) {
    span.set({ 'error.type': String(response.status) });
    const failure = `${config.method} request answered HTTP ${response.status} ${response.statusText}`;
    throw RETRYABLE_STATUS.has(response.status)
      ? StepFailure.retryable(failure.trimEnd())
      : StepFailure.nonRetryable(failure.trimEnd());
  }
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: parseBody(text, response.headers.get('content-type')),
  };
}

/** The body as text, read up to MAX_RESPONSE_BYTES; the connection is released either way. */
async function readText(response: Response, method: string, signal: AbortSignal): Promise<string> {
  const reader = (response.body as ReadableStream<Uint8Array> | null)?.getReader();
  if (reader === undefined) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_RESPONSE_BYTES) {
        await reader.cancel();
        throw StepFailure.nonRetryable(
          `${method} request answered more than ${MAX_RESPONSE_BYTES} bytes`,
        );
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof StepFailure) throw error;
    if (signal.aborted) throw abortReason(signal, method);
    throw StepFailure.retryable(`${method} response could not be read: ${describe(error)}`, error);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseBody(text: string, contentType: string | null): unknown {
  if (text === '') return null;
  if (contentType !== null && /[/+]json\b/i.test(contentType)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // A server that mislabels its answer still answered: its text is kept.
      return text;
    }
  }
  return text;
}

function abortReason(signal: AbortSignal, method: string): unknown {
  const reason: unknown = signal.reason;
  return reason instanceof Error && !(reason instanceof DOMException)
    ? reason
    : StepFailure.retryable(`${method} request was stopped`);
}
