// Repairing runs (docs/run-repair.md): a restart from a node with edited input, and a restart
// that replays on another saved version, through a real server; side effects are counted by a
// local HTTP service the workflows call.
import { describe, expect, it } from 'vitest';
import { countedServers } from './support/counting-service.js';
import { startTestServer } from './support/server.js';
import { endOf } from './support/wait.js';

/** in -> before (a counted call) -> pick -> charge (a counted call, refuses -5) -> out. */
const charging = (base: string) => ({
  workflowId: 'charging',
  description: 'a charge that fails on a negative amount',
  nodes: [
    { nodeId: 'in', type: 'CONSTANT_SOURCE', config: { messages: [{ amount: -5 }] } },
    { nodeId: 'before', type: 'HTTP_REQUEST', config: { method: 'POST', url: `${base}/before` } },
    { nodeId: 'pick', type: 'MAPPER', config: { expression: 'body' } },
    {
      nodeId: 'charge',
      type: 'HTTP_REQUEST',
      config: {
        method: 'POST',
        url: `${base}/charge`,
        engine: { retry: { maxAttempts: 2, backoffMs: 100 } },
      },
    },
    { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
  ],
  edges: [
    { source: 'in', target: 'before' },
    { source: 'before', target: 'pick' },
    { source: 'pick', target: 'charge' },
    { source: 'charge', target: 'out' },
  ],
});

/** in -> double -> tail -> out, with the tail's and the double's expressions given. */
const numbers = (tail: string, double = '$ * 2', messages = [1, 2, 3]) => ({
  workflowId: 'numbers',
  description: 'three numbers through two mappers',
  nodes: [
    { nodeId: 'in', type: 'CONSTANT_SOURCE', config: { messages } },
    { nodeId: 'double', type: 'MAPPER', config: { expression: double } },
    { nodeId: 'tail', type: 'MAPPER', config: { expression: tail } },
    { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
  ],
  edges: [
    { source: 'in', target: 'double' },
    { source: 'double', target: 'tail' },
    { source: 'tail', target: 'out' },
  ],
});

describe('Repairing runs', () => {
  const suite = countedServers((base) => [charging(base), numbers('$ + 1')]);

  const run = async (workflowId: string): Promise<string> => {
    const started = await suite.server.call('POST', '/api/workflow/start', {
      body: { sessionId: 's', workflowId },
    });
    const id = started.json.data.executionId as string;
    await endOf(suite.server, id);
    return id;
  };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers of the API
  const record = async (id: string): Promise<any> =>
    (await suite.server.call('GET', `/api/executions/${id}`)).json.data;
  const payloads = async (id: string): Promise<unknown[]> =>
    (
      (await suite.server.call('GET', `/api/executions/${id}/results`)).json.data as {
        payload: unknown;
      }[]
    ).map((result) => result.payload);
  /** Restarts, answers the new execution once it ended. */
  const restart = async (path: string, body?: unknown) => {
    const answer = await suite.server.call('POST', path, body === undefined ? {} : { body });
    expect(answer.status, JSON.stringify(answer.json)).toBe(202);
    const id = answer.json.data.executionId as string;
    await endOf(suite.server, id);
    return record(id);
  };
  const received = async (id: string, nodeId: string) =>
    (await suite.server.call('GET', `/api/executions/${id}/nodes/${nodeId}/messages?direction=in`))
      .json.data.items as { messageId: string; payload: unknown }[];
  const save = async (definition: unknown) => {
    const saved = await suite.server.call('PUT', '/api/sessions/s/workflows/numbers', {
      body: definition,
    });
    expect(saved.status, JSON.stringify(saved.json)).toBeLessThan(300);
  };

  it('fixes a failed run by editing what a node received: only that node and those after it run again', async () => {
    const first = await run('charging');
    expect(await record(first)).toMatchObject({ status: 'FAILED' });
    expect([suite.service.count('/before'), suite.service.count('/charge')]).toEqual([1, 2]);
    const [message] = await received(first, 'charge');
    expect(message?.payload).toEqual({ amount: -5 });

    const fixed = await restart(`/api/executions/${first}/restart/charge`, {
      inputs: [{ messageId: message?.messageId, payload: { amount: 5 } }],
    });
    expect(fixed).toMatchObject({ status: 'COMPLETED', restartOf: first });
    // The call before the edit is not made again; the charge is made once, and succeeds.
    expect([suite.service.count('/before'), suite.service.count('/charge')]).toEqual([1, 3]);
    expect(fixed.nodes.pick).toMatchObject({ status: 'COMPLETED', messagesIn: 0 });
    expect(fixed.nodes.before).toBeUndefined();
    expect(await payloads(fixed.executionId as string)).toEqual([
      expect.objectContaining({ status: 200, body: { amount: 5 } }),
    ]);
    // The edited message has an id of its own: a receiver deduping on ids takes it as new.
    const [edited] = await received(fixed.executionId as string, 'charge');
    expect(edited).toMatchObject({
      messageId: `${message?.messageId}.edit`,
      payload: { amount: 5 },
    });

    const audit = await suite.server.call('GET', `/api/control/audit?executionId=${first}`);
    expect(audit.json.data[0]).toMatchObject({
      command: 'RESTART_FROM_NODE',
      nodeId: 'charge',
      outcome: 'APPLIED',
      detail: `inputs: payload of ${message?.messageId} edited`,
    });
  });

  it('adds messages to what a node received', async () => {
    const first = await run('charging');
    const [message] = await received(first, 'charge');
    const added = await restart(`/api/executions/${first}/restart/charge`, {
      inputs: [
        { messageId: message?.messageId, payload: { amount: 1 } },
        { payload: { amount: 2 } },
      ],
    });
    expect(added.status).toBe('COMPLETED');
    expect(
      ((await payloads(added.executionId as string)) as { body: unknown }[]).map((r) => r.body),
    ).toEqual([{ amount: 1 }, { amount: 2 }]);
    expect(suite.service.count('/charge')).toBe(4);
    const audit = await suite.server.call('GET', `/api/control/audit?executionId=${first}`);
    expect(audit.json.data[0].detail).toBe(
      `inputs: payload of ${message?.messageId} edited; 1 message added`,
    );
  });

  it('answers 400 naming a message id the node did not receive, and runs nothing', async () => {
    const first = await run('charging');
    const answer = await suite.server.call('POST', `/api/executions/${first}/restart/charge`, {
      body: { inputs: [{ messageId: 'nope', payload: 1 }] },
    });
    expect(answer.status).toBe(400);
    expect(answer.json.message).toBe(
      `Message 'nope' is not one node 'charge' received in execution '${first}': edit a message listed by GET /api/executions/${first}/nodes/charge/messages?direction=in`,
    );
    const withoutPayload = await suite.server.call(
      'POST',
      `/api/executions/${first}/restart/charge`,
      {
        body: { inputs: [{ messageId: 'x' }] },
      },
    );
    expect(withoutPayload.status).toBe(400);
    const toTrigger = await suite.server.call('POST', `/api/executions/${first}/restart/in`, {
      body: { inputs: [{ payload: 1 }] },
    });
    expect(toTrigger.status).toBe(400);
    expect(toTrigger.json.message).toBe(
      `Execution '${first}' cannot be restarted: node 'in' has no parent to send it an added message`,
    );
    expect(suite.service.count('/charge')).toBe(2);
  });

  it('restarts from a node on a version with a changed mapper after it; the nodes above replay', async () => {
    const first = await run('numbers');
    expect(await payloads(first)).toEqual([3, 5, 7]);
    await save(numbers('$ + 100'));
    const replayed = await restart(`/api/executions/${first}/restart/tail`, { version: 2 });
    expect(replayed).toMatchObject({ status: 'COMPLETED', workflowVersion: 2 });
    expect(replayed.nodes.double).toMatchObject({ status: 'COMPLETED', messagesIn: 0 });
    expect(await payloads(replayed.executionId as string)).toEqual([102, 104, 106]);
    // Edited input and another version together.
    const [message] = await received(first, 'tail');
    const both = await restart(`/api/executions/${first}/restart/tail`, {
      version: 2,
      inputs: [{ messageId: message?.messageId, payload: 50 }],
    });
    expect(await payloads(both.executionId as string)).toEqual([150, 104, 106]);
    const audit = await suite.server.call('GET', `/api/control/audit?executionId=${first}`);
    expect(audit.json.data[0].detail).toBe(
      `inputs: payload of ${message?.messageId} edited; version 2`,
    );
  });

  it('answers 409 naming the node above the restart that differs in the version, and 404 for a version not saved', async () => {
    const first = await run('numbers');
    await save(numbers('$ + 1', '$ * 3'));
    const answer = await suite.server.call('POST', `/api/executions/${first}/restart/tail`, {
      body: { version: 2 },
    });
    expect(answer.status).toBe(409);
    expect(answer.json.message).toBe(
      `Execution '${first}' cannot be replayed on version 2: the graph above the restart differs, node 'double' differs (its type or configuration changed)`,
    );
    // From the changed node itself, nothing above it differs.
    const fromDouble = await restart(`/api/executions/${first}/restart/double`, { version: 2 });
    expect(await payloads(fromDouble.executionId as string)).toEqual([4, 7, 10]);
    const missing = await suite.server.call('POST', `/api/executions/${first}/restart/tail`, {
      body: { version: 9 },
    });
    expect(missing.status).toBe(404);
  });

  it('restarts a whole run on another version when its triggers are the same, else 409 naming the trigger', async () => {
    const first = await run('numbers');
    await save(numbers('$ + 100', '$ * 3'));
    const whole = await restart(`/api/executions/${first}/restart`, { version: 2 });
    expect(whole).toMatchObject({ status: 'COMPLETED', workflowVersion: 2 });
    expect(await payloads(whole.executionId as string)).toEqual([103, 106, 109]);
    await save(numbers('$ + 1', '$ * 2', [7]));
    const changed = await suite.server.call('POST', `/api/executions/${first}/restart`, {
      body: { version: 3 },
    });
    expect(changed.status).toBe(409);
    expect(changed.json.message).toMatch(/node 'in' differs/);
    const audit = await suite.server.call('GET', `/api/control/audit?executionId=${first}`);
    expect(audit.json.data.map((entry: { detail?: string }) => entry.detail)).toEqual([
      'version 3',
      'version 2',
    ]);
  });

  it('refuses a later restart that would replay, from the run before, a left-out node the version changed', async () => {
    const forked = (side: string) => ({
      workflowId: 'forked',
      description: 'two branches',
      nodes: [
        { nodeId: 'in', type: 'CONSTANT_SOURCE', config: { messages: [1, 2, 3] } },
        { nodeId: 'a', type: 'MAPPER', config: { expression: '$ * 2' } },
        { nodeId: 'outA', type: 'NOTIFY_TERMINAL' },
        { nodeId: 'b', type: 'MAPPER', config: { expression: side } },
        { nodeId: 'outB', type: 'NOTIFY_TERMINAL' },
      ],
      edges: [
        { source: 'in', target: 'a' },
        { source: 'a', target: 'outA' },
        { source: 'in', target: 'b' },
        { source: 'b', target: 'outB' },
      ],
    });
    const defined = await suite.server.call('PUT', '/api/sessions/s/workflows/forked', {
      body: forked('$ + 1'),
    });
    expect(defined.status).toBeLessThan(300);
    const first = await run('forked');
    await suite.server.call('PUT', '/api/sessions/s/workflows/forked', { body: forked('$ + 100') });
    // The branch through `b` is left out of the second run, which runs version 2.
    const second = (await restart(`/api/executions/${first}/restart/a`, { version: 2 }))
      .executionId as string;
    const refused = await suite.server.call('POST', `/api/executions/${second}/restart/outB`);
    expect(refused.status).toBe(400);
    expect(refused.json.message).toBe(
      `Execution '${second}' cannot be restarted: node 'b' was left out of execution '${second}', whose workflow version differs from that of '${first}', which recorded it, in that node or one above it`,
    );
    // `in` fed the second run, which recorded it: a restart from `b` runs version 2's `b`.
    const fromB = await restart(`/api/executions/${second}/restart/b`);
    expect(await payloads(fromB.executionId as string)).toEqual([101, 102, 103]);
  });

  it('restarts without a body exactly as before: the same version, no audit detail', async () => {
    const first = await run('numbers');
    await save(numbers('$ + 100'));
    const again = await restart(`/api/executions/${first}/restart/tail`);
    expect(again.workflowVersion).toBe(1);
    expect(await payloads(again.executionId as string)).toEqual([3, 5, 7]);
    const audit = await suite.server.call('GET', `/api/control/audit?executionId=${first}`);
    expect('detail' in audit.json.data[0]).toBe(false);
    const unknownField = await suite.server.call('POST', `/api/executions/${first}/restart`, {
      body: { inputs: [] },
    });
    expect(unknownField.status).toBe(400);
  });
});

describe('Repairing runs whose checkpoints were not kept', () => {
  it('refuses an edited-input restart needing output over the in-memory caps with 400 saying so', async () => {
    const server = await startTestServer({ env: { SVC_RESTART_MESSAGES_PER_NODE: '2' } });
    try {
      await server.call('POST', '/api/sessions', {
        body: { sessionId: 's', name: 's', initiator: 'i', workflows: [numbers('$ + 1')] },
      });
      const started = await server.call('POST', '/api/workflow/start', {
        body: { sessionId: 's', workflowId: 'numbers' },
      });
      const id = started.json.data.executionId as string;
      await endOf(server, id);
      const refused = await server.call('POST', `/api/executions/${id}/restart/tail`, {
        body: { inputs: [{ payload: 1 }], version: 1 },
      });
      expect(refused.status).toBe(400);
      expect(refused.json.message).toBe(
        `Execution '${id}' cannot be restarted: the output of node 'double' went over the in-memory checkpoint caps (set svc.restart.spill-dir or svc.restart.dir to keep it)`,
      );
    } finally {
      await server.close();
    }
  });
});
