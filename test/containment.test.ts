// No expression or template can freeze the server (docs/containment.md): a JSONata evaluation
// gives the event loop a turn every few milliseconds and ends with its node's time settings,
// stop or its own time limit; oversized templates and expressions are refused at validation.
import { afterEach, describe, expect, it } from 'vitest';
import { healthLatencyDuring } from './support/health.js';
import { startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';
import { endOf, eventually } from './support/wait.js';

/** A tail call JSONata turns into a loop: it never ends and never overflows the stack. */
const RUNAWAY = '($f := function($x){ $f($x) }; $f(1))';

function runawayWorkflow(workflowId: string, config: Record<string, unknown>, type = 'MAPPER') {
  return {
    workflowId,
    description: 'an expression that never ends',
    nodes: [
      { nodeId: 'in', type: 'MANUAL' },
      { nodeId: 'spin', type, config },
      { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
    ],
    edges: [
      { source: 'in', target: 'spin' },
      { source: 'spin', target: 'out' },
    ],
  };
}

describe('Containment of expressions and templates', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function startRun(
    running: TestServer,
    workflow: ReturnType<typeof runawayWorkflow>,
  ): Promise<string> {
    const created = await running.call('POST', '/api/sessions', {
      body: { sessionId: 's', name: 's', initiator: 'i', workflows: [workflow] },
    });
    expect(created.status).toBe(201);
    const started = await running.call('POST', '/api/workflow/start', {
      body: { sessionId: 's', workflowId: workflow.workflowId },
    });
    expect(started.status).toBe(202);
    return started.json.data.executionId as string;
  }

  /** Waits for the run to end, asking for health all along; answers the run's record. */
  async function endWhileHealthy(running: TestServer, id: string) {
    const ended = endOf(running, id, 15_000);
    const health = await healthLatencyDuring(running, ended);
    expect(health.calls).toBeGreaterThan(10);
    expect(health.p90Ms).toBeLessThan(100);
    expect(health.slowestMs).toBeLessThan(1_000);
    return ended;
  }

  const nodeStatus = async (running: TestServer, id: string, nodeId: string) => {
    const answer = await running.call('GET', `/api/executions/${id}`);
    return answer.json.data.nodes[nodeId]?.status as string | undefined;
  };

  it("keeps health under 100 ms while an expression never ends, and the node's timeout ends it", async () => {
    server = await startTestServer();
    const started = performance.now();
    const id = await startRun(
      server,
      runawayWorkflow('spin', { expression: RUNAWAY, timeoutSeconds: 2 }),
    );
    const record = await endWhileHealthy(server, id);
    expect(performance.now() - started).toBeLessThan(6_000);
    expect(record.status).not.toBe('COMPLETED');
    expect(await nodeStatus(server, id, 'spin')).toBe('TIMED_OUT');
  });

  it('pauses and stops a run whose expression never ends within a second', async () => {
    server = await startTestServer();
    const running = server;
    const id = await startRun(running, runawayWorkflow('spin', { expression: RUNAWAY }));
    await eventually(
      () => nodeStatus(running, id, 'spin'),
      (status) => status === 'RUNNING',
    );
    let asked = performance.now();
    expect((await running.call('POST', `/api/executions/${id}/pause`)).status).toBe(200);
    await eventually(
      () => running.call('GET', `/api/executions/${id}`),
      (answer) => answer.json.data.status === 'PAUSED',
      1_000,
    );
    expect(performance.now() - asked).toBeLessThan(1_000);
    asked = performance.now();
    expect((await running.call('POST', `/api/executions/${id}/stop`)).status).toBe(200);
    const record = await endOf(running, id, 1_000);
    expect(performance.now() - asked).toBeLessThan(1_000);
    expect(record.status).toBe('STOPPED');
  });

  it('fails a message whose expression computes past svc.expressions.timeout-ms, naming it', async () => {
    server = await startTestServer({ env: { SVC_EXPRESSIONS_TIMEOUT_MS: '300' } });
    const cases = [{ name: 'never', expression: RUNAWAY }];
    const id = await startRun(server, runawayWorkflow('branch', { cases }, 'BRANCH'));
    const record = await endOf(server, id, 10_000);
    expect(record.status).toBe('FAILED');
    expect(record.nodes.spin.error).toContain('svc.expressions.timeout-ms (300 ms)');
  });

  it('keeps health under 100 ms through a finite heavy expression, ended by its time limit', async () => {
    server = await startTestServer({ env: { SVC_EXPRESSIONS_TIMEOUT_MS: '1500' } });
    const expression = '$sum($map([1..10000000], function($v){ $v * 2 }))';
    const id = await startRun(server, runawayWorkflow('heavy', { expression }));
    const record = await endWhileHealthy(server, id);
    expect(record.status).toBe('FAILED');
    expect(record.nodes.spin.error).toContain('svc.expressions.timeout-ms (1500 ms)');
  });

  it('fails a recursion that never ends at its depth limit instead of filling the heap', async () => {
    server = await startTestServer();
    const expression = '($f := function($x){ 1 + $f($x) }; $f(1))';
    const id = await startRun(server, runawayWorkflow('deep', { expression }));
    const record = await endOf(server, id, 10_000);
    expect(record.status).toBe('FAILED');
    expect(record.nodes.spin.error).toMatch(/[Ss]tack overflow/);
  });

  it.each([
    [
      'the 96 KB template nesting 6,000 blocks',
      'template',
      `${'{{#if a}}'.repeat(6000)}x${'{{/if}}'.repeat(6000)}`,
      /96001 characters long; the limit is 65536/,
    ],
    [
      'a template nesting 40 blocks',
      'template',
      `${'{{#if a}}'.repeat(40)}x${'{{/if}}'.repeat(40)}`,
      /nests blocks 40 deep; the limit is 32/,
    ],
    ['a template of 2,000 tags', 'template', '{{a}}'.repeat(2000), /2000 tags; the limit is 1000/],
    [
      'an expression nesting 5,000 brackets',
      'expression',
      `${'('.repeat(5000)}1${')'.repeat(5000)}`,
      /nests brackets 5000 deep; the limit is 100/,
    ],
    [
      'an expression of 40,000 characters',
      'expression',
      `1${' + 1'.repeat(10_000)}`,
      /40001 characters long; the limit is 32768/,
    ],
  ])(
    'refuses %s at validation with a field error naming the limit',
    async (_, key, text, limit) => {
      server = await startTestServer({ env: { SVC_LIMITS_MAX_BODY: '4MB' } });
      const config =
        key === 'template' ? { mode: 'TEMPLATE', template: text } : { expression: text };
      const asked = performance.now();
      const answer = await server.call('POST', '/api/sessions/validate', {
        body: runawayWorkflow('draft', config),
      });
      expect(performance.now() - asked).toBeLessThan(1_000);
      expect(answer.status).toBe(200);
      expect(answer.json.data.valid).toBe(false);
      expect(answer.json.data.errors).toEqual([
        expect.objectContaining({
          field: `nodes[1].config.${key}`,
          message: expect.stringMatching(limit),
        }),
      ]);
    },
  );
});
