// SPEC "Runtime profiles": the dev profile's stream-engine TRACE level writes message payloads
// to the console; prod never does.
import { afterEach, describe, expect, it } from 'vitest';
import { startServerProcess } from './support/process.js';
import type { ServerProcess } from './support/process.js';
import { call } from './support/server.js';

const running: ServerProcess[] = [];

afterEach(async () => {
  for (const server of running.splice(0)) {
    server.child.kill('SIGKILL');
    await server.exited();
  }
});

async function runOnce(profile: string, marker: string): Promise<string> {
  const server = await startServerProcess([profile]);
  running.push(server);
  await call(server.baseUrl, 'POST', '/api/sessions', {
    body: {
      sessionId: 'log',
      name: 'Logging',
      initiator: 'ops',
      workflows: [
        {
          workflowId: 'trace',
          description: 'carries a marker',
          nodes: [
            { nodeId: 'in', type: 'API_TRIGGER' },
            { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
          ],
          edges: [{ source: 'in', target: 'out' }],
        },
      ],
    },
  });
  const start = await call(server.baseUrl, 'POST', '/api/workflow/start', {
    body: { sessionId: 'log', workflowId: 'trace', payload: { marker } },
  });
  const id = start.json.data.executionId as string;
  for (let i = 0; i < 200; i++) {
    const record = await call(server.baseUrl, 'GET', `/api/executions/${id}`);
    if (record.json.data.status === 'COMPLETED') break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  // Log lines are written asynchronously; give them a moment to reach the pipe.
  await new Promise((resolve) => setTimeout(resolve, 300));
  return server.output();
}

describe('payload tracing per profile (SPEC Runtime profiles)', () => {
  it('writes message payloads to the console at the dev profile TRACE level', async () => {
    const output = await runOnce('dev', 'dev-marker-5f2c');
    expect(output).toContain('dev-marker-5f2c');
    expect(output).toContain('message in');
  });

  it('never writes message payloads in prod', async () => {
    const output = await runOnce('prod', 'prod-marker-9a1d');
    expect(output).not.toContain('prod-marker-9a1d');
  });
});
