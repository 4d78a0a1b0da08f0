// CONTRACT section 4 run and node controls, SPEC "States and transitions" rule 1 and "Errors"
// (404, 403, 409), through a real server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openSse, startTestServer } from './support/server.js';
import type { HttpAnswer, SseClient, TestServer } from './support/server.js';
import { eventually, within } from './support/wait.js';
import { slowWorkflow } from './support/workflows.js';

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
    // Proves that nothing moves while paused: no result comes in this time.
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

  it('steps a run paused while a DELAY node holds a message inside its call: the delay finishes, and a step with nothing to move is 409', async () => {
    await server.call('PUT', '/api/sessions/s/workflows/one-delay', {
      body: {
        description: 'one message, a long delay',
        nodes: [
          { nodeId: 'in', type: 'CONSTANT_SOURCE', config: { messages: [7] } },
          { nodeId: 'wait', type: 'DELAY', config: { delayMs: 800 } },
          { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
        ],
        edges: [
          { source: 'in', target: 'wait' },
          { source: 'wait', target: 'out' },
        ],
      },
    });
    const started = await server.call('POST', '/api/workflow/start', {
      body: { sessionId: 's', workflowId: 'one-delay' },
    });
    const id = started.json.data.executionId as string;
    await eventually(
      () => record(id),
      (answer) => answer.json.data.nodes.wait.messagesIn === 1,
    );
    expect((await server.call('POST', `/api/executions/${id}/pause`)).status).toBe(200);
    const stepped = await server.call('POST', `/api/executions/${id}/step`);
    expect(stepped.status).toBe(200);
    expect(stepped.json.message).toBe('Execution step applied');
    // The message under way is the only one: another step has nothing to move.
    const refused = await server.call('POST', `/api/executions/${id}/step`);
    expect(refused.status).toBe(409);
    expect(refused.json.message).toBe(
      `Execution '${id}' has nothing to step: no message is held outside nodes paused on their own`,
    );
    await eventually(
      () => record(id),
      (answer) => answer.json.data.nodes.wait.messagesOut === 1,
    );
    expect((await record(id)).json.data.status).toBe('PAUSED');
    expect(await results(id)).toEqual([]);
    expect((await server.call('POST', `/api/executions/${id}/step`)).status).toBe(200);
    await eventually(
      () => record(id),
      (answer) => answer.json.data.status === 'COMPLETED',
    );
    expect(await results(id)).toEqual([7]);
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

/**
 * CONTRACT 1: an execution in a terminal status takes no run control (409), and its progress
 * and log-entry streams end, their last progress event the one of that status.
 */
async function expectTerminal(
  server: TestServer,
  id: string,
  status: 'FAILED' | 'TIMED_OUT' | 'ABORTED',
  progress?: SseClient,
): Promise<void> {
  const stream = progress ?? (await openSse(server.baseUrl, `/api/workflow/s/status/${id}/stream`));
  await within(stream.ended, 5_000, 'the end of the progress stream');
  const last = stream.events.at(-1);
  expect(last?.event).toBe(`execution.${status.toLowerCase()}`);
  expect(last?.data).toMatchObject({ executionId: id, progress: { status } });
  const logs = await openSse(server.baseUrl, `/api/sessions/s/executions/${id}/logs/entries`);
  expect(logs.status).toBe(200);
  await within(logs.ended, 5_000, 'the end of the log-entry stream');
  expect((await server.call('GET', `/api/executions/${id}`)).json.data.status).toBe(status);
  for (const control of ['pause', 'resume', 'step', 'stop']) {
    const answer = await server.call('POST', `/api/executions/${id}/${control}`);
    expect(answer.status, `${control} of a ${status} execution`).toBe(409);
  }
}

describe('Controls and streams of ended executions (CONTRACT 1: terminal statuses)', () => {
  const failsLater = {
    workflowId: 'fails-later',
    description: 'fails once its delay is over',
    nodes: [
      { nodeId: 'in', type: 'MANUAL' },
      { nodeId: 'wait', type: 'DELAY', config: { delayMs: 200 } },
      { nodeId: 'boom', type: 'MAPPER', config: { expression: '$error("boom")' } },
      { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
    ],
    edges: [
      { source: 'in', target: 'wait' },
      { source: 'wait', target: 'boom' },
      { source: 'boom', target: 'out' },
    ],
  };

  const startIn = async (server: TestServer, workflowId: string): Promise<HttpAnswer> => {
    const answer = await server.call('POST', '/api/workflow/start', {
      body: { sessionId: 's', workflowId },
    });
    expect(answer.status).toBe(202);
    return answer;
  };

  it('answers run controls of a FAILED execution with 409 and ends its progress stream (CONTRACT 1)', async () => {
    const server = await startTestServer();
    try {
      await server.call('POST', '/api/sessions', {
        body: { sessionId: 's', name: 's', initiator: 'i', workflows: [failsLater] },
      });
      const id = (await startIn(server, 'fails-later')).json.data.executionId as string;
      // Opened while the run still goes: the stream follows it live and ends with it.
      const progress = await openSse(server.baseUrl, `/api/workflow/s/status/${id}/stream`);
      await expectTerminal(server, id, 'FAILED', progress);
    } finally {
      await server.close();
    }
  });

  it('answers run controls of a TIMED_OUT execution with 409 and ends its progress stream, for a run past its deadline and a start past its queue timeout (CONTRACT 1, SPEC States and transitions)', async () => {
    const server = await startTestServer({
      argv: [
        '--svc.session.execution-timeout-seconds=1',
        '--svc.execution.max-concurrent=1',
        '--svc.execution.on-limit=QUEUE',
        '--svc.execution.queue-timeout=200ms',
      ],
    });
    try {
      await server.call('POST', '/api/sessions', {
        body: { sessionId: 's', name: 's', initiator: 'i', workflows: [slowWorkflow()] },
      });
      const running = await startIn(server, 'slow');
      expect(running.json.data.status).toBe('RUNNING');
      const queued = await startIn(server, 'slow');
      expect(queued.json.data.status).toBe('QUEUED');
      const runId = running.json.data.executionId as string;
      const queuedId = queued.json.data.executionId as string;
      const [runProgress, queueProgress] = await Promise.all([
        openSse(server.baseUrl, `/api/workflow/s/status/${runId}/stream`),
        openSse(server.baseUrl, `/api/workflow/s/status/${queuedId}/stream`),
      ]);
      // The queued start times out first (200 ms), the run at its deadline (1 s).
      await expectTerminal(server, queuedId, 'TIMED_OUT', queueProgress);
      await expectTerminal(server, runId, 'TIMED_OUT', runProgress);
    } finally {
      await server.close();
    }
  });

  it('answers run controls of an ABORTED execution with 409 and ends its progress stream, after a restart with a durable execution log (CONTRACT 1, SPEC States and transitions)', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'controls-aborted-'));
    const env = { SVC_EXECUTION_LOG_DIR: path.join(dir, 'log') };
    try {
      const first = await startTestServer({
        env,
        argv: ['--svc.execution.shutdown-timeout=50ms'],
      });
      await first.call('POST', '/api/sessions', {
        body: { sessionId: 's', name: 's', initiator: 'i', workflows: [slowWorkflow()] },
      });
      const id = (await startIn(first, 'slow')).json.data.executionId as string;
      // A graceful stop whose timeout passes leaves the run with a start and no end in the log.
      await first.app.shutdown();
      const second = await startTestServer({ env });
      try {
        await expectTerminal(second, id, 'ABORTED');
      } finally {
        await second.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
