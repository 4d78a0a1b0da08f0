// Starts the real server in-process on a free port, and calls it over real HTTP.
import { createApp } from '../../src/app.js';
import type { App, AppOptions } from '../../src/app.js';
import { DEFAULT_PLUGINS, loadSettings } from '../../src/config/index.js';
import type { BuildInfo } from '../../src/config/index.js';
import { createSilentLoggers } from '../../src/observability/index.js';
import type { Loggers } from '../../src/observability/index.js';

export const TEST_BUILD_INFO: BuildInfo = {
  version: '0.0.1-SNAPSHOT',
  commit: 'test',
  buildTime: '2026-01-01T00:00:00.000Z',
  plugins: [...DEFAULT_PLUGINS],
  persistence: false,
  workers: false,
};

export interface TestServer {
  readonly baseUrl: string;
  readonly app: App;
  /** Where workers connect, when the build has workers and a token is set. */
  readonly workers: { readonly address: string; readonly port: number } | undefined;
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
  readonly streamKeepAliveMs?: number;
  /** Where the server logs; nowhere by default. */
  readonly loggers?: Loggers;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const { settings, profile } = loadSettings({
    argv: ['--svc.server.port=0', ...(options.argv ?? [])],
    env: options.env ?? {},
    ...(options.streamKeepAliveMs === undefined
      ? {}
      : { streamKeepAliveMs: options.streamKeepAliveMs }),
    features: { postgres: (options.buildInfo ?? TEST_BUILD_INFO).persistence },
  });
  const app = await createApp({
    settings,
    profile,
    buildInfo: options.buildInfo ?? TEST_BUILD_INFO,
    loggers: options.loggers ?? createSilentLoggers(),
    env: options.env ?? {},
    // Every answer of every test is held to its documented schema.
    checkAnswers: (mismatch) => {
      console.error('Answer does not match its schema', mismatch);
    },
    ...(options.streamKeepAliveMs === undefined
      ? {}
      : { streamKeepAliveMs: options.streamKeepAliveMs }),
    ...(options.store ? { store: options.store } : {}),
  });
  const { port, workers } = await app.listen();
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    app,
    workers,
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

export interface SseEvent {
  readonly id: number | null;
  readonly event: string | null;
  readonly data: unknown;
}

export interface SseClient {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly events: SseEvent[];
  readonly comments: string[];
  /** Resolves once `predicate` holds for the events so far, or rejects after `timeoutMs`. */
  until(predicate: (events: SseEvent[]) => boolean, timeoutMs?: number): Promise<SseEvent[]>;
  /** Resolves when the server ends the stream. */
  readonly ended: Promise<void>;
  close(): void;
}

/** A minimal server-sent-events client over node:http, for streams that do not end. */
export async function openSse(
  baseUrl: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<SseClient> {
  const { request } = await import('node:http');
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path, method: 'GET', headers },
      (res) => {
        const events: SseEvent[] = [];
        const comments: string[] = [];
        const waiters = new Set<() => void>();
        let buffer = '';
        let endResolve: () => void = () => undefined;
        const ended = new Promise<void>((done) => (endResolve = done));
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let split = buffer.indexOf('\n\n');
          while (split !== -1) {
            const block = buffer.slice(0, split);
            buffer = buffer.slice(split + 2);
            let id: number | null = null;
            let event: string | null = null;
            let data: string | null = null;
            for (const line of block.split('\n')) {
              if (line.startsWith(':')) comments.push(line.slice(1));
              else if (line.startsWith('id: ')) id = Number(line.slice(4));
              else if (line.startsWith('event: ')) event = line.slice(7);
              else if (line.startsWith('data: ')) data = line.slice(6);
            }
            if (data !== null) events.push({ id, event, data: JSON.parse(data) as unknown });
            for (const waiter of waiters) waiter();
            split = buffer.indexOf('\n\n');
          }
        });
        res.on('end', () => {
          endResolve();
          for (const waiter of waiters) waiter();
        });
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          events,
          comments,
          ended,
          until(predicate, timeoutMs = 5000) {
            return new Promise((done, fail) => {
              const check = (): void => {
                if (predicate(events)) {
                  waiters.delete(check);
                  clearTimeout(timer);
                  done(events);
                }
              };
              const timer = setTimeout(() => {
                waiters.delete(check);
                fail(
                  new Error(
                    `stream condition not met; got ${JSON.stringify(events.map((e) => e.event))}`,
                  ),
                );
              }, timeoutMs);
              waiters.add(check);
              check();
            });
          },
          close() {
            req.destroy();
          },
        });
      },
    );
    req.on('error', (error) => {
      if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error);
    });
    req.end();
  });
}
