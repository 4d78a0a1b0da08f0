// MAPPER mode SCRIPT through a real server of a build with the script-js plugin (SPEC
// Build-time choices, Workflow-author safeguards: svc.script.timeout-ms, max-memory), whose
// scripts run on worker threads while the server goes on answering.
import { afterEach, describe, expect, it } from 'vitest';
import { OPTIONAL_PLUGINS } from '../src/config/index.js';
import { TEST_BUILD_INFO, startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';
import { healthLatencyDuring } from './support/health.js';
import { endOf, eventually } from './support/wait.js';

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

/** Saves the script's workflow and starts it; answers the execution id. */
async function startScript(running: TestServer, script: string, payload: unknown) {
  const saved = await running.call('PUT', '/api/sessions/s/workflows/script', {
    body: scriptFlow(script),
  });
  expect(saved.status, saved.text).toBeLessThan(300);
  const start = await running.call('POST', '/api/workflow/start', {
    body: { sessionId: 's', workflowId: 'script', payload },
  });
  return start.json.data.executionId as string;
}

async function runScript(running: TestServer, script: string, payload: unknown) {
  const id = await startScript(running, script, payload);
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

/** A server of a build with script-js, its session `s` made. */
async function scriptServer(env: Record<string, string>): Promise<TestServer> {
  const running = await startTestServer({
    buildInfo: { ...TEST_BUILD_INFO, plugins: [...OPTIONAL_PLUGINS] },
    env,
  });
  await running.call('POST', '/api/sessions', {
    body: { sessionId: 's', name: 's', initiator: 'i' },
  });
  return running;
}

describe('MAPPER mode SCRIPT in a workflow', () => {
  it('runs the script per message in a build with script-js, and stops one over svc.script.timeout-ms', async () => {
    // The statement limit is set out of reach so that the time limit is what stops the loop,
    // however fast this machine runs the sandbox.
    server = await scriptServer({
      SVC_SCRIPT_TIMEOUT_MS: '300',
      SVC_SCRIPT_MAX_STATEMENTS: '2000000000',
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

  it('keeps answering /actuator/health within 100 ms while a script loops without end, off the event loop, until svc.script.timeout-ms fails the run', async () => {
    server = await scriptServer({
      SVC_SCRIPT_TIMEOUT_MS: '1500',
      SVC_SCRIPT_MAX_STATEMENTS: '2000000000',
    });
    const running = server;
    const id = await startScript(running, 'while (true) {}', [{ n: 1 }]);
    const ended = endOf(running, id);
    const health = await healthLatencyDuring(running, ended);
    const record = await ended;
    expect(record.status).toBe('FAILED');
    expect(record.nodes.map.error).toContain(
      'Script ran longer than svc.script.timeout-ms (1500 ms)',
    );
    // The loop held its worker for the whole time limit: health was asked all along.
    expect(health.calls).toBeGreaterThan(10);
    expect(health.p90Ms).toBeLessThan(100);
    expect(health.slowestMs).toBeLessThan(1_000);
  });

  it('fails a script over svc.script.max-memory, and the server goes on running scripts', async () => {
    server = await scriptServer({ SVC_SCRIPT_MAX_MEMORY: '8MB', SVC_SCRIPT_TIMEOUT_MS: '30000' });
    const hungry = await runScript(
      server,
      'const kept = []; for (;;) kept.push(new Uint8Array(1 << 20));',
      [{ n: 1 }],
    );
    expect(hungry.record.status).toBe('FAILED');
    expect(hungry.record.nodes.map?.error).toContain(
      'Script used more memory than svc.script.max-memory (8388608 bytes)',
    );
    expect((await server.call('GET', '/actuator/health')).status).toBe(200);
    const after = await runScript(server, 'return payload.n + 1;', [{ n: 1 }]);
    expect(after.record.status).toBe('COMPLETED');
    expect(after.payloads).toEqual([2]);
  });

  it('ends a stopped run within a second while its script loops without end (SPEC stop)', async () => {
    server = await scriptServer({ SVC_SCRIPT_TIMEOUT_MS: '60000' });
    const running = server;
    const id = await startScript(running, 'while (true) {}', [{ n: 1 }]);
    await eventually(
      () => running.call('GET', `/api/executions/${id}`),
      (answer) => answer.json.data.nodes?.map?.status === 'RUNNING',
    );
    const stopped = performance.now();
    expect((await running.call('POST', `/api/executions/${id}/stop`)).status).toBe(200);
    const ended = await eventually(
      () => running.call('GET', `/api/executions/${id}`),
      (answer) => !['QUEUED', 'RUNNING', 'PAUSED'].includes(answer.json.data.status as string),
      5000,
    );
    expect(performance.now() - stopped).toBeLessThan(1000);
    expect(ended.json.data.status).toBe('STOPPED');
    const after = await runScript(running, 'return payload.n * 3;', [{ n: 2 }]);
    expect(after.payloads).toEqual([6]);
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
