// Memory bounded by bytes, not only counts (docs/limits.md): many runs with 50 MB payloads keep
// a real server process up with bounded resident memory, the byte budgets count what they
// drop, and a payload over svc.limits.max-payload fails its message with a clear error.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess } from './support/process.js';
import type { ServerProcess } from './support/process.js';
import { call } from './support/server.js';
import type { CallOptions, HttpAnswer } from './support/server.js';
import { endOf } from './support/wait.js';

const MB = 1024 * 1024;
const RUNS = 40;
const PAYLOAD_CHARS = 50_000_000;
const HEAP_MB = 640;

/** A server's resident memory now and at its peak, in bytes (Linux `/proc`). */
async function residentMemory(pid: number): Promise<{ now: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string): number =>
    Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1]);
  return { now: kib('VmRSS') * 1024, peak: kib('VmHWM') * 1024 };
}

/** MANUAL -> a MAPPER projecting `expression` -> NOTIFY_TERMINAL. */
function mapperWorkflow(workflowId: string, expression: string) {
  return {
    workflowId,
    description: 'one payload a run',
    nodes: [
      { nodeId: 'in', type: 'MANUAL' },
      { nodeId: 'shape', type: 'MAPPER', config: { mode: 'PROJECTION', expression } },
      { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
    ],
    edges: [
      { source: 'in', target: 'shape' },
      { source: 'shape', target: 'out' },
    ],
  };
}

/**
 * 50 MB a run. `$pad` alone makes a rope V8 keeps small until it is read; `$uppercase` makes
 * a flat string, so each payload really weighs 50 MB.
 */
const bigWorkflow = mapperWorkflow('big', `{"data": $uppercase($pad("", ${PAYLOAD_CHARS}, "x"))}`);

/** 70 MB, over the 64 MB limit of this server; a rope, so it costs nothing to make. */
const tooBigWorkflow = mapperWorkflow('too-big', '$pad("", 70000000, "x")');

describe('memory bounded by bytes (docs/limits.md)', () => {
  let server: ServerProcess;
  const api = (method: string, path: string, options?: CallOptions): Promise<HttpAnswer> =>
    call(server.baseUrl, method, path, options);

  async function run(workflowId: string): Promise<HttpAnswer['json']> {
    const start = await api('POST', '/api/workflow/start', {
      body: { sessionId: 'mem', workflowId },
    });
    expect(start.status).toBe(202);
    return endOf({ call: api }, start.json.data.executionId as string, 30_000);
  }

  async function dropped(store: string): Promise<number> {
    const meter = await api('GET', `/actuator/metrics/svc.memory.dropped?tag=store:${store}`);
    expect(meter.status).toBe(200);
    return meter.json.measurements[0].value as number;
  }

  beforeAll(async () => {
    server = await startServerProcess(
      [
        // The dev profile's TRACE and DEBUG engine logs would write each payload to the pipe.
        '--svc.logging.level.engine=INFO',
        '--svc.logging.access-log=false',
        '--svc.limits.max-payload=64MB',
        '--svc.results.max-bytes=64MB',
        '--svc.streaming.event-history-max-bytes=64MB',
        '--svc.restart.max-bytes=64MB',
      ],
      // A heap of HEAP_MB: payloads held by count alone would fill it within a dozen runs and
      // end the process, where the byte budgets leave room for the garbage of the runs.
      { NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}` },
    );
    const created = await api('POST', '/api/sessions', {
      body: {
        sessionId: 'mem',
        name: 'Memory',
        initiator: 'ops',
        workflows: [bigWorkflow, tooBigWorkflow],
      },
    });
    expect(created.status).toBe(201);
  });

  afterAll(async () => {
    await server.stop();
  });

  it(`stays up with bounded resident memory through ${RUNS} runs of a 50 MB payload each`, async () => {
    const pid = server.child.pid ?? 0;
    let afterWarmUp = 0;
    for (let n = 1; n <= RUNS; n++) {
      const record = await run('big');
      expect(record.status).toBe('COMPLETED');
      if (n === 10) afterWarmUp = (await residentMemory(pid)).now;
    }
    const health = await api('GET', '/actuator/health');
    expect(health.status).toBe(200);
    expect(health.json.status).toBe('UP');
    const memory = await residentMemory(pid);
    // Held by count alone, the 40 payloads (2 GB) would not fit the heap; the budgets hold
    // about 64 MB each (one payload, shared by results, events and checkpoints), and the rest
    // is the server and garbage not yet collected.
    expect(memory.peak).toBeLessThan(900 * MB);
    expect(memory.now - afterWarmUp).toBeLessThan(300 * MB);
    expect(await dropped('results')).toBeGreaterThanOrEqual(RUNS - 2);
    expect(await dropped('events')).toBeGreaterThanOrEqual(RUNS - 2);
    expect(await dropped('checkpoints')).toBeGreaterThanOrEqual(RUNS - 2);
  }, 120_000);

  it('fails the node whose payload is over svc.limits.max-payload, naming the setting and both sizes', async () => {
    const record = await run('too-big');
    expect(record.status).toBe('FAILED');
    expect(record.nodes.shape).toMatchObject({ status: 'FAILURE', messagesOut: 0 });
    expect(record.nodes.shape.error).toBe(
      `Payload of at least 70000002 bytes is larger than svc.limits.max-payload (${64 * MB} bytes)`,
    );
    expect(record.nodes.out.messagesIn).toBe(0);
  });
});
