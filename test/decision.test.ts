// The decision types through a real server: SCORE and GATE route messages by a score,
// CLASSIFY labels them, and ASK puts a question as a pending approval whose signal answers it
// (SPEC Events 9, CONTRACT 2: GATE has the ports pass and block).
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';
import { eventually } from './support/wait.js';

let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(running: TestServer, workflowId: string, payload: unknown): Promise<string> {
  const started = await running.call('POST', '/api/workflow/start', {
    body: { sessionId: 'd', workflowId, payload },
  });
  expect(started.status, started.text).toBe(202);
  return started.json.data.executionId as string;
}

async function resultsByNode(running: TestServer, id: string): Promise<Record<string, unknown[]>> {
  await eventually(
    () => running.call('GET', `/api/executions/${id}`),
    (answer) => answer.json.data.status === 'COMPLETED',
  );
  const results = await running.call('GET', `/api/executions/${id}/results`);
  const byNode: Record<string, unknown[]> = {};
  for (const result of results.json.data as { nodeId: string; payload: unknown }[]) {
    (byNode[result.nodeId] ??= []).push(result.payload);
  }
  return byNode;
}

describe('decision types in workflows', () => {
  it('scores each order, lets the high scores pass the gate and blocks the rest, then classifies what passed', async () => {
    server = await startTestServer();
    const created = await server.call('POST', '/api/sessions', {
      body: {
        sessionId: 'd',
        name: 'd',
        initiator: 'i',
        workflows: [
          {
            workflowId: 'triage',
            description: 'scores, gates and classifies orders',
            nodes: [
              { nodeId: 'in', type: 'API_TRIGGER', config: { splitArray: true } },
              { nodeId: 'score', type: 'SCORE', config: { expression: 'amount / 100' } },
              { nodeId: 'gate', type: 'GATE', config: { expression: 'score >= 1' } },
              {
                nodeId: 'classify',
                type: 'CLASSIFY',
                config: { classes: [{ name: 'big', expression: 'score >= 5' }] },
              },
              { nodeId: 'blocked', type: 'NOTIFY_TERMINAL' },
              { nodeId: 'big', type: 'NOTIFY_TERMINAL' },
              { nodeId: 'other', type: 'NOTIFY_TERMINAL' },
            ],
            edges: [
              { source: 'in', target: 'score' },
              { source: 'score', target: 'gate' },
              { source: 'gate', target: 'classify', sourcePort: 'pass' },
              { source: 'gate', target: 'blocked', sourcePort: 'block' },
              { source: 'classify', target: 'big', sourcePort: 'big' },
              { source: 'classify', target: 'other', sourcePort: 'default' },
            ],
          },
        ],
      },
    });
    expect(created.status, created.text).toBe(201);
    const id = await start(server, 'triage', [{ amount: 50 }, { amount: 700 }, { amount: 200 }]);
    expect(await resultsByNode(server, id)).toEqual({
      blocked: [{ amount: 50, score: 0.5 }],
      big: [{ amount: 700, score: 7, class: 'big' }],
      other: [{ amount: 200, score: 2, class: 'default' }],
    });
  });

  it('asks a question as a pending approval and emits the answer the signal gives', async () => {
    server = await startTestServer();
    await server.call('POST', '/api/sessions', {
      body: {
        sessionId: 'd',
        name: 'd',
        initiator: 'i',
        workflows: [
          {
            workflowId: 'ask',
            description: 'asks a person',
            nodes: [
              { nodeId: 'in', type: 'API_TRIGGER' },
              { nodeId: 'ask', type: 'ASK', config: { question: 'Price for {{item}}?' } },
              { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
            ],
            edges: [
              { source: 'in', target: 'ask' },
              { source: 'ask', target: 'out' },
            ],
          },
        ],
      },
    });
    const id = await start(server, 'ask', { item: 'lamp' });
    const pending = await eventually(
      () => server!.call('GET', '/api/sessions/d/approvals'),
      (answer) => (answer.json.data as unknown[]).length === 1,
    );
    expect(pending.json.data[0]).toMatchObject({
      executionId: id,
      nodeId: 'ask',
      prompt: 'Price for lamp?',
      payload: { item: 'lamp' },
    });
    const signal = await server.call('POST', `/api/executions/${id}/nodes/ask/signal`, {
      body: { approved: true, payload: 42 },
    });
    expect(signal.status).toBe(200);
    expect(await resultsByNode(server, id)).toEqual({
      out: [
        {
          question: 'Price for lamp?',
          answer: 42,
          approved: true,
          comment: null,
          payload: { item: 'lamp' },
        },
      ],
    });
  });
});
