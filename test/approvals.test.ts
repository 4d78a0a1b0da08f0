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
      config: { prompt: 'Ship it?', ...(timeoutSeconds === undefined ? {} : { timeoutSeconds }) },
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

  it('waits per message, lists pending approvals, and routes approved and rejected answers to their ports', async () => {
    const start = await server.call('POST', '/api/workflow/start', {
      body: { sessionId: 's', workflowId: 'approve', payload: [{ item: 'a' }, { item: 'b' }] },
    });
    const id = start.json.data.executionId as string;
    // The node answers one message at a time; the next waits behind it.
    const pending = await eventually(
      () => server.call('GET', `/api/executions/${id}/approvals`),
      (answer) => answer.json.data.length === 1,
    );
    expect(pending.json.data[0]).toMatchObject({
      executionId: id,
      nodeId: 'ask',
      prompt: 'Ship it?',
      payload: { item: 'a' },
    });
    expect((await record(id)).json.data.nodes.ask.status).toBe('WAITING');
    const bySession = await server.call('GET', '/api/sessions/s/approvals');
    expect(
      bySession.json.data.map((approval: { executionId: string }) => approval.executionId),
    ).toContain(id);

    const first = pending.json.data[0].messageId as string;
    const approved = await server.call('POST', `/api/executions/${id}/nodes/ask/signal`, {
      body: { approved: true, messageId: first, comment: 'fine' },
    });
    expect(approved.status).toBe(200);
    await eventually(
      () => server.call('GET', `/api/executions/${id}/approvals`),
      (answer) => answer.json.data.length === 1 && answer.json.data[0].messageId !== first,
    );
    const rejected = await server.call('POST', `/api/executions/${id}/nodes/ask/signal`, {
      body: { approved: false, payload: { item: 'b', reason: 'too risky' } },
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
    expect(byNode).toEqual({ yes: { item: 'a' }, no: { item: 'b', reason: 'too risky' } });
    expect((await server.call('GET', `/api/executions/${id}/approvals`)).json.data).toEqual([]);
    const audit = await server.call('GET', `/api/control/audit?executionId=${id}`);
    expect(audit.json.data.map((entry: { command: string }) => entry.command)).toEqual([
      'SIGNAL',
      'SIGNAL',
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
      const first = await eventually(pendingOf, (answer) => answer.json.data.length === 1);
      answered = first.json.data[0].messageId as string;
      const signalled = await server.call('POST', `/api/executions/${id}/nodes/ask/signal`, {
        body: { approved: true, messageId: answered, comment: 'fine' },
      });
      expect(signalled.status).toBe(200);
      const second = await eventually(
        pendingOf,
        (answer) => answer.json.data.length === 1 && answer.json.data[0].messageId !== answered,
      );
      timedOut = second.json.data[0].messageId as string;
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
