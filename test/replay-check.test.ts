// Replay check (docs/run-repair.md "Replay check"), through a real server: a recorded run's
// inputs through another version or a draft, compared per node, calling nothing outside (the
// calls are counted by a local HTTP service) and saving nothing.
import { describe, expect, it } from 'vitest';
import { countedServers } from './support/counting-service.js';
import { startTestServer } from './support/server.js';
import { endOf } from './support/wait.js';

/** in -> call (a counted echo) -> pick (a mapper) -> out. */
const calling = (base: string, pick = 'body.n * 2', first = 'n') => ({
  workflowId: 'calling',
  description: 'each number through a counted call and a mapper',
  nodes: [
    { nodeId: 'in', type: 'CONSTANT_SOURCE', config: { messages: [1, 2, 3] } },
    { nodeId: 'wrap', type: 'MAPPER', config: { expression: `{ "${first}": $ }` } },
    { nodeId: 'call', type: 'HTTP_REQUEST', config: { method: 'POST', url: `${base}/echo` } },
    { nodeId: 'pick', type: 'MAPPER', config: { expression: pick } },
    { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
  ],
  edges: [
    { source: 'in', target: 'wrap' },
    { source: 'wrap', target: 'call' },
    { source: 'call', target: 'pick' },
    { source: 'pick', target: 'out' },
  ],
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers of the API
type Json = any;

describe('Replay check', () => {
  const suite = countedServers((base) => [calling(base)]);

  const run = async (): Promise<string> => {
    const started = await suite.server.call('POST', '/api/workflow/start', {
      body: { sessionId: 's', workflowId: 'calling' },
    });
    const id = started.json.data.executionId as string;
    await endOf(suite.server, id);
    return id;
  };
  const save = async (definition: unknown) => {
    const saved = await suite.server.call('PUT', '/api/sessions/s/workflows/calling', {
      body: definition,
    });
    expect(saved.status, JSON.stringify(saved.json)).toBeLessThan(300);
  };
  const check = async (id: string, body: unknown): Promise<Json> => {
    const answer = await suite.server.call('POST', `/api/executions/${id}/replay-check`, { body });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    return answer.json.data;
  };
  const byNode = (result: Json): Record<string, Json> =>
    Object.fromEntries((result.nodes as Json[]).map((node) => [node.nodeId, node]));

  it('answers every node the same when nothing changed, without calling outside', async () => {
    const id = await run();
    expect(suite.service.count('/echo')).toBe(3);
    const result = await check(id, { version: 1 });
    expect(result).toMatchObject({ executionId: id, version: 1, status: 'COMPLETED', error: null });
    expect(result.nodes.map((node: Json) => node.nodeId)).toEqual([
      'in',
      'wrap',
      'call',
      'pick',
      'out',
    ]);
    for (const node of result.nodes as Json[]) {
      expect(node, node.nodeId as string).toMatchObject({ same: true, differences: [] });
    }
    expect(byNode(result).pick).toMatchObject({ recorded: 3, replayed: 3 });
    // The HTTP call answered from its recordings: the service was not called again.
    expect(suite.service.count('/echo')).toBe(3);
  });

  it("finds a changed mapper's different output, message by message, and saves nothing", async () => {
    const id = await run();
    const executions = async () =>
      ((await suite.server.call('GET', '/api/executions')).json.data as Json[]).length;
    const before = await executions();
    await save(calling(suite.base, 'body.n * 3'));
    const result = await check(id, { version: 2 });
    const nodes = byNode(result);
    expect(nodes.call).toMatchObject({ same: true, recorded: 3, replayed: 3 });
    expect(nodes.pick).toMatchObject({ same: false, recorded: 3, replayed: 3 });
    expect(nodes.pick.differences).toEqual([
      { messageId: expect.any(String), recorded: 2, replayed: 3 },
      { messageId: expect.any(String), recorded: 4, replayed: 6 },
      { messageId: expect.any(String), recorded: 6, replayed: 9 },
    ]);
    // The terminal has effects: it had no recording for the changed inputs, and said so.
    expect(nodes.out.same).toBe(false);
    expect(nodes.out.differences[0].note).toContain('no recording for this input');
    expect(suite.service.count('/echo')).toBe(3);
    // No execution, no audit entry.
    expect(await executions()).toBe(before);
    const audit = await suite.server.call('GET', `/api/control/audit?executionId=${id}`);
    expect(audit.json.data).toEqual([]);
  });

  it('reports an input a node with effects has no recording for instead of calling outside', async () => {
    const id = await run();
    await save(calling(suite.base, 'body.n * 2', 'm'));
    const nodes = byNode(await check(id, { version: 2 }));
    expect(nodes.wrap).toMatchObject({ same: false, recorded: 3, replayed: 3 });
    expect(nodes.call).toMatchObject({ same: false, recorded: 3, replayed: 0 });
    expect(nodes.call.differences[0]).toEqual({
      messageId: expect.any(String),
      note: 'no recording for this input (it differs from what the node received in the run); nothing was called',
    });
    expect(suite.service.count('/echo')).toBe(3);
  });

  it('checks an unsaved draft definition', async () => {
    const id = await run();
    const result = await check(id, { definition: calling(suite.base, 'body.n + 100') });
    expect(result.version).toBeNull();
    expect(byNode(result).pick.differences[0]).toMatchObject({ recorded: 2, replayed: 101 });
    const versions = await suite.server.call('GET', '/api/sessions/s/workflows/calling/versions');
    expect(versions.json.data).toHaveLength(1);
    expect(suite.service.count('/echo')).toBe(3);
  });

  it('answers 404 for a version not saved, and 400 for a body with neither or both fields', async () => {
    const id = await run();
    const missing = await suite.server.call('POST', `/api/executions/${id}/replay-check`, {
      body: { version: 7 },
    });
    expect(missing.status).toBe(404);
    for (const body of [{}, { version: 1, definition: calling(suite.base) }]) {
      const refused = await suite.server.call('POST', `/api/executions/${id}/replay-check`, {
        body,
      });
      expect(refused.status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe('Replay check of a run whose checkpoints were not kept', () => {
  it('refuses with 409 saying which output went over the in-memory caps', async () => {
    const server = await startTestServer({ env: { SVC_RESTART_MESSAGES_PER_NODE: '2' } });
    try {
      await server.call('POST', '/api/sessions', {
        body: {
          sessionId: 's',
          name: 's',
          initiator: 'i',
          workflows: [calling('http://127.0.0.1:1')],
        },
      });
      const started = await server.call('POST', '/api/workflow/start', {
        body: { sessionId: 's', workflowId: 'calling' },
      });
      const id = started.json.data.executionId as string;
      await endOf(server, id);
      const refused = await server.call('POST', `/api/executions/${id}/replay-check`, {
        body: { version: 1 },
      });
      expect(refused.status).toBe(409);
      expect(refused.json.message).toBe(
        `Execution '${id}' cannot be replay-checked: the output of node 'in' went over the in-memory checkpoint caps (set svc.restart.spill-dir or svc.restart.dir to keep it)`,
      );
    } finally {
      await server.close();
    }
  });
});
