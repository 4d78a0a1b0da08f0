// SPEC "Events" 9 and CONTRACT section 4: WAIT_FOR_SIGNAL, the signal call and pending
// approvals, through a real server.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileCheckpointStore } from '../src/stores/index.js';
import { startTestServer } from './support/server.js';
import type { HttpAnswer, TestServer } from './support/server.js';
import { eventually } from './support/wait.js';

const approvalFlow = (timeoutSeconds?: number) => ({
  workflowId: timeoutSeconds === undefined ? 'approve' : 'approve-fast',
  description: 'asks a human',
  nodes: [
    { nodeId: 'in', type: 'API_TRIGGER', config: { splitArray: true } },
    {
      nodeId: 'ask',
      type: 'WAIT_FOR_SIGNAL',
      config: {
        prompt: 'Ship {{item}}?',
        ...(timeoutSeconds === undefined ? {} : { timeoutSeconds }),
      },
    },
    { nodeId: 'yes', type: 'NOTIFY_TERMINAL' },
    { nodeId: 'no', type: 'NOTIFY_TERMINAL' },
  ],
  edges: [
    { source: 'in', target: 'ask' },
    { source: 'ask', target: 'yes', sourcePort: 'approved' },
    { source: 'ask', target: 'no', sourcePort: 'rejected' },
  ],
});

describe('WAIT_FOR_SIGNAL and approvals (SPEC Events 9, CONTRACT 4)', () => {
  let server: TestServer;
  const record = (id: string): Promise<HttpAnswer> => server.call('GET', `/api/executions/${id}`);

  beforeAll(async () => {
    server = await startTestServer();
    await server.call('POST', '/api/sessions', {
      body: {
        sessionId: 's',
        name: 's',
        initiator: 'i',
        workflows: [approvalFlow(), approvalFlow(1)],
      },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('lists every message a node holds as a pending approval, with the prompt rendered over each, and routes answers given in any order to their ports', async () => {
    const start = await server.call('POST', '/api/workflow/start', {
      body: { sessionId: 's', workflowId: 'approve', payload: [{ item: 'a' }, { item: 'b' }] },
    });
    const id = start.json.data.executionId as string;
    // Both messages wait at once, not only the oldest: each is an approval of its own.
    const pending = await eventually(
      () => server.call('GET', `/api/executions/${id}/approvals`),
      (answer) => answer.json.data.length === 2,
    );
    expect(pending.json.data).toEqual([
      expect.objectContaining({
        executionId: id,
        sessionId: 's',
        workflowId: 'approve',
        nodeId: 'ask',
        prompt: 'Ship a?',
        payload: { item: 'a' },
      }),
      expect.objectContaining({ nodeId: 'ask', prompt: 'Ship b?', payload: { item: 'b' } }),
    ]);
    const [first, second] = pending.json.data.map(
      (approval: { messageId: string }) => approval.messageId,
    ) as [string, string];
    expect(first).not.toBe(second);
    expect((await record(id)).json.data.nodes.ask.status).toBe('WAITING');
    const bySession = await server.call('GET', '/api/sessions/s/approvals');
    expect(
      bySession.json.data
        .filter((approval: { executionId: string }) => approval.executionId === id)
        .map((approval: { prompt: string }) => approval.prompt),
    ).toEqual(['Ship a?', 'Ship b?']);

    // The newer message is answered first; the older one still waits.
    const approved = await server.call('POST', `/api/executions/${id}/nodes/ask/signal`, {
      body: { approved: true, messageId: second, comment: 'fine' },
    });
    expect(approved.status).toBe(200);
    const left = await eventually(
      () => server.call('GET', `/api/executions/${id}/approvals`),
      (answer) => answer.json.data.length === 1,
    );
    expect(left.json.data[0].messageId).toBe(first);
    const rejected = await server.call('POST', `/api/executions/${id}/nodes/ask/signal`, {
      // Without a messageId the oldest waiting message is answered.
      body: { approved: false, payload: { item: 'a', reason: 'too risky' } },
    });
    expect(rejected.status).toBe(200);
    await eventually(
      () => record(id),
      (answer) => answer.json.data.status === 'COMPLETED',
    );
    const results = await server.call('GET', `/api/executions/${id}/results`);
    const byNode = Object.fromEntries(
      results.json.data.map((r: { nodeId: string; payload: unknown }) => [r.nodeId, r.payload]),
    );
    expect(byNode).toEqual({ yes: { item: 'b' }, no: { item: 'a', reason: 'too risky' } });
    expect((await server.call('GET', `/api/executions/${id}/approvals`)).json.data).toEqual([]);
    const audit = await server.call('GET', `/api/control/audit?executionId=${id}`);
    expect(audit.json.data.map((entry: { command: string }) => entry.command)).toEqual([
      'SIGNAL',
      'SIGNAL',
    ]);
  });

  it('refuses a WAIT_FOR_SIGNAL prompt that is not a valid Handlebars template when the workflow is saved', async () => {
    const { workflowId, ...draft } = approvalFlow();
    const nodes = draft.nodes.map((node) =>
      node.nodeId === 'ask' ? { ...node, config: { prompt: 'Ship {{#if item}}?' } } : node,
    );
    const saved = await server.call('PUT', `/api/sessions/s/workflows/${workflowId}-broken`, {
      body: { ...draft, nodes },
    });
    expect(saved.status).toBe(400);
    expect(saved.json.errors).toEqual([
      {
        field: 'nodes[1].config.prompt',
        message: expect.stringMatching(/^Invalid Handlebars template: /),
      },
    ]);
  });

  it('answers 409 when the node is not waiting for that signal, and 404 for an unknown node', async () => {
    const start = await server.call('POST', '/api/workflow/start', {
      body: { sessionId: 's', workflowId: 'approve', payload: [{ item: 'c' }] },
    });
    const id = start.json.data.executionId as string;
    await eventually(
      () => server.call('GET', `/api/executions/${id}/approvals`),
      (answer) => answer.json.data.length === 1,
    );
    expect(
      (
        await server.call('POST', `/api/executions/${id}/nodes/in/signal`, {
          body: { approved: true },
        })
      ).status,
    ).toBe(409);
    expect(
      (
        await server.call('POST', `/api/executions/${id}/nodes/ask/signal`, {
          body: { approved: true, messageId: 'nope' },
        })
      ).status,
    ).toBe(409);
    expect(
      (
        await server.call('POST', `/api/executions/${id}/nodes/ghost/signal`, {
          body: { approved: true },
        })
      ).status,
    ).toBe(404);
    expect(
      (await server.call('POST', `/api/executions/${id}/nodes/ask/signal`, { body: {} })).status,
    ).toBe(400);
    await server.call('POST', `/api/executions/${id}/stop`);
  });

  it('ends the wait TIMED_OUT after timeoutSeconds, and a pause freezes that time (SPEC rule 1)', async () => {
    const start = await server.call('POST', '/api/workflow/start', {
      body: { sessionId: 's', workflowId: 'approve-fast', payload: [{ item: 'd' }] },
    });
    const id = start.json.data.executionId as string;
    await eventually(
      () => server.call('GET', `/api/executions/${id}/approvals`),
      (answer) => answer.json.data.length === 1,
    );
    await server.call('POST', `/api/executions/${id}/pause`);
    // Paused past the node's timeout: proves that a pause freezes the wait's time.
    await new Promise((resolve) => setTimeout(resolve, 1300));
    expect((await record(id)).json.data.nodes.ask.status).toBe('WAITING');
    await server.call('POST', `/api/executions/${id}/resume`);
    const done = await eventually(
      () => record(id),
      (answer) => answer.json.data.status !== 'RUNNING',
    );
    expect(done.json.data.nodes.ask.status).toBe('TIMED_OUT');
    expect((await server.call('GET', `/api/executions/${id}/approvals`)).json.data).toEqual([]);
  });
});

describe('Recorded approvals (SPEC Events 9)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'approvals-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('records an answered approval with the checkpoints and does not record a timed-out one (SPEC Events 9)', async () => {
    // The file checkpoint store: what the server recorded is read back after it has stopped.
    const server = await startTestServer({ argv: [`--svc.restart.dir=${dir}`] });
    let id: string;
    let answered: string;
    let timedOut: string;
    try {
      await server.call('POST', '/api/sessions', {
        body: { sessionId: 's', name: 's', initiator: 'i', workflows: [approvalFlow(1)] },
      });
      const start = await server.call('POST', '/api/workflow/start', {
        body: {
          sessionId: 's',
          workflowId: 'approve-fast',
          payload: [{ item: 'e' }, { item: 'f' }],
        },
      });
      id = start.json.data.executionId as string;
      const pendingOf = () => server.call('GET', `/api/executions/${id}/approvals`);
      const both = await eventually(pendingOf, (answer) => answer.json.data.length === 2);
      answered = both.json.data[0].messageId as string;
      timedOut = both.json.data[1].messageId as string;
      const signalled = await server.call('POST', `/api/executions/${id}/nodes/ask/signal`, {
        body: { approved: true, messageId: answered, comment: 'fine' },
      });
      expect(signalled.status).toBe(200);
      // Nobody answers the second message: its wait ends after timeoutSeconds.
      const done = await eventually(
        () => server.call('GET', `/api/executions/${id}`),
        (answer) => !['RUNNING', 'PAUSED'].includes(answer.json.data.status as string),
      );
      expect(done.json.data.nodes.ask.status).toBe('TIMED_OUT');
      const checkpoints = await server.call('GET', `/api/executions/${id}/checkpoints`);
      expect(checkpoints.json.data.store).toBe('file');
    } finally {
      await server.close();
    }

    const store = new FileCheckpointStore({ dir });
    await store.open();
    try {
      const recorded = await store.approvals(id);
      expect(recorded).toEqual([
        expect.objectContaining({
          nodeId: 'ask',
          messageId: answered,
          approved: true,
          comment: 'fine',
        }),
      ]);
      expect(recorded.map((approval) => approval.messageId)).not.toContain(timedOut);
    } finally {
      await store.close();
    }
  });
});
