// SPEC "Workflow-author safeguards" through a real server: the process allow-list with its
// refusals, and variables and secrets in node configuration.
import { describe, expect, it } from 'vitest';
import { startTestServer } from './support/server.js';
import type { HttpAnswer, TestServer } from './support/server.js';
import { endOf } from './support/wait.js';

async function runOnce(server: TestServer, workflow: unknown): Promise<HttpAnswer['json']> {
  await server.call('POST', '/api/sessions', {
    body: { sessionId: 's', name: 's', initiator: 'i' },
  });
  const { workflowId } = workflow as { workflowId: string };
  const saved = await server.call('PUT', `/api/sessions/s/workflows/${workflowId}`, {
    body: workflow,
  });
  expect(saved.status, saved.text).toBeLessThan(300);
  const start = await server.call('POST', '/api/workflow/start', {
    body: { sessionId: 's', workflowId },
  });
  return endOf(server, start.json.data.executionId as string);
}

function processFlow(config: Record<string, unknown>) {
  return {
    workflowId: 'proc',
    description: 'runs a command',
    nodes: [
      { nodeId: 'in', type: 'MANUAL' },
      { nodeId: 'cmd', type: 'PROCESS_EXECUTOR', config },
      { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
    ],
    edges: [
      { source: 'in', target: 'cmd' },
      { source: 'cmd', target: 'out' },
    ],
  };
}

describe('PROCESS_EXECUTOR safeguards (SPEC Workflow-author safeguards)', () => {
  it('is off by default: every message fails with the process-execution-is-off refusal', async () => {
    const server = await startTestServer();
    try {
      const record = await runOnce(
        server,
        processFlow({ command: process.execPath, args: ['-e', '1'] }),
      );
      expect(record.status).toBe('FAILED');
      expect(record.nodes.cmd.error).toMatch(/Process execution is disabled/);
    } finally {
      await server.close();
    }
  });

  it('runs an allowed command once per message; its stdout becomes the output and the node log', async () => {
    const server = await startTestServer({
      env: { SVC_PROCESS_ALLOWED_COMMANDS: process.execPath },
    });
    try {
      const record = await runOnce(
        server,
        processFlow({
          command: process.execPath,
          args: ['-e', 'console.log("line one"); console.log("line two")'],
        }),
      );
      expect(record.status).toBe('COMPLETED');
      const id = record.executionId as string;
      const completed = await server.call(
        'GET',
        '/actuator/metrics/svc.plugin.events?tag=outcome:completed',
      );
      expect(completed.json.measurements[0].value).toBe(1);
      const results = await server.call('GET', `/api/executions/${id}/results`);
      expect(results.json.data[0].payload).toMatchObject({
        exitCode: 0,
        stdout: 'line one\nline two\n',
      });
      const logs = await server.call('GET', `/api/executions/${id}/logs?nodeId=cmd`);
      expect(logs.json.data.map((line: { message: string }) => line.message)).toEqual([
        'line one',
        'line two',
      ]);
    } finally {
      await server.close();
    }
  });

  it('refuses a command not in the allow-list, and useShell while the list is set', async () => {
    const server = await startTestServer({ env: { SVC_PROCESS_ALLOWED_COMMANDS: 'echo' } });
    try {
      const other = await runOnce(
        server,
        processFlow({ command: process.execPath, args: ['-e', '1'] }),
      );
      expect(other.nodes.cmd.error).toMatch(/is not in svc\.process\.allowed-commands/);
      const shell = await runOnce(
        server,
        processFlow({ command: 'echo', args: ['x'], useShell: true }),
      );
      expect(shell.nodes.cmd.error).toMatch(/useShell is not allowed/);
      // SPEC Meters: the refusals are what the plugin reports in svc.plugin.events.
      const refused = await server.call(
        'GET',
        '/actuator/metrics/svc.plugin.events?tag=plugin:process.run&tag=outcome:refused',
      );
      expect(refused.json.measurements[0].value).toBe(2);
    } finally {
      await server.close();
    }
  });

  it('fails the message on a non-zero exit', async () => {
    const server = await startTestServer({ env: { SVC_PROCESS_ALLOW_ANY: 'true' } });
    try {
      const record = await runOnce(
        server,
        processFlow({ command: process.execPath, args: ['-e', 'process.exit(3)'] }),
      );
      expect(record.status).toBe('FAILED');
      expect(record.nodes.cmd.error).toMatch(/exited with code 3/);
    } finally {
      await server.close();
    }
  });
});

describe('Variables and secrets (SPEC Variables and secrets)', () => {
  const templateFlow = (template: string) => ({
    workflowId: 'vars',
    description: 'uses a variable',
    nodes: [
      { nodeId: 'in', type: 'MANUAL' },
      { nodeId: 'say', type: 'MAPPER', config: { mode: 'TEMPLATE', template } },
      { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
    ],
    edges: [
      { source: 'in', target: 'say' },
      { source: 'say', target: 'out' },
    ],
  });

  it('reads allowed ${env.NAME} variables into node configuration', async () => {
    const server = await startTestServer({ env: { SVC_VAR_GREETING: 'hello' } });
    try {
      const record = await runOnce(server, templateFlow('${env.SVC_VAR_GREETING} world'));
      expect(record.status).toBe('COMPLETED');
      const results = await server.call('GET', `/api/executions/${record.executionId}/results`);
      expect(results.json.data[0].payload).toBe('hello world');
    } finally {
      await server.close();
    }
  });

  it('fails the message for a blocked name, even when listed, without showing its value', async () => {
    const server = await startTestServer({
      env: { DB_PASSWORD: 'hunter2', SVC_VARIABLES_ALLOWED: 'DB_PASSWORD' },
    });
    try {
      const record = await runOnce(server, templateFlow('${env.DB_PASSWORD}'));
      expect(record.status).toBe('FAILED');
      expect(record.nodes.say.error).toMatch(/blocked/);
      expect(JSON.stringify(record)).not.toContain('hunter2');
    } finally {
      await server.close();
    }
  });

  it('reads decrypted:<name> from SVC_SECRET_<NAME>, and answers never show it in the definition', async () => {
    const server = await startTestServer({ env: { SVC_SECRET_API_TOKEN: 's3cr3t-value' } });
    try {
      const record = await runOnce(server, templateFlow('decrypted:api.token'));
      expect(record.status).toBe('COMPLETED');
      const results = await server.call('GET', `/api/executions/${record.executionId}/results`);
      expect(results.json.data[0].payload).toBe('s3cr3t-value');
      const definition = await server.call('GET', '/api/sessions/s/workflows/vars');
      expect(definition.text).toContain('decrypted:api.token');
      expect(definition.text).not.toContain('s3cr3t-value');
      expect(JSON.stringify(record)).not.toContain('s3cr3t-value');
    } finally {
      await server.close();
    }
  });
});
