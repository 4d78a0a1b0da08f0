// SPEC "States and transitions" (start rows), "Limits" (admission, queue order, idempotency
// keys), "Errors" (429): admission through a real server.
import { describe, expect, it } from 'vitest';
import { startTestServer } from './support/server.js';
import type { HttpAnswer, TestServer } from './support/server.js';
import { eventually } from './support/wait.js';
import { slowWorkflow } from './support/workflows.js';

const slowFlow = slowWorkflow();

async function serverWith(env: Record<string, string>): Promise<TestServer> {
  const server = await startTestServer({ env });
  await server.call('POST', '/api/sessions', {
    body: { sessionId: 's', name: 's', initiator: 'i', workflows: [slowFlow] },
  });
  await server.call('POST', '/api/sessions', {
    body: { sessionId: 't', name: 't', initiator: 'i', workflows: [slowFlow] },
  });
  return server;
}

const start = (server: TestServer, headers: Record<string, string> = {}, sessionId = 's') =>
  server.call('POST', '/api/workflow/start', { headers, body: { sessionId, workflowId: 'slow' } });

async function statusOf(server: TestServer, id: string): Promise<string> {
  return (await server.call('GET', `/api/executions/${id}`)).json.data.status as string;
}

describe('Admission (SPEC States and transitions, Limits)', () => {
  it("refuses a start over svc.execution.max-concurrent with 429 'Execution limit reached' and Retry-After when on-limit is REJECT", async () => {
    const server = await serverWith({ SVC_EXECUTION_MAX_CONCURRENT: '1' });
    try {
      expect((await start(server)).status).toBe(202);
      const refused = await start(server);
      expect(refused.status).toBe(429);
      expect(refused.json.message).toMatch(/execution limit reached/i);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(await server.app.meters.read('svc.executions.rejected', { reason: 'limit' })).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('never runs more executions than the limit when starts race for the last slot', async () => {
    const server = await serverWith({ SVC_EXECUTION_MAX_CONCURRENT: '3' });
    try {
      const answers: HttpAnswer[] = await Promise.all(
        Array.from({ length: 20 }, () => start(server)),
      );
      expect(answers.filter((answer) => answer.status === 202)).toHaveLength(3);
      expect(answers.filter((answer) => answer.status === 429)).toHaveLength(17);
      expect(await server.app.meters.read('svc.executions.running')).toBe(3);
    } finally {
      await server.close();
    }
  });

  it('queues a start when on-limit is QUEUE and runs it once a slot frees, timing the wait', async () => {
    const server = await serverWith({
      SVC_EXECUTION_MAX_CONCURRENT: '1',
      SVC_EXECUTION_ON_LIMIT: 'QUEUE',
    });
    try {
      const first = await start(server);
      const second = await start(server);
      expect(second.status).toBe(202);
      expect(second.json.data.status).toBe('QUEUED');
      expect(await server.app.meters.read('svc.executions.queued')).toBe(1);
      const stopped = await server.call(
        'POST',
        `/api/executions/${first.json.data.executionId}/stop`,
      );
      expect(stopped.status).toBe(200);
      await eventually(
        async () => (await statusOf(server, second.json.data.executionId)) === 'RUNNING',
      );
      expect(await statusOf(server, first.json.data.executionId)).toBe('STOPPED');
      expect(await server.app.meters.read('svc.execution.queue.wait')).toBe(1);
      expect(await server.app.meters.read('svc.executions.queued')).toBe(0);
    } finally {
      await server.close();
    }
  });

  it("refuses a start with 429 'The queue is full' at svc.execution.queue-capacity, even when every waiting start is of one workflow", async () => {
    const server = await serverWith({
      SVC_EXECUTION_MAX_CONCURRENT: '1',
      SVC_EXECUTION_ON_LIMIT: 'QUEUE',
      SVC_EXECUTION_QUEUE_CAPACITY: '3',
    });
    try {
      await start(server);
      for (let i = 0; i < 3; i++) expect((await start(server)).json.data.status).toBe('QUEUED');
      const refused = await start(server);
      expect(refused.status).toBe(429);
      expect(refused.json.message).toBe('The queue is full');
      const otherWorkflow = await start(server, {}, 't');
      expect(otherWorkflow.status).toBe(429);
      expect(otherWorkflow.json.message).toBe('The queue is full');
      expect(
        await server.app.meters.read('svc.executions.rejected', { reason: 'queue_full' }),
      ).toBe(2);
      expect(
        await server.app.meters.read('svc.executions.rejected', { reason: 'workflow_queue_full' }),
      ).toBe(0);
    } finally {
      await server.close();
    }
  });

  it("refuses a start with 429 'The queue of this workflow is full' at svc.execution.queue-capacity-per-workflow, while other workflows still queue", async () => {
    const server = await serverWith({
      SVC_EXECUTION_MAX_CONCURRENT: '1',
      SVC_EXECUTION_ON_LIMIT: 'QUEUE',
      SVC_EXECUTION_QUEUE_CAPACITY: '3',
      SVC_EXECUTION_QUEUE_CAPACITY_PER_WORKFLOW: '1',
    });
    try {
      await start(server);
      expect((await start(server)).json.data.status).toBe('QUEUED');
      const sameWorkflow = await start(server);
      expect(sameWorkflow.status).toBe(429);
      expect(sameWorkflow.json.message).toBe('The queue of this workflow is full');
      // Workflow 'slow' of session t is another workflow: its own queue is empty.
      expect((await start(server, {}, 't')).json.data.status).toBe('QUEUED');
      expect(
        await server.app.meters.read('svc.executions.rejected', { reason: 'workflow_queue_full' }),
      ).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('ends a start that waits longer than svc.execution.queue-timeout TIMED_OUT', async () => {
    const server = await serverWith({
      SVC_EXECUTION_MAX_CONCURRENT: '1',
      SVC_EXECUTION_ON_LIMIT: 'QUEUE',
      SVC_EXECUTION_QUEUE_TIMEOUT: '100ms',
    });
    try {
      await start(server);
      const waiting = await start(server);
      await eventually(
        async () => (await statusOf(server, waiting.json.data.executionId)) === 'TIMED_OUT',
      );
      expect(
        await server.app.meters.read('svc.executions.rejected', { reason: 'queue_timeout' }),
      ).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('changes the priority of a waiting start, and refuses it with 400 once running (SPEC rule 3)', async () => {
    const server = await serverWith({
      SVC_EXECUTION_MAX_CONCURRENT: '1',
      SVC_EXECUTION_ON_LIMIT: 'QUEUE',
    });
    try {
      const running = await start(server);
      const low = await start(server);
      const high = await start(server);
      const changed = await server.call(
        'POST',
        `/api/executions/${high.json.data.executionId}/priority?priority=10`,
      );
      expect(changed.status).toBe(200);
      expect(changed.json.data).toEqual({ executionId: high.json.data.executionId, priority: 10 });
      const refused = await server.call(
        'POST',
        `/api/executions/${running.json.data.executionId}/priority?priority=1`,
      );
      expect(refused.status).toBe(400);
      expect(
        (await server.call('POST', `/api/executions/${high.json.data.executionId}/priority`))
          .status,
      ).toBe(400);
      await server.call('POST', `/api/executions/${running.json.data.executionId}/stop`);
      await eventually(
        async () => (await statusOf(server, high.json.data.executionId)) === 'RUNNING',
      );
      expect(await statusOf(server, low.json.data.executionId)).toBe('QUEUED');
    } finally {
      await server.close();
    }
  });

  it('lists the waiting starts in queue order, each with the limits that hold it back (docs/scheduler-queue.md)', async () => {
    const server = await serverWith({
      SVC_EXECUTION_MAX_CONCURRENT: '3',
      SVC_EXECUTION_ON_LIMIT: 'QUEUE',
    });
    const idOf = (answer: HttpAnswer) => answer.json.data.executionId as string;
    try {
      await server.call('POST', '/api/scheduler/limits?maxPerSession=1');
      expect((await server.call('GET', '/api/scheduler/queue')).json.data).toMatchObject({
        running: 0,
        queued: 0,
        items: [],
      });
      await start(server);
      await start(server, {}, 't');
      const s2 = idOf(await start(server));
      const t2 = idOf(await start(server, {}, 't'));
      const s3 = idOf(await start(server));
      await server.call('POST', `/api/executions/${s3}/priority?priority=5`);
      await server.call('POST', `/api/executions/${t2}/pause`);
      const queue = (await server.call('GET', '/api/scheduler/queue')).json.data;
      expect(queue).toMatchObject({ running: 2, queued: 3, limits: { maxPerSession: 1 } });
      // Priority first, then the session with fewer running (equal here), then arrival.
      expect(
        queue.items.map((item: { executionId: string; position: number }) => [
          item.position,
          item.executionId,
        ]),
      ).toEqual([
        [1, s3],
        [2, s2],
        [3, t2],
      ]);
      expect(queue.items[0]).toMatchObject({
        sessionId: 's',
        workflowId: 'slow',
        priority: 5,
        paused: false,
        queuedAt: expect.any(String),
        waitingFor: [
          {
            limit: 'maxPerSession',
            running: 1,
            max: 1,
            message: "Session 's' runs 1 execution, at its limit of 1 (maxPerSession)",
          },
        ],
      });
      expect(queue.items[2]).toMatchObject({ sessionId: 't', paused: true });

      // With the server full, every start is also held by the server's limit.
      await server.call('POST', '/api/scheduler/limits?maxConcurrent=2');
      const full = (await server.call('GET', '/api/scheduler/queue')).json.data;
      expect(full.items[1].waitingFor.map((hold: { message: string }) => hold.message)).toEqual([
        'The server runs 2 executions, at its limit of 2 (maxConcurrent)',
        "Session 's' runs 1 execution, at its limit of 1 (maxPerSession)",
      ]);
    } finally {
      await server.close();
    }
  });

  it('reads and changes the limits live; a raised limit admits waiting starts', async () => {
    const server = await serverWith({
      SVC_EXECUTION_MAX_CONCURRENT: '1',
      SVC_EXECUTION_ON_LIMIT: 'QUEUE',
    });
    try {
      const limits = await server.call('GET', '/api/scheduler/limits');
      expect(limits.json.data).toEqual({
        maxConcurrent: 1,
        maxPerSession: null,
        maxPerWorkflow: null,
        onLimit: 'QUEUE',
        queueCapacity: 100,
        queueTimeout: null,
      });
      await start(server);
      const waiting = await start(server);
      const raised = await server.call(
        'POST',
        '/api/scheduler/limits?maxConcurrent=2&maxPerWorkflow=5',
      );
      expect(raised.status).toBe(200);
      expect(raised.json.data).toMatchObject({ maxConcurrent: 2, maxPerWorkflow: 5 });
      await eventually(
        async () => (await statusOf(server, waiting.json.data.executionId)) === 'RUNNING',
      );
      expect((await server.call('POST', '/api/scheduler/limits?maxConcurrent=zero')).status).toBe(
        400,
      );
    } finally {
      await server.close();
    }
  });

  it('answers a repeated Idempotency-Key with the first execution and starts nothing more', async () => {
    const server = await serverWith({});
    try {
      const first = await start(server, { 'idempotency-key': 'abc' });
      const again = await start(server, { 'idempotency-key': 'abc' });
      expect(again.status).toBe(202);
      expect(again.json.data.executionId).toBe(first.json.data.executionId);
      const racing = await Promise.all(
        Array.from({ length: 5 }, () => start(server, { 'idempotency-key': 'race' })),
      );
      expect(new Set(racing.map((answer) => answer.json.data.executionId)).size).toBe(1);
      const all = await server.call('GET', '/api/executions?sessionId=s&limit=100');
      expect(all.json.data.items).toHaveLength(2);
    } finally {
      await server.close();
    }
  });

  it('answers a stop of an ended execution with 409', async () => {
    const server = await serverWith({});
    try {
      const run = await start(server);
      const id = run.json.data.executionId as string;
      await server.call('POST', `/api/executions/${id}/stop`);
      await eventually(async () => (await statusOf(server, id)) === 'STOPPED');
      expect((await server.call('POST', `/api/executions/${id}/stop`)).status).toBe(409);
      expect((await server.call('POST', '/api/executions/none/stop')).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('on shutdown refuses waiting starts and new ones, then stops what still runs after the grace time', async () => {
    const server = await serverWith({
      SVC_EXECUTION_MAX_CONCURRENT: '1',
      SVC_EXECUTION_ON_LIMIT: 'QUEUE',
      SVC_EXECUTION_SHUTDOWN_TIMEOUT: '50ms',
    });
    const running = await start(server);
    const waiting = await start(server);
    const runningEntry = server.app.executions.require(running.json.data.executionId);
    const waitingEntry = server.app.executions.require(waiting.json.data.executionId);
    await server.app.shutdown();
    expect(waitingEntry.status).toBe('STOPPED');
    expect(waitingEntry.error).toMatch(/shutting down/);
    expect(runningEntry.status).toBe('STOPPED');
    expect(await server.app.meters.read('svc.executions.rejected', { reason: 'shutdown' })).toBe(1);
  });
});

describe('Pausing a waiting start (SPEC States and transitions, rule 1)', () => {
  it('freezes the queue clock while paused, and starts the run paused when it gets its slot', async () => {
    const server = await serverWith({
      SVC_EXECUTION_MAX_CONCURRENT: '1',
      SVC_EXECUTION_ON_LIMIT: 'QUEUE',
      SVC_EXECUTION_QUEUE_TIMEOUT: '300ms',
    });
    try {
      const running = await start(server);
      const waiting = await start(server);
      const id = waiting.json.data.executionId as string;
      expect((await server.call('POST', `/api/executions/${id}/pause`)).status).toBe(200);
      // Paused past the queue timeout: proves that a pause freezes the queue clock.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await statusOf(server, id)).toBe('QUEUED');
      await server.call('POST', `/api/executions/${running.json.data.executionId}/stop`);
      await eventually(async () => (await statusOf(server, id)) === 'PAUSED');
      expect((await server.call('POST', `/api/executions/${id}/resume`)).status).toBe(200);
      expect(await statusOf(server, id)).toBe('RUNNING');
    } finally {
      await server.close();
    }
  });

  it('still times out after the time the queue clock had left once resumed', async () => {
    const server = await serverWith({
      SVC_EXECUTION_MAX_CONCURRENT: '1',
      SVC_EXECUTION_ON_LIMIT: 'QUEUE',
      SVC_EXECUTION_QUEUE_TIMEOUT: '300ms',
    });
    try {
      await start(server);
      const waiting = await start(server);
      const id = waiting.json.data.executionId as string;
      await server.call('POST', `/api/executions/${id}/pause`);
      // Paused past the queue timeout, which the pause must not let expire.
      await new Promise((resolve) => setTimeout(resolve, 400));
      await server.call('POST', `/api/executions/${id}/resume`);
      expect(await statusOf(server, id)).toBe('QUEUED');
      await eventually(async () => (await statusOf(server, id)) === 'TIMED_OUT');
    } finally {
      await server.close();
    }
  });
});

describe('A paused run keeps its slot (SPEC States and transitions, rule 1)', () => {
  it('counts a paused run against svc.execution.max-concurrent', async () => {
    const server = await serverWith({ SVC_EXECUTION_MAX_CONCURRENT: '1' });
    try {
      const first = await start(server);
      const id = first.json.data.executionId as string;
      await server.call('POST', `/api/executions/${id}/pause`);
      expect(await statusOf(server, id)).toBe('PAUSED');
      const refused = await start(server);
      expect(refused.status).toBe(429);
      await server.call('POST', `/api/executions/${id}/stop`);
      await eventually(async () => (await start(server)).status === 202);
    } finally {
      await server.close();
    }
  });
});
