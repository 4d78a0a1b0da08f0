// Starts the real server in-process on a free port, and calls it over real HTTP.
import { createApp } from '../../src/app.js';
import type { App, AppOptions } from '../../src/app.js';
import { loadSettings } from '../../src/config/index.js';
import type { BuildInfo } from '../../src/config/index.js';
import { createSilentLoggers } from '../../src/observability/index.js';

export const TEST_BUILD_INFO: BuildInfo = {
  version: '0.0.1-SNAPSHOT',
  commit: 'test',
  buildTime: '2026-01-01T00:00:00.000Z',
  plugins: [
    'process-executor',
    'http-request',
    'file-io',
    'sql-query',
    'llm-call',
    'session-memory',
    'decision',
    'mcp-tool-call',
  ],
  persistence: false,
  workers: false,
};

export interface TestServer {
  readonly baseUrl: string;
  readonly app: App;
  call(method: string, path: string, options?: CallOptions): Promise<HttpAnswer>;
  close(): Promise<void>;
}

export interface CallOptions {
  /** A value to send as JSON, or a string sent as it is. */
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
}

export interface HttpAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  // Tests read answers field by field; `any` keeps those reads short.
  // Answers are read field by field in assertions.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly json: any;
}

export interface TestServerOptions {
  readonly argv?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly buildInfo?: BuildInfo;
  readonly store?: AppOptions['store'];
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const { settings, profile } = loadSettings({
    argv: ['--svc.server.port=0', ...(options.argv ?? [])],
    env: options.env ?? {},
    features: { postgres: false },
  });
  const app = await createApp({
    settings,
    profile,
    buildInfo: options.buildInfo ?? TEST_BUILD_INFO,
    loggers: createSilentLoggers(),
    env: options.env ?? {},
    ...(options.store ? { store: options.store } : {}),
  });
  const { port } = await app.listen();
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    app,
    call: (method, path, callOptions) => call(baseUrl, method, path, callOptions),
    close: () => app.close(),
  };
}

export async function call(
  baseUrl: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<HttpAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body } : {}),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    // Not JSON: the test reads `text`.
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** A request sent exactly as written: `fetch` would normalise paths such as `/a/%2e%2e`. */
export async function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{
  status: number;
  text: string;
  headers: Record<string, string | string[] | undefined>;
}> {
  const { request } = await import('node:http');
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method, headers }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, text, headers: res.headers });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
