// MCP_TOOL_CALL through a real server: a workflow calls a tool of an MCP server (here the
// server's own tool endpoint), the result reaches the terminal, each call is timed in
// svc.mcp.call, and svc.mcp-client.allowed-tools refuses other tools as bad input (SPEC
// Workflow-author safeguards, SPEC Meters).
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';
import { eventually } from './support/wait.js';

let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface RunRecord {
  readonly id: string;
  readonly status: string;
  readonly nodes: Record<string, { status: string; retries: number; error: string | null }>;
}

async function defineAndRun(running: TestServer, tool: string): Promise<RunRecord> {
  await running.call('POST', '/api/sessions', {
    body: { sessionId: 'agents', name: 'agents', initiator: 'i' },
  });
  const saved = await running.call('PUT', `/api/sessions/agents/workflows/${tool}`, {
    body: {
      workflowId: tool,
      description: 'calls a tool',
      nodes: [
        { nodeId: 'in', type: 'MANUAL' },
        {
          nodeId: 'call',
          type: 'MCP_TOOL_CALL',
          config: { url: `${running.baseUrl}/mcp`, tool, arguments: {} },
        },
        { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
      ],
      edges: [
        { source: 'in', target: 'call' },
        { source: 'call', target: 'out' },
      ],
    },
  });
  expect(saved.status, saved.text).toBeLessThan(300);
  const start = await running.call('POST', '/api/workflow/start', {
    body: { sessionId: 'agents', workflowId: tool },
  });
  const id = start.json.data.executionId as string;
  const ended = await eventually(
    () => running.call('GET', `/api/executions/${id}`),
    (answer) => !['QUEUED', 'RUNNING'].includes(answer.json.data.status as string),
  );
  return { id, ...(ended.json.data as Omit<RunRecord, 'id'>) };
}

describe('MCP_TOOL_CALL in a workflow', () => {
  it('calls the tool, delivers its structured result and times the call in svc.mcp.call', async () => {
    server = await startTestServer();
    const run = await defineAndRun(server, 'list_sessions');
    expect(run.status).toBe('COMPLETED');
    const results = await server.call('GET', `/api/executions/${run.id}/results`);
    const [result] = results.json.data as { payload: { structuredContent: { items: unknown } } }[];
    expect(result?.payload.structuredContent.items).toEqual([
      expect.objectContaining({ sessionId: 'agents' }),
    ]);
    const meter = await server.call(
      'GET',
      '/actuator/metrics/svc.mcp.call?tag=tool:list_sessions&tag=outcome:completed',
    );
    expect(meter.json.measurements).toEqual(
      expect.arrayContaining([{ statistic: 'COUNT', value: 1 }]),
    );
  });

  it('fails the node without retry for a tool outside svc.mcp-client.allowed-tools', async () => {
    server = await startTestServer({ env: { SVC_MCP_CLIENT_ALLOWED_TOOLS: 'get_plugin_details' } });
    const run = await defineAndRun(server, 'list_sessions');
    expect(run.status).toBe('FAILED');
    expect(run.nodes.call?.status).toBe('FAILURE');
    expect(run.nodes.call?.retries).toBe(0);
    expect(run.nodes.call?.error).toContain(
      "MCP tool 'list_sessions' is not in svc.mcp-client.allowed-tools",
    );
  });
});
