// CONTRACT section 4 run and node controls, SPEC "States and transitions" rule 1 and "Errors"
// (404, 403, 409), through a real server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from './support/server.js';
import type { HttpAnswer, TestServer } from './support/server.js';

const flow = {
  workflowId: 'steady',
  description: 'five messages, a little delay each',
  nodes: [
    { nodeId: 'in', type: 'CONSTANT_SOURCE', config: { messages: [1, 2, 3, 4, 5] } },
    { nodeId: 'map', type: 'MAPPER', config: { expression: '$ * 10' } },
    { nodeId: 'wait', type: 'DELAY', config: { delayMs: 30 } },
    { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
  ],
  edges: [
    { source: 'in', target: 'map' },
    { source: 'map', target: 'wait' },
    { source: 'wait', target: 'out' },
  ],
};

async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const value = await read();
    if (check(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('condition not reached');
}

describe('Run and node controls (CONTRACT 4)', () => {
  let server: TestServer;
  const record = (id: string): Promise<HttpAnswer> => server.call('GET', `/api/executions/${id}`);
  const results = async (id: string): Promise<unknown[]> =>
    (await server.call('GET', `/api/executions/${id}/results`)).json.data.map(
      (r: { payload: unknown }) => r.payload,
    );
  const start = async (): Promise<string> =>
    (
      await server.call('POST', '/api/workflow/start', {
        body: { sessionId: 's', workflowId: 'steady' },
      })
    ).json.data.executionId as string;

  beforeAll(async () => {
    server = await startTestServer();
    await server.call('POST', '/api/sessions', {
      body: { sessionId: 's', name: 's', initiator: 'i', workflows: [flow] },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('pauses a run (nothing moves, status PAUSED) and resumes it losing nothing', async () => {
    const id = await start();
    const paused = await server.call('POST', `/api/executions/${id}/pause`);
    expect(paused.status).toBe(200);
    expect((await record(id)).json.data.status).toBe('PAUSED');
    const before = (await results(id)).length;
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect((await results(id)).length).toBe(before);
    expect((await server.call('POST', `/api/executions/${id}/resume`)).status).toBe(200);
    const done = await eventually(
      () => record(id),
      (answer) => answer.json.data.status === 'COMPLETED',
    );
    expect(done.json.data.status).toBe('COMPLETED');
    expect(await results(id)).toEqual([10, 20, 30, 40, 50]);
  });

  it('steps only a paused run (409 otherwise) and keeps it paused', async () => {
    const id = await start();
    expect((await server.call('POST', `/api/executions/${id}/step`)).status).toBe(409);
    await server.call('POST', `/api/executions/${id}/pause`);
    const stepped = await server.call('POST', `/api/executions/${id}/step`);
    expect(stepped.status).toBe(200);
    expect((await record(id)).json.data.status).toBe('PAUSED');
    await server.call('POST', `/api/executions/${id}/stop`);
  });

  it('holds each message at a breakpoint WAITING until the node is stepped or resumed', async () => {
    const id = await start();
    const set = await server.call('PUT', `/api/executions/${id}/breakpoints`, {
      body: { nodeIds: ['wait'] },
    });
    expect(set.status).toBe(200);
    expect((await server.call('GET', `/api/executions/${id}/breakpoints`)).json.data).toEqual({
      nodeIds: ['wait'],
    });
    await eventually(
      () => record(id),
      (answer) => answer.json.data.nodes.wait.status === 'WAITING',
    );
    const held = (await results(id)).length;
    await server.call('POST', `/api/executions/${id}/nodes/wait/step`);
    await eventually(
      () => results(id),
      (payloads) => payloads.length === held + 1,
    );
    await server.call('PUT', `/api/executions/${id}/breakpoints`, { body: { nodeIds: [] } });
    await server.call('POST', `/api/executions/${id}/nodes/wait/resume`);
    await eventually(
      () => record(id),
      (answer) => answer.json.data.status === 'COMPLETED',
    );
    expect(await results(id)).toEqual([10, 20, 30, 40, 50]);
  });

  it('skips a processor: messages pass through unchanged; a trigger cannot be skipped (400)', async () => {
    await server.call('PUT', '/api/sessions/s/workflows/late-map', {
      body: {
        description: 'the mapper sits behind a delay',
        nodes: [
          { nodeId: 'in', type: 'CONSTANT_SOURCE', config: { messages: [1, 2, 3] } },
          { nodeId: 'wait', type: 'DELAY', config: { delayMs: 200 } },
          { nodeId: 'map', type: 'MAPPER', config: { expression: '$ * 10' } },
          { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
        ],
        edges: [
          { source: 'in', target: 'wait' },
          { source: 'wait', target: 'map' },
          { source: 'map', target: 'out' },
        ],
      },
    });
    const started = await server.call('POST', '/api/workflow/start', {
      body: { sessionId: 's', workflowId: 'late-map' },
    });
    const id = started.json.data.executionId as string;
    const skipped = await server.call('POST', `/api/executions/${id}/nodes/map/skip`);
    expect(skipped.status).toBe(200);
    expect(skipped.json.data.status).toBe('SKIPPED');
    const trigger = await server.call('POST', `/api/executions/${id}/nodes/in/skip`);
    expect(trigger.status).toBe(400);
    const done = await eventually(
      () => record(id),
      (answer) => answer.json.data.status === 'COMPLETED',
    );
    expect(done.json.data.nodes.map.status).toBe('SKIPPED');
    expect(await results(id)).toEqual([1, 2, 3]);
  });

  it('pauses and resumes one node', async () => {
    const id = await start();
    expect((await server.call('POST', `/api/executions/${id}/nodes/wait/pause`)).status).toBe(200);
    await eventually(
      () => record(id),
      (answer) => answer.json.data.nodes.wait.status === 'PAUSED',
    );
    expect((await server.call('POST', `/api/executions/${id}/nodes/wait/resume`)).status).toBe(200);
    await eventually(
      () => record(id),
      (answer) => answer.json.data.status === 'COMPLETED',
    );
  });

  it('stops one node: it ends STOPPED and the nodes behind it UPSTREAM_FAILED', async () => {
    const id = await start();
    expect((await server.call('POST', `/api/executions/${id}/nodes/wait/stop`)).status).toBe(200);
    const done = await eventually(
      () => record(id),
      (answer) => answer.json.data.status !== 'RUNNING',
    );
    expect(done.json.data.nodes.wait.status).toBe('STOPPED');
    expect(done.json.data.nodes.out.status).toBe('UPSTREAM_FAILED');
  });

  it('answers 404 for an unknown node, 409 for an ended run, 403 for a node command carrying an approval', async () => {
    const id = await start();
    expect((await server.call('POST', `/api/executions/${id}/nodes/ghost/pause`)).status).toBe(404);
    const approval = await server.call('POST', `/api/executions/${id}/nodes/wait/resume`, {
      body: { approved: true },
    });
    expect(approval.status).toBe(403);
    expect(approval.json.message).toMatch(/signal/);
    await eventually(
      () => record(id),
      (answer) => answer.json.data.status === 'COMPLETED',
    );
    expect((await server.call('POST', `/api/executions/${id}/pause`)).status).toBe(409);
    expect((await server.call('POST', '/api/executions/none/pause')).status).toBe(404);
  });

  it('records every control command in the audit, applied or refused', async () => {
    const id = await start();
    await server.call('POST', `/api/executions/${id}/pause`);
    await server.call('POST', `/api/executions/${id}/nodes/ghost/skip`);
    await server.call('POST', `/api/executions/${id}/resume`);
    const audit = await server.call('GET', `/api/control/audit?executionId=${id}`);
    expect(
      audit.json.data.map(
        (entry: { command: string; outcome: string }) => `${entry.command}:${entry.outcome}`,
      ),
    ).toEqual(['RESUME:APPLIED', 'SKIP:REFUSED', 'PAUSE:APPLIED']);
  });
});
