// SESSION_MEMORY through a real server: every run of a session appends to the same history,
// another workflow of the session reads it, and deleting the session forgets it.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';
import { eventually } from './support/wait.js';

let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const memoryFlow = (workflowId: string, config: Record<string, unknown>) => ({
  workflowId,
  description: 'session memory',
  nodes: [
    { nodeId: 'in', type: 'API_TRIGGER' },
    { nodeId: 'memory', type: 'SESSION_MEMORY', config: { key: 'chat', ...config } },
    { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
  ],
  edges: [
    { source: 'in', target: 'memory' },
    { source: 'memory', target: 'out' },
  ],
});

async function createSession(running: TestServer): Promise<void> {
  const created = await running.call('POST', '/api/sessions', {
    body: {
      sessionId: 'chat',
      name: 'chat',
      initiator: 'i',
      workflows: [memoryFlow('remember', {}), memoryFlow('recall', { operation: 'READ' })],
    },
  });
  expect(created.status, created.text).toBe(201);
}

async function run(running: TestServer, workflowId: string, payload: unknown): Promise<unknown> {
  const start = await running.call('POST', '/api/workflow/start', {
    body: { sessionId: 'chat', workflowId, payload },
  });
  const id = start.json.data.executionId as string;
  await eventually(
    () => running.call('GET', `/api/executions/${id}`),
    (answer) => answer.json.data.status === 'COMPLETED',
  );
  const results = await running.call('GET', `/api/executions/${id}/results`);
  return results.json.data[0].payload as unknown;
}

describe('SESSION_MEMORY in workflows', () => {
  it('keeps what every run of the session appended for other workflows of the session, until the session is deleted', async () => {
    server = await startTestServer();
    await createSession(server);
    expect(await run(server, 'remember', { said: 'hello' })).toEqual({ said: 'hello' });
    await run(server, 'remember', { said: 'how are you' });
    expect(await run(server, 'recall', null)).toEqual({
      key: 'chat',
      entries: [{ said: 'hello' }, { said: 'how are you' }],
    });
    expect((await server.call('DELETE', '/api/sessions/chat')).status).toBeLessThan(300);
    await createSession(server);
    expect(await run(server, 'recall', null)).toEqual({ key: 'chat', entries: [] });
  });
});
