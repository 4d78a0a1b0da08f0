// CONTRACT section 4: define, read, list and delete workflows, and their graph.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';
import { linearWorkflow } from './support/workflows.js';

describe('Workflows (CONTRACT 4)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    await server.call('POST', '/api/sessions', {
      body: { sessionId: 's1', name: 'S', initiator: 'ann' },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('defines a workflow with PUT (201), replaces it (200) and reads back the WorkflowDefinition', async () => {
    const created = await server.call('PUT', '/api/sessions/s1/workflows/flow', {
      body: linearWorkflow('flow'),
    });
    expect(created.status).toBe(201);
    expect(created.json.data).toEqual({
      sessionId: 's1',
      workflowId: 'flow',
      version: 1,
      created: true,
    });
    const changed = { ...linearWorkflow('flow'), description: 'second' };
    const replaced = await server.call('PUT', '/api/sessions/s1/workflows/flow', { body: changed });
    expect(replaced.status).toBe(200);
    expect(replaced.json.data.version).toBe(2);
    const read = await server.call('GET', '/api/sessions/s1/workflows/flow');
    expect(read.status).toBe(200);
    expect(read.json.data).toEqual(changed);
  });

  it('takes the workflow id from the path when the body leaves it out, and refuses a mismatch', async () => {
    const { workflowId: _omitted, ...body } = linearWorkflow('ignored');
    const saved = await server.call('PUT', '/api/sessions/s1/workflows/from-path', { body });
    expect(saved.status).toBe(201);
    expect(
      (await server.call('GET', '/api/sessions/s1/workflows/from-path')).json.data.workflowId,
    ).toBe('from-path');
    const mismatch = await server.call('PUT', '/api/sessions/s1/workflows/a', {
      body: linearWorkflow('b'),
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.json.errors[0].field).toBe('workflowId');
  });

  it('saves a definition without description or edges with an empty description and no edges (SPEC WorkflowDefinition)', async () => {
    const nodes = [{ nodeId: 'start', type: 'MANUAL' }];
    const saved = await server.call('PUT', '/api/sessions/s1/workflows/bare', { body: { nodes } });
    expect(saved.status).toBe(201);
    const read = await server.call('GET', '/api/sessions/s1/workflows/bare');
    expect(read.status).toBe(200);
    expect(read.json.data).toEqual({ workflowId: 'bare', description: '', nodes, edges: [] });
  });

  it('refuses an empty workflowId in the PUT body with 400 naming workflowId (SPEC WorkflowDefinition)', async () => {
    const answer = await server.call('PUT', '/api/sessions/s1/workflows/empty-id', {
      body: linearWorkflow(''),
    });
    expect(answer.status).toBe(400);
    expect(answer.json.message).toBe('Validation failed');
    expect(answer.json.errors).toEqual([
      { field: 'workflowId', message: 'Workflow id is mandatory' },
    ]);
    expect((await server.call('GET', '/api/sessions/s1/workflows/empty-id')).status).toBe(404);
  });

  it('refuses to save nodes and edges missing nodeId, type, source or target with 400 naming each path, saving nothing (SPEC Node, Edge)', async () => {
    const answer = await server.call('PUT', '/api/sessions/s1/workflows/holes', {
      body: {
        description: '',
        nodes: [{ type: 'MANUAL' }, { nodeId: 'print', type: '' }],
        edges: [{ target: 'print' }, { source: 'start', target: '' }],
      },
    });
    expect(answer.status).toBe(400);
    expect(answer.json.message).toBe('Validation failed');
    expect(answer.json.errors).toEqual(
      expect.arrayContaining([
        { field: 'nodes[0].nodeId', message: 'Node id is mandatory' },
        { field: 'nodes[1].type', message: 'Node type is mandatory' },
        { field: 'edges[0].source', message: 'Edge source is mandatory' },
        { field: 'edges[1].target', message: 'Edge target is mandatory' },
      ]),
    );
    expect(answer.json.errors).toHaveLength(4);
    expect((await server.call('GET', '/api/sessions/s1/workflows/holes')).status).toBe(404);
  });

  it('refuses to save a workflow that fails validation with 400 and the reasons, saving nothing', async () => {
    const cyclic = {
      ...linearWorkflow('cyclic'),
      edges: [...linearWorkflow().edges, { source: 'shape', target: 'shape' }],
    };
    const answer = await server.call('PUT', '/api/sessions/s1/workflows/cyclic', { body: cyclic });
    expect(answer.status).toBe(400);
    expect(answer.json.message).toBe('Validation failed');
    expect(answer.json.errors.length).toBeGreaterThan(0);
    expect(JSON.stringify(answer.json.errors)).toMatch(/[Cc]ycle/);
    expect((await server.call('GET', '/api/sessions/s1/workflows/cyclic')).status).toBe(404);
  });

  it('answers 404 for a workflow of an unknown session or an unknown workflow', async () => {
    expect(
      (await server.call('PUT', '/api/sessions/nope/workflows/x', { body: linearWorkflow('x') }))
        .status,
    ).toBe(404);
    const missing = await server.call('GET', '/api/sessions/s1/workflows/unknown');
    expect(missing.status).toBe(404);
    expect(missing.json.message).toContain("'unknown'");
  });

  it('lists the workflows of a session with their current version', async () => {
    await server.call('PUT', '/api/sessions/s1/workflows/listed', {
      body: linearWorkflow('listed'),
    });
    const list = await server.call('GET', '/api/sessions/s1/workflows');
    expect(list.status).toBe(200);
    const listed = list.json.data.find((w: { workflowId: string }) => w.workflowId === 'listed');
    expect(listed).toMatchObject({ workflowId: 'listed', version: 1, nodes: 3, edges: 2 });
    const session = await server.call('GET', '/api/sessions/s1');
    expect(session.json.data.workflows).toContain('listed');
  });

  it('deletes a workflow; a second delete is 404', async () => {
    await server.call('PUT', '/api/sessions/s1/workflows/gone', { body: linearWorkflow('gone') });
    expect((await server.call('DELETE', '/api/sessions/s1/workflows/gone')).status).toBe(200);
    expect((await server.call('GET', '/api/sessions/s1/workflows/gone')).status).toBe(404);
    expect((await server.call('DELETE', '/api/sessions/s1/workflows/gone')).status).toBe(404);
  });

  it('describes the graph: nodes with kinds and levels, edges, output ports and topological levels', async () => {
    const diamond = {
      workflowId: 'diamond',
      description: 'fan-out and join',
      nodes: [
        { nodeId: 't', type: 'MANUAL' },
        { nodeId: 'f', type: 'FILTER', config: { expression: 'payload.ok' } },
        {
          nodeId: 'b',
          type: 'BRANCH',
          config: { cases: [{ name: 'big', expression: 'payload.n > 10' }] },
        },
        { nodeId: 'end', type: 'CONSOLE_TERMINAL' },
      ],
      edges: [
        { source: 't', target: 'f' },
        { source: 't', target: 'b' },
        { source: 'f', target: 'end', sourcePort: 'rejected' },
        { source: 'b', target: 'end', sourcePort: 'big' },
      ],
    };
    await server.call('PUT', '/api/sessions/s1/workflows/diamond', { body: diamond });
    const graph = await server.call('GET', '/api/sessions/s1/workflows/diamond/graph');
    expect(graph.status).toBe(200);
    expect(graph.json.data.levels).toEqual([['t'], expect.arrayContaining(['f', 'b']), ['end']]);
    expect(graph.json.data.outputPorts).toEqual({
      t: ['out'],
      f: ['out', 'rejected'],
      b: ['out', 'big', 'default'],
      end: ['out'],
    });
    expect(graph.json.data.nodes).toContainEqual(
      expect.objectContaining({ nodeId: 'f', type: 'FILTER', kind: 'processor', level: 1 }),
    );
    expect(graph.json.data.edges).toHaveLength(4);
  });
});
