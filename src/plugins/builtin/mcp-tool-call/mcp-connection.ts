// One node's connection to an MCP server over Streamable HTTP (official SDK client), opened on
// the first message and kept for the run; a connection that broke is opened anew by the next
// attempt. A connection given up ends its MCP session on the server (DELETE), so a stateful
// server does not keep one session per run until its idle timeout. Failures say whether
// another attempt can help.
import { AsyncLocalStorage } from 'node:async_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describeFetchError, StepFailure } from '../../../plugin-api/index.js';

/** The client's name and version as the MCP server sees them. */
const CLIENT_INFO = { name: 'workflow-service', version: '0.0.1-SNAPSHOT' };
/**
 * The SDK's own request timeout: long, since the node's idle timeout (which aborts the call
 * through its signal) is what limits a call.
 */
export const SDK_TIMEOUT_MS = 24 * 60 * 60 * 1000;
/** HTTP statuses of the MCP server a later attempt may get past. */
const RETRYABLE_STATUS = new Set([408, 425, 429, 500, 502, 503, 504]);
/** JSON-RPC errors a later attempt may get past. */
const RETRYABLE_CODES = new Set<number>([
  ErrorCode.ConnectionClosed,
  ErrorCode.RequestTimeout,
  ErrorCode.InternalError,
]);

/**
 * The trace headers of the call under way. The connection is shared by the node's messages, so
 * each call's `traceparent` rides in its own async context rather than in the transport's
 * fixed headers.
 */
const callHeaders = new AsyncLocalStorage<Readonly<Record<string, string>>>();

/** Runs `call` with `headers` added to every request it makes over a connection. */
export function withHeaders<T>(headers: Readonly<Record<string, string>>, call: () => T): T {
  return Object.keys(headers).length === 0 ? call() : callHeaders.run(headers, call);
}

/** fetch, with the trace headers of the call under way. */
const tracedFetch: typeof fetch = (input, init) => {
  const extra = callHeaders.getStore();
  if (extra === undefined) return fetch(input, init);
  const headers = new Headers(init?.headers);
  for (const [name, value] of Object.entries(extra)) headers.set(name, value);
  return fetch(input, { ...init, headers });
};

export class McpConnection {
  readonly #url: URL;
  readonly #headers: Readonly<Record<string, string>>;
  #client: Promise<Client> | undefined;

  constructor(url: string, headers: Readonly<Record<string, string>> = {}) {
    this.#url = new URL(url);
    this.#headers = headers;
  }

  /** The connected client; connects on first use. */
  client(signal: AbortSignal): Promise<Client> {
    this.#client ??= this.#connect(signal).catch((error: unknown) => {
      this.#client = undefined;
      throw error;
    });
    return this.#client;
  }

  /** Forgets a connection that failed, so the next attempt connects again. */
  drop(): void {
    void this.close();
  }

  async close(): Promise<void> {
    const client = this.#client;
    this.#client = undefined;
    await client?.then(end).catch(() => undefined);
  }

  async #connect(signal: AbortSignal): Promise<Client> {
    const transport = new StreamableHTTPClientTransport(this.#url, {
      requestInit: { headers: { ...this.#headers } },
      fetch: tracedFetch,
    });
    const client = new Client(CLIENT_INFO);
    try {
      await client.connect(transport, { signal, timeout: SDK_TIMEOUT_MS });
    } catch (error) {
      await end(client).catch(() => undefined);
      throw error;
    }
    return client;
  }
}

/** How long ending a session may take: a server that does not answer does not hold the run. */
const END_SESSION_TIMEOUT_MS = 2000;

/**
 * Ends the client's MCP session on the server when it has one (a stateless server gives none;
 * a server that does not support ending sessions answers 405, which the SDK accepts), then
 * closes the client.
 */
async function end(client: Client): Promise<void> {
  const transport = client.transport;
  if (transport instanceof StreamableHTTPClientTransport && transport.sessionId !== undefined) {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, END_SESSION_TIMEOUT_MS);
    });
    await Promise.race([transport.terminateSession().catch(() => undefined), late]);
    clearTimeout(timer);
  }
  await client.close();
}

/**
 * What went wrong with a call, without the URL (it may carry a token): retryable for a
 * connection that failed, a server error or throttling, not for a refused request or an
 * unknown tool.
 */
export function mcpFailure(what: string, error: unknown): StepFailure {
  if (error instanceof StepFailure) return error;
  if (error instanceof StreamableHTTPError) {
    const retryable = error.code === undefined || RETRYABLE_STATUS.has(error.code);
    const text = `${what}: the MCP server answered HTTP ${error.code ?? 'with an error'}`;
    return retryable ? StepFailure.retryable(text, error) : StepFailure.nonRetryable(text, error);
  }
  if (error instanceof McpError) {
    const text = `${what}: ${error.message}`;
    return RETRYABLE_CODES.has(error.code)
      ? StepFailure.retryable(text, error)
      : StepFailure.nonRetryable(text, error);
  }
  // fetch failed (connection refused, DNS, TLS) and other transport trouble.
  return StepFailure.retryable(`${what}: ${describeFetchError(error)}`, error);
}
