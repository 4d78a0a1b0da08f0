// The live flow of a run on its progress stream (`flow=true`): per-edge loads and rates, and
// the node that holds the others back (SPEC What the service does: a slow consumer slows its
// producers), without changing the stream's numbering (SPEC Events 3).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSse, startTestServer } from './support/server.js';
import type { SseEvent, TestServer } from './support/server.js';
import { endOf } from './support/wait.js';

const bottleneck = {
  workflowId: 'bottleneck',
  description: 'a fast node feeding a slow one',
  nodes: [
    { nodeId: 'in', type: 'API_TRIGGER', config: { splitArray: true } },
    { nodeId: 'fast', type: 'DELAY', config: { delayMs: 0 } },
    // Not 1000 ms: a delay as long as the flow events' interval would keep the two timers in
    // step, and every flow would be read at the same point of the slow node's cycle.
    { nodeId: 'slow', type: 'DELAY', config: { delayMs: 1500 } },
    { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [
    { source: 'in', target: 'fast' },
    { source: 'fast', target: 'slow' },
    { source: 'slow', target: 'out' },
  ],
};

interface FlowEdge {
  readonly source: string;
  readonly target: string;
  readonly queued: number;
  readonly capacity: number;
  readonly sourceWaiting: boolean;
  readonly perSecond: number | null;
}

interface FlowData {
  readonly kind: string;
  readonly flow: {
    readonly heldBackBy: string | null;
    readonly edges: readonly FlowEdge[];
    readonly nodes: readonly { readonly nodeId: string; readonly holdingBack: boolean }[];
  };
}

const flowsOf = (events: readonly SseEvent[]): FlowData[] =>
  events.filter((event) => event.event === 'flow').map((event) => event.data as FlowData);

describe('Live flow on the progress stream', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    await server.call('POST', '/api/sessions', {
      body: { sessionId: 's', name: 's', initiator: 'i', workflows: [bottleneck] },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('reports a slow node’s incoming edge full while its parent waits, and names the slow node', async () => {
    const start = await server.call('POST', '/api/workflow/start', {
      body: {
        sessionId: 's',
        workflowId: 'bottleneck',
        payload: Array.from({ length: 200 }, (_, n) => ({ n })),
      },
    });
    const id = start.json.data.executionId as string;
    const client = await openSse(server.baseUrl, `/api/workflow/s/status/${id}/stream?flow=true`);
    // A flow read while the fast node waits for room (not between taking a message and
    // sending it, when it does not wait and the slow node is named all the same).
    const intoSlow = (data: FlowData) => data.flow.edges.find((edge) => edge.target === 'slow');
    const waitedOn = (data: FlowData) =>
      data.flow.heldBackBy === 'slow' && intoSlow(data)?.sourceWaiting === true;
    const seen = await client.until((events) => flowsOf(events).some(waitedOn), 10_000);
    const held = flowsOf(seen).find(waitedOn);
    const edge = held === undefined ? undefined : intoSlow(held);
    expect(edge).toMatchObject({ source: 'fast', sourceWaiting: true });
    expect(edge?.queued).toBe(edge?.capacity);
    expect(held?.flow.nodes.find((node) => node.nodeId === 'slow')?.holdingBack).toBe(true);
    // Rates come with the second flow event: the slow node takes one every 1.5 s.
    const rated = await client.until(
      (events) => flowsOf(events).some((data) => data.flow.edges.some((e) => e.perSecond !== null)),
      5_000,
    );
    const rate = flowsOf(rated)
      .flatMap((data) => data.flow.edges)
      .find((e) => e.target === 'slow' && e.perSecond !== null)?.perSecond;
    expect(rate).toBeGreaterThanOrEqual(0);
    expect(rate).toBeLessThan(5);
    // Flow events leave the stream's numbering alone: they carry no id.
    expect(rated.filter((event) => event.event === 'flow').every((e) => e.id === null)).toBe(true);
    await server.call('POST', `/api/executions/${id}/stop`);
    await client.ended;
    expect((await endOf(server, id)).status).toBe('STOPPED');
  });

  it('sends no flow events unless asked', async () => {
    const start = await server.call('POST', '/api/workflow/start', {
      body: { sessionId: 's', workflowId: 'bottleneck', payload: [{ n: 1 }, { n: 2 }] },
    });
    const id = start.json.data.executionId as string;
    const client = await openSse(server.baseUrl, `/api/workflow/s/status/${id}/stream`);
    await client.until((events) => events.some((event) => event.event === 'node.started'), 5_000);
    await server.call('POST', `/api/executions/${id}/stop`);
    await client.ended;
    expect(flowsOf(client.events)).toEqual([]);
  });
});
