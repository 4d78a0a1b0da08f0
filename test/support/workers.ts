// A control plane (the real server in-process, built with workers) and workers in the same
// process, over real sockets; and runs of small workflows to their end.
import { loadSettings } from '../../src/config/index.js';
import type { BuildInfo } from '../../src/config/index.js';
import { createLoggers } from '../../src/observability/index.js';
import type { Loggers } from '../../src/observability/index.js';
import { createWorkerApp } from '../../src/worker-app.js';
import type { WorkerApp } from '../../src/worker-app.js';
import { TEST_BUILD_INFO, startTestServer } from './server.js';
import type { TestServer } from './server.js';

export const WORKERS_BUILD: BuildInfo = { ...TEST_BUILD_INFO, workers: true };
export const TOKEN = 'worker-token-for-tests';

export interface ControlPlaneOptions {
  readonly argv?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  /** Where the control plane logs; nowhere by default. */
  readonly loggers?: Loggers;
}

/** Loggers at `level` whose every line is kept, parsed, in `lines`. */
export function capturedLoggers(level: 'INFO' | 'DEBUG' = 'INFO'): {
  loggers: Loggers;
  lines: Record<string, unknown>[];
} {
  const lines: Record<string, unknown>[] = [];
  const loggers = createLoggers(
    { root: level, app: level, engine: level },
    {
      write: (line: string) => {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      },
    },
  );
  return { loggers, lines };
}

/** The server of a build with workers, accepting workers on a free loopback port. */
export async function startControlPlane(options: ControlPlaneOptions = {}): Promise<TestServer> {
  const server = await startTestServer({
    buildInfo: WORKERS_BUILD,
    argv: [`--svc.workers.token=${TOKEN}`, '--svc.workers.listen-port=0', ...(options.argv ?? [])],
    env: options.env ?? {},
    ...(options.loggers === undefined ? {} : { loggers: options.loggers }),
  });
  if (server.workers === undefined) throw new Error('the control plane does not accept workers');
  return server;
}

export interface TestWorker extends WorkerApp {
  /** Every line the worker logged, parsed. */
  readonly logLines: Record<string, unknown>[];
}

export interface WorkerOptions {
  readonly argv?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly token?: string;
  /** The control plane's host name as the worker names it; 127.0.0.1 by default. */
  readonly host?: string;
  /** Whether to wait for the control plane's welcome. */
  readonly connected?: boolean;
}

/** A worker of this process, connected to the control plane of `server`. */
export async function startWorker(
  server: TestServer,
  options: WorkerOptions = {},
): Promise<TestWorker> {
  const port = server.workers?.port ?? 0;
  const { settings } = loadSettings({
    argv: [
      '--svc.workers.role=worker',
      `--svc.workers.connect=${options.host ?? '127.0.0.1'}:${port}`,
      `--svc.workers.token=${options.token ?? TOKEN}`,
      ...(options.argv ?? []),
    ],
    env: options.env ?? {},
  });
  const { loggers, lines: logLines } = capturedLoggers();
  const worker = await createWorkerApp({
    settings,
    buildInfo: WORKERS_BUILD,
    loggers,
    env: options.env ?? {},
    retryMs: 50,
  });
  if (options.connected !== false) await worker.client.connected;
  return { ...worker, logLines };
}

/** Creates session `s` if needed, saves the workflow and starts it; answers the execution id. */
export async function startRun(
  server: TestServer,
  workflow: { readonly workflowId: string },
  payload?: unknown,
): Promise<string> {
  await server.call('POST', '/api/sessions', {
    body: { sessionId: 's', name: 's', initiator: 'i' },
  });
  const saved = await server.call('PUT', `/api/sessions/s/workflows/${workflow.workflowId}`, {
    body: workflow,
  });
  if (saved.status >= 300) throw new Error(`workflow not saved: ${saved.text}`);
  const start = await server.call('POST', '/api/workflow/start', {
    body: { sessionId: 's', workflowId: workflow.workflowId, payload },
  });
  if (start.status !== 202) throw new Error(`run not started: ${start.text}`);
  return start.json.data.executionId as string;
}

/** API_TRIGGER (the start payload) -> the node, `placed` -> NOTIFY_TERMINAL `out`. */
export function placedFlow(
  workflowId: string,
  node: { readonly type: string; readonly config: Record<string, unknown> },
) {
  return {
    workflowId,
    description: 'one placed node',
    nodes: [
      { nodeId: 'in', type: 'API_TRIGGER' },
      { nodeId: 'placed', type: node.type, config: node.config },
      { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
    ],
    edges: [
      { source: 'in', target: 'placed' },
      { source: 'placed', target: 'out' },
    ],
  };
}

/** Reads one meter's value through the management endpoint. */
export async function meter(server: TestServer, name: string): Promise<number> {
  const answer = await server.call('GET', `/actuator/metrics/${name}`);
  return answer.json.measurements[0].value as number;
}
