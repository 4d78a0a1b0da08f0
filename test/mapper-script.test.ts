// MAPPER mode SCRIPT through a real server of a build with the script-js plugin (SPEC
// Build-time choices, Workflow-author safeguards: svc.script.timeout-ms).
import { afterEach, describe, expect, it } from 'vitest';
import { OPTIONAL_PLUGINS } from '../src/config/index.js';
import { TEST_BUILD_INFO, startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';
import { eventually } from './support/wait.js';

let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const scriptFlow = (script: string) => ({
  workflowId: 'script',
  description: 'runs a script per message',
  nodes: [
    { nodeId: 'in', type: 'API_TRIGGER', config: { splitArray: true } },
    { nodeId: 'map', type: 'MAPPER', config: { mode: 'SCRIPT', script } },
    { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
  ],
  edges: [
    { source: 'in', target: 'map' },
    { source: 'map', target: 'out' },
  ],
});

async function runScript(running: TestServer, script: string, payload: unknown) {
  const saved = await running.call('PUT', '/api/sessions/s/workflows/script', {
    body: scriptFlow(script),
  });
  expect(saved.status, saved.text).toBeLessThan(300);
  const start = await running.call('POST', '/api/workflow/start', {
    body: { sessionId: 's', workflowId: 'script', payload },
  });
  const id = start.json.data.executionId as string;
  const ended = await eventually(
    () => running.call('GET', `/api/executions/${id}`),
    (answer) => !['QUEUED', 'RUNNING'].includes(answer.json.data.status as string),
  );
  const results = await running.call('GET', `/api/executions/${id}/results`);
  return {
    record: ended.json.data as { status: string; nodes: Record<string, { error: string | null }> },
    payloads: (results.json.data as { payload: unknown }[]).map((result) => result.payload),
  };
}

describe('MAPPER mode SCRIPT in a workflow', () => {
  it('runs the script per message in a build with script-js, and stops one over svc.script.timeout-ms', async () => {
    server = await startTestServer({
      buildInfo: { ...TEST_BUILD_INFO, plugins: [...OPTIONAL_PLUGINS] },
      // The statement limit is set out of reach so that the time limit is what stops the loop,
      // however fast this machine runs the sandbox.
      env: { SVC_SCRIPT_TIMEOUT_MS: '300', SVC_SCRIPT_MAX_STATEMENTS: '2000000000' },
    });
    await server.call('POST', '/api/sessions', {
      body: { sessionId: 's', name: 's', initiator: 'i' },
    });
    const doubled = await runScript(server, 'return { n: payload.n * 2 };', [{ n: 1 }, { n: 4 }]);
    expect(doubled.record.status).toBe('COMPLETED');
    expect(doubled.payloads).toEqual(expect.arrayContaining([{ n: 2 }, { n: 8 }]));
    const endless = await runScript(server, 'while (true) {}', [{ n: 1 }]);
    expect(endless.record.status).toBe('FAILED');
    expect(endless.record.nodes.map?.error).toContain(
      'Script ran longer than svc.script.timeout-ms (300 ms)',
    );
  });

  it('refuses a SCRIPT node in the default build, naming the script-js plugin', async () => {
    server = await startTestServer();
    await server.call('POST', '/api/sessions', {
      body: { sessionId: 's', name: 's', initiator: 'i' },
    });
    const saved = await server.call('PUT', '/api/sessions/s/workflows/script', {
      body: scriptFlow('return 1;'),
    });
    expect(saved.status).toBe(400);
    expect(saved.text).toContain('MAPPER mode SCRIPT needs the script-js plugin');
  });
});
