// Outgoing calls as a trace shows them (SPEC Tracing): a plugin that calls another service
// wraps the call in a client span through its context and sends the span's headers, so the
// callee joins the run's trace. Plugins never see a tracing library; with tracing off every
// call gets the same inert span and costs nothing.

/** Attribute values a span takes (OpenTelemetry's primitive values). */
export type SpanAttributeValue = string | number | boolean;

export type SpanAttributes = Readonly<Record<string, SpanAttributeValue>>;

/** A call a plugin is about to make to another service. */
export interface OutgoingCall {
  /**
   * The span's name, of few distinct values (the OpenTelemetry semantic conventions' names):
   * the HTTP method (`POST`), `tools/call <tool>` for MCP, `chat <model>` for a model call.
   */
  readonly name: string;
  /**
   * What is known before the call, under the semantic conventions' names:
   * `http.request.method`, `server.address`, `gen_ai.request.model`, `mcp.method.name`...
   * Never a secret: no query strings, keys or payloads.
   */
  readonly attributes: SpanAttributes;
}

/** The span of one outgoing call. */
export interface CallSpan {
  /**
   * Headers that carry the trace context to the callee (W3C `traceparent`, and `tracestate`
   * when there is one): add them to the request. Empty when tracing is off.
   */
  readonly headers: Readonly<Record<string, string>>;
  /** Adds what the answer told (`http.response.status_code`, token counts). */
  set(attributes: SpanAttributes): void;
  /** Ends the span, failed when `error` is given. Only the first call counts. */
  end(error?: unknown): void;
}

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** The span of every call when tracing is off: it records nothing and adds no header. */
export const NO_CALL_SPAN: CallSpan = Object.freeze({
  headers: NO_HEADERS,
  set: () => undefined,
  end: () => undefined,
});

/**
 * Runs `call` inside a client span: it gets the headers to send, and the span ends with the
 * call, failed when the call throws.
 */
export async function withCallSpan<T>(
  span: CallSpan,
  call: (headers: Readonly<Record<string, string>>) => Promise<T>,
): Promise<T> {
  try {
    const result = await call(span.headers);
    span.end();
    return result;
  } catch (error) {
    span.end(error);
    throw error;
  }
}

/**
 * `server.address` and `server.port` of a call to `url` (OpenTelemetry conventions), the port
 * its scheme implies when none is written; nothing for a URL that does not parse.
 */
export function serverAttributes(url: URL | null): SpanAttributes {
  if (url === null) return {};
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  return { 'server.address': url.hostname, 'server.port': port };
}
