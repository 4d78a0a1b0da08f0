// What a node of a run received and sent, read from the checkpoints (docs/history-and-recovery.md):
// GET /api/executions/{id}/nodes/{nodeId}/messages, paged, with 409 where they were not kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';
import { endOf, eventually } from './support/wait.js';
import { slowWorkflow } from './support/workflows.js';

const workflow = {
  workflowId: 'numbers',
  nodes: [
    { nodeId: 'in', type: 'CONSTANT_SOURCE', config: { messages: [1, 2, 3] } },
    { nodeId: 'double', type: 'MAPPER', config: { expression: '$ * 2' } },
    { nodeId: 'big', type: 'FILTER', config: { expression: '$ > 2' } },
    { nodeId: 'kept', type: 'NOTIFY_TERMINAL' },
  ],
  edges: [
    { source: 'in', target: 'double' },
    { source: 'double', target: 'big' },
    { source: 'big', target: 'kept', sourcePort: 'out' },
  ],
};

async function runOn(server: TestServer): Promise<string> {
  await server.call('POST', '/api/sessions', {
    body: { sessionId: 'm', name: 'm', initiator: 'i', workflows: [workflow] },
  });
  const started = await server.call('POST', '/api/workflow/start', {
    body: { sessionId: 'm', workflowId: 'numbers' },
  });
  const id = started.json.data.executionId as string;
  expect((await endOf(server, id)).status).toBe('COMPLETED');
  return id;
}

const payloads = (answer: { json: { data: { items: { payload: unknown }[] } } }): unknown[] =>
  answer.json.data.items.map((item) => item.payload);

describe("A node's recorded messages", () => {
  let server: TestServer;
  let id: string;
  beforeAll(async () => {
    server = await startTestServer();
    id = await runOn(server);
  });
  afterAll(async () => {
    await server.close();
  });

  const messages = (nodeId: string, query = '') =>
    server.call('GET', `/api/executions/${id}/nodes/${nodeId}/messages${query}`);

  it('answers what a node sent, oldest first, with the port each left on', async () => {
    const sent = await messages('double');
    expect(sent.status).toBe(200);
    expect(payloads(sent)).toEqual([2, 4, 6]);
    expect(sent.json.data.items[0]).toEqual({
      messageId: expect.any(String),
      port: 'out',
      payload: 2,
      headers: expect.objectContaining({ attempt: 1 }),
    });
    expect(sent.json.data.nextCursor).toBeNull();
    const filtered = await messages('big', '?direction=out');
    expect(filtered.json.data.items.map((item: { port: string }) => item.port)).toEqual([
      'rejected',
      'out',
      'out',
    ]);
  });

  it('answers what a node received: its parents output on the edges into it, by port', async () => {
    expect(payloads(await messages('double', '?direction=in'))).toEqual([1, 2, 3]);
    expect(payloads(await messages('kept', '?direction=in'))).toEqual([4, 6]);
    expect(payloads(await messages('in', '?direction=in'))).toEqual([]);
  });

  it('pages with limit and cursor', async () => {
    const first = await messages('double', '?limit=2');
    expect(payloads(first)).toEqual([2, 4]);
    expect(first.json.data.nextCursor).toBe('2');
    const second = await messages('double', `?limit=2&cursor=${first.json.data.nextCursor}`);
    expect(payloads(second)).toEqual([6]);
    expect(second.json.data.nextCursor).toBeNull();
  });

  it('answers an unknown node 404, and a bad direction, limit or cursor 400', async () => {
    const unknown = await messages('nope');
    expect(unknown.status).toBe(404);
    expect(unknown.json.message).toBe(`Node 'nope' does not exist in execution '${id}'`);
    for (const query of ['?direction=sideways', '?limit=0', '?cursor=abc']) {
      expect((await messages('double', query)).status, query).toBe(400);
    }
    expect((await server.call('GET', '/api/executions/none/nodes/x/messages')).status).toBe(404);
  });
});

describe('Recorded messages that were not kept', () => {
  it('answers 409 saying why when an output went over the checkpoint caps', async () => {
    const server = await startTestServer({ env: { SVC_RESTART_MESSAGES_PER_NODE: '2' } });
    try {
      const id = await runOn(server);
      const answer = await server.call('GET', `/api/executions/${id}/nodes/double/messages`);
      expect(answer.status).toBe(409);
      expect(answer.json.message).toBe(
        `The messages of node 'double' in execution '${id}' were not kept: the output of node 'double' went over the in-memory checkpoint caps (set svc.restart.spill-dir or svc.restart.dir to keep it)`,
      );
    } finally {
      await server.close();
    }
  });

  it('answers 409 saying the messages can be read once a node still running has ended', async () => {
    const server = await startTestServer();
    try {
      await server.call('POST', '/api/sessions', {
        body: { sessionId: 'w', name: 'w', initiator: 'i', workflows: [slowWorkflow()] },
      });
      const started = await server.call('POST', '/api/workflow/start', {
        body: { sessionId: 'w', workflowId: 'slow' },
      });
      const id = started.json.data.executionId as string;
      const waiting = (direction: string) =>
        server.call('GET', `/api/executions/${id}/nodes/wait/messages?direction=${direction}`);
      const sent = await eventually(
        () => waiting('out'),
        (answer) => answer.status === 409,
      );
      expect(sent.json.message).toBe(
        `The messages of node 'wait' in execution '${id}' can be read once node 'wait' has ended: it is still producing output`,
      );
      // What it received comes from its parent, which has ended.
      expect(payloads(await waiting('in'))).toEqual([{}]);
      const after = await server.call(
        'GET',
        `/api/executions/${id}/nodes/out/messages?direction=in`,
      );
      expect(after.status).toBe(409);
      expect(after.json.message).toContain("once node 'wait' has ended");
    } finally {
      await server.close();
    }
  });
});
