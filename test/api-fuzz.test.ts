// SPEC "Errors" and "Response envelope" under malformed input: every operation of the served
// API description gets generated, mutated requests. No answer may be a 5xx, leave the
// envelope, take longer than 2 s, or leave the server unable to answer its health probe.
// Seeded: SVC_FUZZ_SEED repeats a run, SVC_FUZZ_RUNS changes its size.
import http from 'node:http';
import { STATUS_CODES } from 'node:http';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { operationsOf, requestFor } from './api-fuzz-inputs.js';
import type { BuildInfo } from '../src/config/index.js';
import type { FuzzRequest } from './api-fuzz-inputs.js';
import { TEST_BUILD_INFO, startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';

const SEED = Number(process.env.SVC_FUZZ_SEED ?? 20_261_126);
const RUNS = Number(process.env.SVC_FUZZ_RUNS ?? 5_000);
const CONCURRENCY = 4;
const SLOW_MS = 2_000;

interface Answer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly text: string;
  readonly ms: number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

/** Sends one request as generated; an event stream is read up to its headers only. */
function send(baseUrl: string, request: FuzzRequest): Promise<Answer> {
  const { port } = new URL(baseUrl);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      {
        host: '127.0.0.1',
        port,
        method: request.method,
        path: request.target,
        headers: request.headers,
        agent,
        timeout: 10_000,
      },
      (response) => {
        const chunks: Buffer[] = [];
        if (String(response.headers['content-type']).startsWith('text/event-stream')) {
          response.destroy();
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text: '',
            ms: performance.now() - started,
          });
          return;
        }
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text: Buffer.concat(chunks).toString('utf8'),
            ms: performance.now() - started,
          });
        });
        response.on('error', reject);
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error('no answer within 10 s')));
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}

/** What is wrong with an answer, or undefined when it keeps every rule. */
function problemOf(request: FuzzRequest, answer: Answer): string | undefined {
  if (answer.status >= 500) return `status ${answer.status}`;
  if (answer.ms > SLOW_MS) return `answered after ${Math.round(answer.ms)} ms`;
  if (typeof answer.headers['x-request-id'] !== 'string') return 'no X-Request-ID';
  if (answer.status < 400) return successProblem(request, answer);
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return `error answer is not JSON: ${JSON.stringify(answer.text.slice(0, 120))}`;
  }
  // The tool endpoint speaks JSON-RPC 2.0, not the envelope (docs/architecture.md).
  if (request.target.startsWith('/mcp') && isJsonRpcError(body)) return undefined;
  return envelopeProblem(body, answer.status);
}

/** An API success is the envelope with `data`; management and tool answers have their own. */
function successProblem(request: FuzzRequest, answer: Answer): string | undefined {
  if (!request.target.startsWith('/api/') || answer.text === '') return undefined;
  try {
    const body = JSON.parse(answer.text) as Record<string, unknown>;
    const keys = Object.keys(body).sort().join(',');
    if (keys !== 'data,message,status,timestamp') return `success envelope fields ${keys}`;
    return body.status === answer.status ? undefined : `success status ${String(body.status)}`;
  } catch {
    return 'success answer is not JSON';
  }
}

function isJsonRpcError(body: unknown): boolean {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  return typeof error?.code === 'number' && typeof error.message === 'string';
}

function envelopeProblem(body: unknown, status: number): string | undefined {
  if (body === null || typeof body !== 'object') return 'error answer is not an object';
  const envelope = body as Record<string, unknown>;
  const keys = Object.keys(envelope).sort().join(',');
  const expected = 'error' in envelope && 'errors' in envelope;
  const allowed = expected
    ? 'error,errors,message,path,status,timestamp'
    : 'error,message,path,status,timestamp';
  if (keys !== allowed) return `envelope fields ${keys}`;
  if (envelope.status !== status) return `envelope status ${String(envelope.status)}`;
  if (envelope.error !== STATUS_CODES[status]) return `reason ${String(envelope.error)}`;
  if (typeof envelope.message !== 'string' || typeof envelope.path !== 'string') {
    return 'message or path is not a string';
  }
  if (Number.isNaN(Date.parse(String(envelope.timestamp)))) return 'timestamp is not a date';
  const errors = envelope.errors;
  if (
    errors !== undefined &&
    (!Array.isArray(errors) ||
      errors.length === 0 ||
      !errors.every(
        (entry: { field?: unknown; message?: unknown }) =>
          typeof entry.field === 'string' && typeof entry.message === 'string',
      ))
  ) {
    return 'errors is not a non-empty list of { field, message }';
  }
  return undefined;
}

function describeRequest(request: FuzzRequest): string {
  const body =
    request.body === undefined ? '' : ` body=${JSON.stringify(request.body.slice(0, 160))}`;
  return `${request.method} ${request.target.slice(0, 200)}${body}`;
}

/** The build of the fuzzed servers: plugins that reach the network or files are left out. */
const SAFE_BUILD: BuildInfo = {
  ...TEST_BUILD_INFO,
  plugins: ['process-executor', 'session-memory', 'decision'],
};

/** A session, a workflow and one run, so that generated ids sometimes name real things. */
async function seed(server: TestServer, headers: Record<string, string>): Promise<string[]> {
  await server.call('POST', '/api/sessions', {
    headers,
    body: {
      sessionId: 'fuzz',
      name: 'Fuzz',
      initiator: 'fuzzer',
      workflows: [
        {
          workflowId: 'wf',
          nodes: [
            { nodeId: 'in', type: 'API_TRIGGER' },
            { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
          ],
          edges: [{ source: 'in', target: 'out' }],
        },
      ],
    },
  });
  const started = await server.call('POST', '/api/workflow/start', {
    headers,
    body: { sessionId: 'fuzz', workflowId: 'wf', payload: { n: 1 } },
  });
  const executionId = String(started.json.data.executionId);
  return ['fuzz', 'wf', 'in', 'out', '1', 'app', 'ROOT', 'MANUAL', 'MAPPER', executionId];
}

/**
 * Sends `runs` generated requests (with `headers` added) and answers what broke a rule, the
 * first 40 at most; the health probe must still answer UP afterwards.
 */
async function fuzz(
  server: TestServer,
  options: {
    runs: number;
    known: readonly string[];
    headers: Record<string, string>;
    bodiless: boolean;
  },
): Promise<string[]> {
  const description = await server.call('GET', '/v3/api-docs');
  const operations = operationsOf(description.json);
  expect(operations.length).toBeGreaterThan(50);
  console.log(`API fuzzing: seed ${SEED} (SVC_FUZZ_SEED), ${options.runs} requests`);
  const requests = fc.sample(
    fc.constantFrom(...operations).chain((operation) => requestFor(operation, options.known)),
    { seed: SEED, numRuns: options.runs },
  );
  const failures: string[] = [];
  const statuses = new Map<number, number>();
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let index = next++; index < requests.length; index = next++) {
      const generated = requests[index];
      if (generated === undefined) continue;
      const request = { ...generated, headers: { ...generated.headers, ...options.headers } };
      try {
        const answer = await send(server.baseUrl, request);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        // SPEC "Responses of the access checks": 401, 403 and 400 with no body.
        const refusal = options.bodiless && [400, 401, 403].includes(answer.status);
        const problem = refusal && answer.text === '' ? undefined : problemOf(request, answer);
        if (problem !== undefined)
          failures.push(`#${index} ${describeRequest(request)}: ${problem}`);
      } catch (error) {
        failures.push(`#${index} ${describeRequest(request)}: ${(error as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  console.log(`API fuzzing: answers by status ${JSON.stringify(Object.fromEntries(statuses))}`);
  const health = await server.call('GET', '/actuator/health', { headers: options.headers });
  expect(health.status).toBe(200);
  expect(health.json.status).toBe('UP');
  return failures.slice(0, 40);
}

describe('API fuzzing (SPEC Errors, Response envelope)', () => {
  afterAll(() => {
    agent.destroy();
  });

  it('answers thousands of malformed requests to every operation without a 5xx, outside the envelope, or slower than 2 s, and stays healthy', async () => {
    const server = await startTestServer({ buildInfo: SAFE_BUILD });
    try {
      const known = await seed(server, {});
      const failures = await fuzz(server, { runs: RUNS, known, headers: {}, bodiless: false });
      expect(failures, `failures with seed ${SEED}`).toEqual([]);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('keeps the same rules for a key limited to one session, where only the access checks answer without a body', async () => {
    const server = await startTestServer({
      buildInfo: SAFE_BUILD,
      env: {
        SVC_API_KEY: 'root-key',
        SVC_API_KEYS_0_NAME: 'operator',
        SVC_API_KEYS_0_KEY: 'operator-key',
        SVC_API_KEYS_0_ROLE: 'OPERATOR',
        SVC_API_KEYS_0_SESSIONS_0: 'fuzz',
      },
    });
    try {
      const known = await seed(server, { authorization: 'Bearer root-key' });
      const failures = await fuzz(server, {
        runs: Math.ceil(RUNS / 4),
        known,
        headers: { authorization: 'Bearer operator-key' },
        bodiless: true,
      });
      expect(failures, `failures with seed ${SEED}`).toEqual([]);
    } finally {
      await server.close();
    }
  }, 120_000);
});
