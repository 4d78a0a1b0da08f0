// SPEC "Log line losses" and "Limits" (pending log lines): lines beyond the 10,000 an
// execution keeps are dropped and counted, and a node that wrote no live logs has its output
// logged cut to 2,048 characters, through a real server; and the lines read a slice at a time.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';
import { eventually } from './support/wait.js';
import { chattyWorkflow as chatty } from './support/workflows.js';

describe('Log line losses (SPEC Errors, Limits)', () => {
  let server: TestServer;
  afterEach(async () => {
    await server.close();
  });

  async function runToEnd(workflow: unknown, payload: unknown): Promise<string> {
    await server.call('POST', '/api/sessions', {
      body: { sessionId: 's', name: 's', initiator: 'i', workflows: [workflow] },
    });
    const start = await server.call('POST', '/api/workflow/start', {
      body: {
        sessionId: 's',
        workflowId: (workflow as { workflowId: string }).workflowId,
        payload,
      },
    });
    const id = start.json.data.executionId as string;
    await eventually(
      () => server.call('GET', `/api/executions/${id}`),
      (answer) => answer.json.data.status === 'COMPLETED',
      30_000,
    );
    return id;
  }

  it('answers the log lines a slice at a time with after and limit, oldest first', async () => {
    server = await startTestServer();
    const id = await runToEnd(
      chatty,
      Array.from({ length: 5 }, (_, n) => n),
    );
    const path = `/api/executions/${id}/logs`;
    const all = (await server.call('GET', path)).json.data as { seq: number }[];
    expect(all).toHaveLength(5);
    const slices: number[][] = [];
    let after = 0;
    for (;;) {
      const slice = (await server.call('GET', `${path}?after=${String(after)}&limit=2`)).json
        .data as { seq: number }[];
      if (slice.length === 0) break;
      slices.push(slice.map((line) => line.seq));
      after = slice.at(-1)?.seq ?? after;
    }
    expect(slices.map((slice) => slice.length)).toEqual([2, 2, 1]);
    expect(slices.flat()).toEqual(all.map((line) => line.seq));
    const refused = await server.call('GET', `${path}?limit=0`);
    expect(refused.status).toBe(400);
  });

  it('drops log lines beyond the 10,000 an execution keeps and counts them in svc.tracker.dropped{type=log}', async () => {
    server = await startTestServer();
    const id = await runToEnd(
      chatty,
      Array.from({ length: 10_050 }, (_, n) => n),
    );
    const logs = await server.call('GET', `/api/executions/${id}/logs`);
    expect(logs.json.data).toHaveLength(10_000);
    expect(logs.json.data[0].seq).toBe(51);
    const dropped = await server.call('GET', '/actuator/metrics/svc.tracker.dropped?tag=type:log');
    expect(dropped.json.measurements[0].value).toBe(50);
  });

  it('logs the output of a node that wrote no live logs, cut to 2,048 characters', async () => {
    server = await startTestServer();
    const level = await server.call('POST', '/actuator/loggers/engine', {
      body: { configuredLevel: 'DEBUG' },
    });
    expect(level.status).toBeLessThan(300);
    const id = await runToEnd(
      {
        workflowId: 'quiet',
        description: 'a mapper that writes no log line',
        nodes: [
          { nodeId: 'in', type: 'API_TRIGGER' },
          { nodeId: 'big', type: 'MAPPER', config: { expression: '{"text": $}' } },
          { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
        ],
        edges: [
          { source: 'in', target: 'big' },
          { source: 'big', target: 'out' },
        ],
      },
      'y'.repeat(5000),
    );
    const logs = await server.call('GET', `/api/executions/${id}/logs?nodeId=big`);
    expect(logs.json.data).toHaveLength(1);
    const [line] = logs.json.data;
    expect(line.message).toHaveLength(2048);
    expect(line.message.startsWith('{"text":"yyy')).toBe(true);
    expect(line.fields).toMatchObject({ cut: true, messagesOut: 1 });
  });
});
