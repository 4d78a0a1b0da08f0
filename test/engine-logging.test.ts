// SPEC "Runtime profiles": the dev profile's stream-engine TRACE level writes message payloads
// to the console; prod never does.
import { afterEach, describe, expect, it } from 'vitest';
import { startServerProcess } from './support/process.js';
import type { ServerProcess } from './support/process.js';
import { call } from './support/server.js';
import { endOf, eventually } from './support/wait.js';

const running: ServerProcess[] = [];

afterEach(async () => {
  for (const server of running.splice(0)) {
    server.child.kill('SIGKILL');
    await server.exited();
  }
});

/** Runs the marker through a server of the profile to its end; answers the server. */
async function runOnce(profile: string, marker: string): Promise<ServerProcess> {
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
  const record = await endOf(
    { call: (method, path, options) => call(server.baseUrl, method, path, options) },
    id,
  );
  expect(record.status).toBe('COMPLETED');
  return server;
}

describe('payload tracing per profile (SPEC Runtime profiles)', () => {
  it('writes message payloads to the console at the dev profile TRACE level', async () => {
    const server = await runOnce('dev', 'dev-marker-5f2c');
    // Log lines reach the pipe after the run has ended.
    const output = await eventually(
      () => Promise.resolve(server.output()),
      (text) => text.includes('dev-marker-5f2c'),
    );
    expect(output).toContain('message in');
  });

  it('never writes message payloads in prod', async () => {
    const server = await runOnce('prod', 'prod-marker-9a1d');
    // Log lines are written asynchronously: this long proves that no payload line comes.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.output()).not.toContain('prod-marker-9a1d');
  });
});
