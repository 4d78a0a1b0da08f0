// Generating nodes are paced by the stream (SPEC "What the service does": back-pressure): a
// SPLITTER of millions of items emits lazily, the server keeps answering, a stop ends the run
// at once, and nothing holds a message per item. Through a real server; the server runs in
// this process, so its heap is this process's heap.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';
import { endOf, eventually } from './support/wait.js';

const TEN_MILLION = 10_000_000;
const ONE_MILLION = 1_000_000;

/** MANUAL -> SPLITTER of `[1..count]` -> `keep` -> NOTIFY_TERMINAL. */
function splitFlow(workflowId: string, count: number, keep: Record<string, unknown> | undefined) {
  const nodes = [
    { nodeId: 'in', type: 'MANUAL' },
    { nodeId: 'split', type: 'SPLITTER', config: { expression: `[1..${count}]` } },
    ...(keep === undefined ? [] : [{ nodeId: 'keep', ...keep }]),
    { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
  ];
  const edges =
    keep === undefined
      ? [
          { source: 'in', target: 'split' },
          { source: 'split', target: 'out' },
        ]
      : [
          { source: 'in', target: 'split' },
          { source: 'split', target: 'keep' },
          { source: 'keep', target: 'out', sourcePort: 'out' },
        ];
  return { workflowId, description: `split ${count} items`, nodes, edges };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

describe('A SPLITTER of millions of items (SPEC What the service does: back-pressure)', () => {
  let server: TestServer;

  const start = async (workflowId: string): Promise<string> => {
    const answer = await server.call('POST', '/api/workflow/start', {
      body: { sessionId: 'big', workflowId },
    });
    expect(answer.status).toBe(202);
    return answer.json.data.executionId as string;
  };
  const record = async (id: string) =>
    (await server.call('GET', `/api/executions/${id}`)).json.data;

  beforeAll(async () => {
    server = await startTestServer();
    await server.call('POST', '/api/sessions', {
      body: {
        sessionId: 'big',
        name: 'big',
        initiator: 'i',
        workflows: [
          splitFlow('ten-million', TEN_MILLION, {
            type: 'FILTER',
            config: { expression: '$ % 1000000 = 0' },
          }),
          splitFlow('one-million', ONE_MILLION, undefined),
        ],
      },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('of ten million items keeps /actuator/health answering, holds no message per item, pauses between items and stops within a second', async () => {
    const heapBefore = process.memoryUsage().heapUsed;
    const id = await start('ten-million');
    await eventually(
      () => record(id),
      (data) => data.nodes.split.messagesOut >= 20_000,
      15_000,
    );

    const latencies: number[] = [];
    let heapPeak = 0;
    for (let i = 0; i < 15; i++) {
      const asked = performance.now();
      const health = await server.call('GET', '/actuator/health');
      latencies.push(performance.now() - asked);
      expect(health.status).toBe(200);
      heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
      // Health is asked over a stretch of the split, not in one burst: the spacing is the test.
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const running = await record(id);
    expect(running.status).toBe('RUNNING');
    // The client shares the server's event loop here, and a collection of the young generation
    // on a busy host can take tens of milliseconds: the typical answer is held to the bound,
    // and no answer may wait for the split to end (it took minutes when nothing gave way).
    expect(median(latencies)).toBeLessThan(100);
    expect(Math.max(...latencies)).toBeLessThan(1_000);
    // The ten million numbers the expression yields are held (about 80 MB, twice while
    // JSONata's answer is copied); ten million messages would take gigabytes.
    expect(heapPeak - heapBefore).toBeLessThan(600 * 1024 * 1024);

    // A pause holds the split between two items, and a resume goes on from there.
    expect((await server.call('POST', `/api/executions/${id}/pause`)).status).toBe(200);
    const paused = await eventually(
      () => record(id),
      (data) => data.status === 'PAUSED',
      5_000,
    );
    // What was under way when the pause came finishes first: two reads in a row agree.
    let last = -1;
    const settled = await eventually(
      () => record(id),
      (data) => {
        const same = data.nodes.split.messagesOut === last;
        last = data.nodes.split.messagesOut as number;
        return same;
      },
      5_000,
    );
    const held = settled.nodes.split.messagesOut as number;
    // Read for 300 ms: the count must not move while the run is paused.
    await expect(
      eventually(
        () => record(id),
        (data) => data.nodes.split.messagesOut !== held,
        300,
      ),
    ).rejects.toThrow(/condition not reached/);
    expect(held - (paused.nodes.split.messagesOut as number)).toBeLessThan(1_000);
    expect((await server.call('POST', `/api/executions/${id}/resume`)).status).toBe(200);
    await eventually(
      () => record(id),
      (data) => data.nodes.split.messagesOut > held,
      5_000,
    );

    const stopping = performance.now();
    expect((await server.call('POST', `/api/executions/${id}/stop`)).status).toBe(200);
    const stopped = await endOf(server, id, 5_000);
    expect(performance.now() - stopping).toBeLessThan(1_000);
    expect(stopped.status).toBe('STOPPED');
    expect(stopped.nodes.split.status).toBe('STOPPED');
    expect(stopped.nodes.split.messagesOut).toBeLessThan(TEN_MILLION);
    // The split goes no further once stopped.
    const after = stopped.nodes.split.messagesOut as number;
    await expect(
      eventually(
        () => record(id),
        (data) => data.nodes.split.messagesOut !== after,
        200,
      ),
    ).rejects.toThrow(/condition not reached/);
  });

  it('of one million items runs to completion, each item once, with results and checkpoints held to their caps', async () => {
    const id = await start('one-million');
    const done = await endOf(server, id, 18_000);
    expect(done.status).toBe('COMPLETED');
    expect(done.nodes.split.messagesOut).toBe(ONE_MILLION);
    expect(done.nodes.out.messagesIn).toBe(ONE_MILLION);
    const results = (await server.call('GET', `/api/executions/${id}/results`)).json.data as {
      payload: number;
    }[];
    // svc.results.max-per-execution (1,000): the newest results, in order.
    expect(results.length).toBeLessThanOrEqual(1_000);
    expect(results.at(-1)?.payload).toBe(ONE_MILLION);
    // svc.restart.messages-per-node (200): every message is counted, few are held.
    const checkpoints = await server.call('GET', `/api/executions/${id}/checkpoints`);
    expect(checkpoints.json.data.nodes.split).toMatchObject({
      messages: ONE_MILLION,
      truncated: true,
    });
  }, 20_000);
});
