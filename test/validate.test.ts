// SPEC "Validation result": POST /api/sessions/validate answers 200 with valid=false for a bad
// draft and saves nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../src/engine/index.js';
import { startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';
import { largeWorkflow, linearWorkflow } from './support/workflows.js';

describe('POST /api/sessions/validate (SPEC Validation result)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  async function validate(draft: unknown): Promise<{
    valid: boolean;
    message: string;
    errors: { field: string; message: string }[];
    outputPorts: Record<string, string[]>;
  }> {
    const answer = await server.call('POST', '/api/sessions/validate', { body: draft });
    expect(answer.status).toBe(200);
    return answer.json.data;
  }

  function withChanges(changes: Partial<WorkflowDefinition>): WorkflowDefinition {
    return { ...linearWorkflow('draft'), ...changes };
  }

  it('accepts a valid draft and lists every node output ports', async () => {
    const result = await validate(linearWorkflow('draft'));
    expect(result.valid).toBe(true);
    expect(result.outputPorts).toEqual({ start: ['out'], shape: ['out'], print: ['out'] });
    expect(typeof result.message).toBe('string');
  });

  it('refuses a cycle', async () => {
    const result = await validate(
      withChanges({ edges: [...linearWorkflow().edges, { source: 'print', target: 'shape' }] }),
    );
    expect(result.valid).toBe(false);
    expect(result.message).toMatch(/[Cc]ycle/);
  });

  it('refuses a draft without a trigger node', async () => {
    const result = await validate({
      workflowId: 'no-trigger',
      description: '',
      nodes: [{ nodeId: 'p', type: 'CONSOLE_TERMINAL' }],
      edges: [],
    });
    expect(result.valid).toBe(false);
    expect(result.message).toMatch(/trigger/i);
  });

  it('refuses an unknown plugin type', async () => {
    const result = await validate(
      withChanges({ nodes: [...linearWorkflow().nodes, { nodeId: 'z', type: 'TELEPORT' }] }),
    );
    expect(result.valid).toBe(false);
    expect(result.errors).toContainEqual(expect.objectContaining({ field: 'nodes[3].type' }));
    expect(result.message).toContain('TELEPORT');
  });

  it('refuses more than 500 nodes', async () => {
    const result = await validate(largeWorkflow(501, 500));
    expect(result.valid).toBe(false);
    expect(result.message).toContain('500');
  });

  it('refuses more than 2000 edges', async () => {
    const result = await validate(largeWorkflow(200, 2001));
    expect(result.valid).toBe(false);
    expect(result.message).toContain('2000');
  });

  it('accepts exactly 500 nodes and 2000 edges', async () => {
    const result = await validate(largeWorkflow(500, 2000));
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('refuses a duplicate node id', async () => {
    const result = await validate(
      withChanges({ nodes: [...linearWorkflow().nodes, { nodeId: 'shape', type: 'MANUAL' }] }),
    );
    expect(result.valid).toBe(false);
    expect(result.errors).toContainEqual(expect.objectContaining({ field: 'nodes[3].nodeId' }));
  });

  it('refuses an edge naming an unknown node', async () => {
    const result = await validate(
      withChanges({ edges: [...linearWorkflow().edges, { source: 'shape', target: 'ghost' }] }),
    );
    expect(result.valid).toBe(false);
    expect(result.errors).toContainEqual(expect.objectContaining({ field: 'edges[2].target' }));
  });

  it('refuses an edge naming an unknown port', async () => {
    const result = await validate(
      withChanges({
        edges: [
          { source: 'start', target: 'shape', sourcePort: 'rejected' },
          linearWorkflow().edges[1]!,
        ],
      }),
    );
    expect(result.valid).toBe(false);
    expect(result.errors).toContainEqual(expect.objectContaining({ field: 'edges[0].sourcePort' }));
  });

  it('refuses a description over 256 characters and accepts 256', async () => {
    expect((await validate(withChanges({ description: 'd'.repeat(257) }))).valid).toBe(false);
    expect((await validate(withChanges({ description: 'd'.repeat(256) }))).valid).toBe(true);
  });

  it("refuses a node config that its plugin's schema rejects", async () => {
    const result = await validate(
      withChanges({
        nodes: [
          { nodeId: 'start', type: 'MANUAL' },
          { nodeId: 'shape', type: 'DELAY', config: { delayMs: 'soon' } },
          { nodeId: 'print', type: 'CONSOLE_TERMINAL' },
        ],
      }),
    );
    expect(result.valid).toBe(false);
    expect(result.errors).toContainEqual(
      expect.objectContaining({ field: 'nodes[1].config.delayMs' }),
    );
  });

  it('refuses engine settings out of range (retry.maxAttempts at most 10, edgeBuffer.size 1 to 100000)', async () => {
    const result = await validate(
      withChanges({
        nodes: [
          { nodeId: 'start', type: 'MANUAL' },
          {
            nodeId: 'shape',
            type: 'MAPPER',
            config: {
              expression: '$',
              engine: { retry: { maxAttempts: 11 }, edgeBuffer: { size: 0 } },
            },
          },
          { nodeId: 'print', type: 'CONSOLE_TERMINAL' },
        ],
      }),
    );
    expect(result.valid).toBe(false);
    const fields = result.errors.map((error) => error.field);
    expect(fields).toContain('nodes[1].config.engine.retry.maxAttempts');
    expect(fields).toContain('nodes[1].config.engine.edgeBuffer.size');
  });

  it('reports ports per CONTRACT 2: BRANCH cases plus default, FILTER rejected, WAIT_FOR_SIGNAL approved/rejected, GATE pass/block, error with ERROR_PORT', async () => {
    const result = await validate({
      workflowId: 'ports',
      description: '',
      nodes: [
        { nodeId: 't', type: 'API_TRIGGER', config: { splitArray: true } },
        {
          nodeId: 'b',
          type: 'BRANCH',
          config: {
            cases: [
              { name: 'hi', expression: 'payload > 1' },
              { name: 'lo', expression: 'payload <= 1' },
            ],
          },
        },
        { nodeId: 'f', type: 'FILTER', config: { expression: 'true', onError: 'ERROR_PORT' } },
        { nodeId: 'w', type: 'WAIT_FOR_SIGNAL' },
        { nodeId: 'g', type: 'GATE', config: { expression: 'true' } },
      ],
      edges: [],
    });
    expect(result.outputPorts).toEqual({
      t: ['out'],
      b: ['out', 'hi', 'lo', 'default'],
      f: ['out', 'rejected', 'error'],
      w: ['out', 'approved', 'rejected'],
      g: ['out', 'pass', 'block'],
    });
  });

  it('saves nothing, even for a valid draft', async () => {
    await server.call('POST', '/api/sessions', {
      body: { sessionId: 'v', name: 'V', initiator: 'ida' },
    });
    await validate(linearWorkflow('not-saved'));
    expect((await server.call('GET', '/api/sessions/v/workflows')).json.data).toEqual([]);
  });

  it('answers a draft missing its nodes with 400 Validation failed', async () => {
    const answer = await server.call('POST', '/api/sessions/validate', {
      body: { workflowId: 'x', description: '' },
    });
    expect(answer.status).toBe(400);
    expect(answer.json.message).toBe('Validation failed');
    expect(answer.json.errors).toContainEqual(expect.objectContaining({ field: 'nodes' }));
  });

  /** Posts a draft that the request schema refuses, and returns the error answer. */
  async function refused(draft: unknown): Promise<{ message: string; errors: unknown }> {
    const answer = await server.call('POST', '/api/sessions/validate', { body: draft });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ status: 400, path: '/api/sessions/validate' });
    return { message: answer.json.message, errors: answer.json.errors };
  }

  it('answers a missing or empty workflowId with 400 Validation failed naming workflowId (SPEC WorkflowDefinition)', async () => {
    const { workflowId: _omitted, ...withoutId } = linearWorkflow('draft');
    const workflowIdError = {
      message: 'Validation failed',
      errors: [{ field: 'workflowId', message: 'Workflow id is mandatory' }],
    };
    expect(await refused(withoutId)).toEqual(workflowIdError);
    expect(await refused({ ...withoutId, workflowId: '' })).toEqual(workflowIdError);
  });

  it('reads a draft without description or edges as an empty description and no edges (SPEC WorkflowDefinition)', async () => {
    const nodes = [
      { nodeId: 'start', type: 'MANUAL' },
      { nodeId: 'print', type: 'CONSOLE_TERMINAL' },
    ];
    const bare = await validate({ workflowId: 'bare', nodes });
    expect(bare.valid).toBe(true);
    expect(bare.errors).toEqual([]);
    expect(bare).toEqual(await validate({ workflowId: 'bare', description: '', nodes, edges: [] }));
  });

  it('refuses a node without nodeId or with an empty one with 400 naming nodes[i].nodeId (SPEC Node)', async () => {
    const nodeIdError = {
      message: 'Validation failed',
      errors: [{ field: 'nodes[1].nodeId', message: 'Node id is mandatory' }],
    };
    for (const node of [{ type: 'CONSOLE_TERMINAL' }, { nodeId: '', type: 'CONSOLE_TERMINAL' }]) {
      expect(
        await refused({
          ...linearWorkflow('draft'),
          nodes: [{ nodeId: 'start', type: 'MANUAL' }, node],
        }),
      ).toEqual(nodeIdError);
    }
  });

  it('refuses a node without type or with an empty one with 400 naming nodes[i].type (SPEC Node)', async () => {
    const typeError = {
      message: 'Validation failed',
      errors: [{ field: 'nodes[1].type', message: 'Node type is mandatory' }],
    };
    for (const node of [{ nodeId: 'print' }, { nodeId: 'print', type: '' }]) {
      expect(
        await refused({
          ...linearWorkflow('draft'),
          nodes: [{ nodeId: 'start', type: 'MANUAL' }, node],
        }),
      ).toEqual(typeError);
    }
  });

  it('refuses an edge without source or with an empty one with 400 naming edges[i].source (SPEC Edge)', async () => {
    const sourceError = {
      message: 'Validation failed',
      errors: [{ field: 'edges[1].source', message: 'Edge source is mandatory' }],
    };
    const first = linearWorkflow().edges[0];
    for (const edge of [{ target: 'print' }, { source: '', target: 'print' }]) {
      expect(await refused({ ...linearWorkflow('draft'), edges: [first, edge] })).toEqual(
        sourceError,
      );
    }
  });

  it('refuses an edge without target or with an empty one with 400 naming edges[i].target (SPEC Edge)', async () => {
    const targetError = {
      message: 'Validation failed',
      errors: [{ field: 'edges[1].target', message: 'Edge target is mandatory' }],
    };
    const first = linearWorkflow().edges[0];
    for (const edge of [{ source: 'shape' }, { source: 'shape', target: '' }]) {
      expect(await refused({ ...linearWorkflow('draft'), edges: [first, edge] })).toEqual(
        targetError,
      );
    }
  });
});
