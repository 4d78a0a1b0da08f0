// Starts over REST: 50 connections start a trigger -> mapper -> terminal workflow through the
// whole server, each run completing, beside plain Fastify answering the same request with the
// same body to the same load in the same run. The load comes from a process of its own
// (autocannon, as Fastify's own benchmarks use), as real clients do; it competes for the two
// cores alike in both measures.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import Fastify from 'fastify';
import { createApp } from '../src/app.js';
import type { App } from '../src/app.js';
import { defaultSettings } from '../src/config/index.js';
import { createSilentLoggers } from '../src/observability/index.js';
import { TEST_BUILD_INFO } from '../test/support/server.js';
import { medianPair } from './harness.js';
import type { Bench, BenchResult } from './harness.js';

const CONNECTIONS = 50;
const REQUESTS = 20_000;
const WARMUP_REQUESTS = 4_000;
const PATH = '/api/workflow/start';
const BODY = JSON.stringify({ sessionId: 'bench', workflowId: 'short', payload: { n: 1 } });

const workflow = {
  workflowId: 'short',
  description: 'trigger, mapper, terminal',
  nodes: [
    { nodeId: 'in', type: 'API_TRIGGER' },
    { nodeId: 'map', type: 'MAPPER', config: { expression: '{"ok": true}' } },
    { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
  ],
  edges: [
    { source: 'in', target: 'map' },
    { source: 'map', target: 'out' },
  ],
};

interface LoadResult {
  /** Answers with a 2xx status. */
  readonly ok: number;
  readonly failed: number;
  readonly seconds: number;
}

/** Sends `amount` starts over `CONNECTIONS` connections from a process of its own. */
function load(port: number, amount: number): Promise<LoadResult> {
  const autocannon = createRequire(import.meta.url).resolve('autocannon');
  const script = `
    const autocannon = require(${JSON.stringify(autocannon)});
    // Timed here, up to the last answer: autocannon ends its run, and its own duration, on a
    // tick of its one-second sampling interval.
    const started = process.hrtime.bigint();
    let last = started;
    const instance = autocannon({
      url: 'http://127.0.0.1:${port}${PATH}',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: ${JSON.stringify(BODY)},
      connections: ${CONNECTIONS},
      amount: ${amount},
    }, (error, result) => {
      if (error) { process.stderr.write(String(error) + '\\n'); process.exit(1); }
      process.stdout.write(JSON.stringify({
        ok: result['2xx'],
        failed: result.errors + result.timeouts + result.non2xx,
        seconds: Number(last - started) / 1e9,
      }));
    });
    instance.on('response', () => { last = process.hrtime.bigint(); });
  `;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) resolve(JSON.parse(output) as LoadResult);
      else reject(new Error(`the load generator exited with ${code}`));
    });
  });
}

/** Resolves once the server holds no running or queued execution. */
async function drained(app: App): Promise<void> {
  while (app.executions.running > 0 || app.executions.queued > 0) {
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/** The server with the bench's session, on a free port, and the body it answers a start. */
async function startServer(): Promise<{ app: App; port: number; answer: string }> {
  const app = await createApp({
    settings: { ...defaultSettings('prod'), 'svc.server.port': 0 },
    profile: 'prod',
    buildInfo: TEST_BUILD_INFO,
    loggers: createSilentLoggers(),
  });
  const { port } = await app.listen();
  await app.sessions.createSession(
    { sessionId: 'bench', name: 'bench', initiator: 'bench', workflows: [workflow] },
    'bench',
  );
  const answer = await (
    await fetch(`http://127.0.0.1:${port}${PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: BODY,
    })
  ).text();
  return { app, port, answer };
}

/** Starts per second over REST, counting the time until the last run completed. */
async function serverRate(app: App, port: number, amount: number): Promise<number> {
  const result = await load(port, amount);
  const loaded = process.hrtime.bigint();
  await drained(app);
  if (result.failed > 0) throw new Error(`${result.failed} starts failed`);
  // The load generator's clock, which leaves out its start-up, plus the time the server
  // took after the last answer to complete the runs still going.
  const draining = Number(process.hrtime.bigint() - loaded) / 1e9;
  return result.ok / (result.seconds + draining);
}

/** Answers per second of plain Fastify answering every start with the server's body, 202. */
async function plainRate(port: number, amount: number): Promise<number> {
  const result = await load(port, amount);
  if (result.failed > 0) throw new Error(`${result.failed} plain answers failed`);
  return result.ok / result.seconds;
}

/**
 * Both servers listen side by side and are loaded in turn, warmed up first; a single measure
 * of either moves by a tenth or more with what else the two cores run, so the median of the
 * pairs taken back to back is reported.
 */
async function measuredPairs(): Promise<{ server: number; plain: number }> {
  const { app, port, answer } = await startServer();
  const plain = Fastify();
  const body = JSON.parse(answer) as unknown;
  plain.post(PATH, (_request, reply) => reply.code(202).send(body));
  try {
    await plain.listen({ host: '127.0.0.1', port: 0 });
    const address = plain.server.address();
    const plainPort = typeof address === 'object' && address !== null ? address.port : 0;
    await serverRate(app, port, WARMUP_REQUESTS);
    await plainRate(plainPort, WARMUP_REQUESTS);
    return await medianPair(
      async () => ({
        server: await serverRate(app, port, REQUESTS),
        plain: await plainRate(plainPort, REQUESTS),
      }),
      (pair) => pair.server / pair.plain,
    );
  } finally {
    await plain.close();
    await app.close();
  }
}

export const httpStartBench: Bench = {
  name: 'http.start',
  async run(): Promise<BenchResult[]> {
    const { server, plain } = await measuredPairs();
    return [
      {
        name: 'http.start.rate',
        value: server,
        unit: 'starts/s',
        baseline: plain,
        ratio: server / plain,
        goal: '>= 0.25 of plain Fastify',
      },
    ];
  },
};
