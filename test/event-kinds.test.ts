// CONTRACT section 3, "Event": every kind a run can go through is sent on the global event
// stream, each with `kind`, `timestamp`, `executionId`, `sessionId` and `workflowId`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSse, startTestServer } from './support/server.js';
import type { SseClient, SseEvent, TestServer } from './support/server.js';
import { eventually } from './support/wait.js';
import { slowWorkflow } from './support/workflows.js';

const steady = {
  workflowId: 'steady',
  description: 'five messages, a little delay each',
  nodes: [
    { nodeId: 'in', type: 'CONSTANT_SOURCE', config: { messages: [1, 2, 3, 4, 5] } },
    { nodeId: 'map', type: 'MAPPER', config: { expression: '$ * 10' } },
    { nodeId: 'wait', type: 'DELAY', config: { delayMs: 40 } },
    { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
  ],
  edges: [
    { source: 'in', target: 'map' },
    { source: 'map', target: 'wait' },
    { source: 'wait', target: 'out' },
  ],
};

/** The command fails: process execution is off on this server. */
const failing = {
  workflowId: 'failing',
  description: 'a command that may not run',
  nodes: [
    { nodeId: 'in', type: 'MANUAL' },
    { nodeId: 'cmd', type: 'PROCESS_EXECUTOR', config: { command: 'true' } },
    { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
  ],
  edges: [
    { source: 'in', target: 'cmd' },
    { source: 'cmd', target: 'out' },
  ],
};

const asking = (timeoutSeconds: number) => ({
  workflowId: `ask${timeoutSeconds}`,
  description: 'one message to approve',
  nodes: [
    { nodeId: 'in', type: 'MANUAL' },
    { nodeId: 'ask', type: 'WAIT_FOR_SIGNAL', config: { timeoutSeconds, prompt: 'ok?' } },
    { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
  ],
  edges: [
    { source: 'in', target: 'ask' },
    { source: 'ask', target: 'out', sourcePort: 'approved' },
  ],
});

const slow = slowWorkflow();

interface Seen {
  readonly kind: string;
  readonly nodeId: string | undefined;
}

describe('Event kinds (CONTRACT 3)', () => {
  let server: TestServer;
  let client: SseClient;

  beforeAll(async () => {
    server = await startTestServer();
    await server.call('POST', '/api/sessions', {
      body: {
        sessionId: 's',
        name: 's',
        initiator: 'i',
        workflows: [steady, failing, asking(3600), asking(1), slow],
      },
    });
    client = await openSse(server.baseUrl, '/api/events?sessionId=s');
  });
  afterAll(async () => {
    client.close();
    await server.close();
  });

  const ofRun = (id: string): SseEvent[] =>
    client.events.filter((event) => (event.data as { executionId: string }).executionId === id);
  const seen = (id: string): Seen[] =>
    ofRun(id).map((event) => {
      const data = event.data as { kind: string; nodeId?: string };
      return { kind: data.kind, nodeId: data.nodeId };
    });
  const waitFor = (id: string, kind: string, nodeId?: string): Promise<SseEvent[]> =>
    client.until((events) =>
      events.some((event) => {
        const data = event.data as { kind: string; executionId: string; nodeId?: string };
        return (
          data.executionId === id &&
          data.kind === kind &&
          (nodeId === undefined || data.nodeId === nodeId)
        );
      }),
    );
  const start = async (workflowId: string): Promise<string> => {
    const answer = await server.call('POST', '/api/workflow/start', {
      body: { sessionId: 's', workflowId },
    });
    expect(answer.status).toBe(202);
    return answer.json.data.executionId as string;
  };
  const post = async (path: string): Promise<void> => {
    const answer = await server.call('POST', path);
    expect(answer.status, answer.text).toBe(200);
  };

  it('sends paused, resumed and stopped for a run, and paused and resumed for a node', async () => {
    const id = await start('steady');
    await waitFor(id, 'node.started', 'wait');
    await post(`/api/executions/${id}/pause`);
    await waitFor(id, 'execution.paused');
    await post(`/api/executions/${id}/resume`);
    await waitFor(id, 'execution.resumed');
    await post(`/api/executions/${id}/nodes/wait/pause`);
    await waitFor(id, 'node.paused', 'wait');
    await post(`/api/executions/${id}/nodes/wait/resume`);
    await waitFor(id, 'node.resumed', 'wait');
    await post(`/api/executions/${id}/stop`);
    await waitFor(id, 'execution.stopped');
    const kinds = seen(id);
    // A resumed node is not started again.
    expect(
      kinds.filter((event) => event.kind === 'node.started' && event.nodeId === 'wait'),
    ).toHaveLength(1);
    for (const event of ofRun(id)) {
      expect(event.event).toBe((event.data as { kind: string }).kind);
      expect(event.data).toMatchObject({
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        sessionId: 's',
        workflowId: 'steady',
      });
    }
  });

  it('sends failed for the node that failed, upstream_failed behind it, and failed for the run', async () => {
    const id = await start('failing');
    await waitFor(id, 'execution.failed');
    expect(seen(id)).toEqual(
      expect.arrayContaining([
        { kind: 'node.failed', nodeId: 'cmd' },
        { kind: 'node.upstream_failed', nodeId: 'out' },
        { kind: 'execution.failed', nodeId: undefined },
      ]),
    );
  });

  it('sends skipped for a skipped processor', async () => {
    const id = await start('steady');
    await post(`/api/executions/${id}/nodes/wait/skip`);
    await waitFor(id, 'execution.completed');
    expect(seen(id)).toContainEqual({ kind: 'node.skipped', nodeId: 'wait' });
  });

  it('sends waiting and approval requested, answered and timed out, and timed_out for the node', async () => {
    const answered = await start('ask3600');
    await waitFor(answered, 'approval.requested', 'ask');
    expect(seen(answered)).toContainEqual({ kind: 'node.waiting', nodeId: 'ask' });
    const signal = await server.call('POST', `/api/executions/${answered}/nodes/ask/signal`, {
      body: { approved: true },
    });
    expect(signal.status).toBe(200);
    await waitFor(answered, 'execution.completed');
    expect(seen(answered)).toContainEqual({ kind: 'approval.answered', nodeId: 'ask' });

    const timedOut = await start('ask1');
    await waitFor(timedOut, 'execution.failed');
    expect(seen(timedOut)).toEqual(
      expect.arrayContaining([
        { kind: 'approval.timed_out', nodeId: 'ask' },
        { kind: 'node.timed_out', nodeId: 'ask' },
      ]),
    );
  });

  it('sends queued for a start that waits for a slot, and timed_out when its wait is over', async () => {
    const limits = await server.call(
      'POST',
      '/api/scheduler/limits?maxConcurrent=1&onLimit=QUEUE&queueTimeout=200',
    );
    expect(limits.status).toBe(200);
    try {
      const holder = await start('slow');
      const waiting = await start('slow');
      await waitFor(waiting, 'execution.timed_out');
      expect(seen(waiting).map((event) => event.kind)).toEqual([
        'execution.queued',
        'execution.timed_out',
      ]);
      await post(`/api/executions/${holder}/stop`);
      await eventually(
        () => server.call('GET', `/api/executions/${holder}`),
        (answer) => answer.json.data.status === 'STOPPED',
      );
    } finally {
      await server.call(
        'POST',
        '/api/scheduler/limits?maxConcurrent=off&onLimit=REJECT&queueTimeout=off',
      );
    }
  });
});
