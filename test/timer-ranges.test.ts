// Every duration and limit the API and settings accept is one the engine honours
// (docs/architecture.md "Ranges"): long run timers are armed in steps, absurd limits refused.
import { describe, expect, it } from 'vitest';
import { connectMcp } from './support/mcp.js';
import { startTestServer } from './support/server.js';
import { slowWorkflow } from './support/workflows.js';
import { eventually } from './support/wait.js';

describe('Durations and limits the engine can honour', () => {
  it('keeps a run with DELAY delayMs 3e9 parked instead of firing its timer at once', async () => {
    // A run deadline above 2^31-1 ms too: Node would fire both after 1 ms.
    const server = await startTestServer({
      env: { SVC_SESSION_EXECUTION_TIMEOUT_SECONDS: '3000000' },
    });
    try {
      const flow = slowWorkflow('month');
      flow.nodes[1] = { nodeId: 'wait', type: 'DELAY', config: { delayMs: 3e9 } };
      await server.call('POST', '/api/sessions', {
        body: { sessionId: 's', name: 's', initiator: 'i', workflows: [flow] },
      });
      const started = await server.call('POST', '/api/workflow/start', {
        body: { sessionId: 's', workflowId: 'month' },
      });
      expect(started.status).toBe(202);
      const id = started.json.data.executionId as string;
      const status = () =>
        server.call('GET', `/api/executions/${id}`).then((answer) => answer.json.data.status);
      await eventually(status, (value) => value === 'RUNNING');
      // Polled for a second: the run must not leave RUNNING (a clamped timer fires in 1 ms).
      await expect(eventually(status, (value) => value !== 'RUNNING', 1000)).rejects.toThrow(
        /condition not reached/,
      );
    } finally {
      await server.close();
    }
  });

  it.each([
    ['queueTimeout', '1e22'],
    ['maxConcurrent', '1e22'],
    ['maxPerSession', '2147483648'],
    ['queueCapacity', '1e22'],
    ['maxConcurrent', '1.5'],
    ['maxPerWorkflow', '-1'],
  ])('refuses scheduler limit %s=%s with a field error', async (field, value) => {
    const server = await startTestServer();
    try {
      const answer = await server.call('POST', `/api/scheduler/limits?${field}=${value}`);
      expect(answer.status).toBe(400);
      expect(answer.json.errors).toEqual([expect.objectContaining({ field })]);
      const limits = await server.call('GET', '/api/scheduler/limits');
      expect(limits.json.data[field]).not.toBe(Number(value));
    } finally {
      await server.close();
    }
  });

  it('refuses set_scheduler_limits with a limit beyond what the engine honours', async () => {
    const server = await startTestServer();
    const mcp = await connectMcp(server.baseUrl);
    try {
      const answer = await mcp.call('set_scheduler_limits', { queueTimeout: 1e22 });
      expect(answer.isError).toBe(true);
      expect(answer.text).toContain('queueTimeout');
      expect((await mcp.call('get_scheduler_limits')).data.queueTimeout).toBeNull();
    } finally {
      await mcp.close();
      await server.close();
    }
  });

  it('refuses at start-up a timer setting Node would fire after 1 ms', async () => {
    await expect(
      startTestServer({ env: { SVC_EXECUTION_QUEUE_TIMEOUT: '1e22' } }),
    ).rejects.toThrow();
    await expect(startTestServer({ env: { SVC_EXECUTION_QUEUE_TIMEOUT: '30d' } })).rejects.toThrow(
      /at most 2147483647ms/,
    );
  });
});
