// A workflow's layout (docs/ui.md, "Layout"): node positions kept beside the versions, read and
// replaced over HTTP without making a version, checked against the current version's nodes,
// reached with the roles of the workflow it belongs to, and gone with its workflow.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeysEnv } from './support/api-keys.js';
import { startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';
import { linearWorkflow } from './support/workflows.js';

const ADMIN = { authorization: 'Bearer admin-key' };
const OPERATOR = { authorization: 'Bearer operator-key' };
const VIEWER = { authorization: 'Bearer viewer-key' };
const OTHER_SESSION = { authorization: 'Bearer other-key' };

const workflowPath = '/api/sessions/ls/workflows/flow';
const layoutPath = `${workflowPath}/layout`;

describe('Workflow layouts (docs/ui.md Layout)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({
      env: {
        ...apiKeysEnv({
          admin: 'ADMIN',
          operator: 'OPERATOR',
          viewer: 'VIEWER',
          other: { role: 'ADMIN', sessions: 'elsewhere' },
        }),
      },
    });
    await server.call('POST', '/api/sessions', {
      headers: ADMIN,
      body: { sessionId: 'ls', name: 'Layouts', initiator: 'kim' },
    });
    const saved = await server.call('PUT', workflowPath, {
      headers: ADMIN,
      body: linearWorkflow('flow'),
    });
    expect(saved.status).toBe(201);
  });
  afterAll(async () => {
    await server.close();
  });

  async function versionCount(): Promise<number> {
    const versions = await server.call('GET', `${workflowPath}/versions`, { headers: ADMIN });
    return (versions.json.data as unknown[]).length;
  }

  it('answers empty positions for a workflow whose layout was never saved', async () => {
    const answer = await server.call('GET', layoutPath, { headers: VIEWER });
    expect(answer.status).toBe(200);
    expect(answer.json.data).toEqual({
      sessionId: 'ls',
      workflowId: 'flow',
      version: 1,
      positions: {},
    });
  });

  it('keeps the positions saved and reads them back, making no new version', async () => {
    const positions = { start: { x: 20, y: 40.5 }, shape: { x: 320, y: -16 } };
    const saved = await server.call('PUT', layoutPath, { headers: ADMIN, body: { positions } });
    expect(saved.status).toBe(200);
    expect(saved.json.message).toBe('Workflow layout saved');
    expect(saved.json.data).toEqual({ sessionId: 'ls', workflowId: 'flow', version: 1, positions });
    const read = await server.call('GET', layoutPath, { headers: VIEWER });
    expect(read.json.data.positions).toEqual(positions);
    expect(await versionCount()).toBe(1);
    // A save replaces the layout whole.
    const moved = { print: { x: 1, y: 2 } };
    await server.call('PUT', layoutPath, { headers: ADMIN, body: { positions: moved } });
    expect((await server.call('GET', layoutPath, { headers: VIEWER })).json.data.positions).toEqual(
      moved,
    );
  });

  it('keeps the positions of the nodes a new version still has and forgets the others', async () => {
    const positions = { start: { x: 1, y: 1 }, shape: { x: 2, y: 2 }, print: { x: 3, y: 3 } };
    await server.call('PUT', layoutPath, { headers: ADMIN, body: { positions } });
    const definition = linearWorkflow('flow');
    const withoutShape = {
      ...definition,
      nodes: definition.nodes.filter((node) => node.nodeId !== 'shape'),
      edges: [{ source: 'start', target: 'print' }],
    };
    const saved = await server.call('PUT', workflowPath, { headers: ADMIN, body: withoutShape });
    expect(saved.status).toBe(200);
    const read = await server.call('GET', layoutPath, { headers: VIEWER });
    expect(read.json.data).toMatchObject({
      version: saved.json.data.version,
      positions: { start: { x: 1, y: 1 }, print: { x: 3, y: 3 } },
    });
    expect(read.json.data.positions).not.toHaveProperty('shape');
    await server.call('PUT', workflowPath, { headers: ADMIN, body: linearWorkflow('flow') });
  });

  it('refuses positions of nodes the current version lacks with 400, naming each field', async () => {
    const before = (await server.call('GET', layoutPath, { headers: VIEWER })).json.data;
    const answer = await server.call('PUT', layoutPath, {
      headers: ADMIN,
      body: { positions: { start: { x: 0, y: 0 }, ghost: { x: 1, y: 1 } } },
    });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({
      status: 400,
      error: 'Bad Request',
      message: 'Validation failed',
      path: layoutPath,
    });
    expect(answer.json.errors).toEqual([
      {
        field: 'positions.ghost',
        message: "Node 'ghost' is not in the current version of the workflow",
      },
    ]);
    // Refused whole: nothing of it was kept.
    expect((await server.call('GET', layoutPath, { headers: VIEWER })).json.data).toEqual(before);
  });

  it('refuses more than 500 entries with 400', async () => {
    const positions = Object.fromEntries(
      Array.from({ length: 501 }, (_, index) => [`n${index}`, { x: index, y: index }]),
    );
    const answer = await server.call('PUT', layoutPath, { headers: ADMIN, body: { positions } });
    expect(answer.status).toBe(400);
    expect(answer.json.errors).toEqual([
      { field: 'positions', message: 'Positions must have at most 500 entries, not 501' },
    ]);
  });

  it('refuses coordinates that are not finite numbers, and unknown fields (SPEC Errors)', async () => {
    const text = await server.call('PUT', layoutPath, {
      headers: ADMIN,
      body: { positions: { start: { x: 'left', y: 0 } } },
    });
    expect(text.status).toBe(400);
    expect(text.json.message).toBe('Validation failed');
    expect(text.json.errors).toEqual([
      { field: 'positions.start.x', message: 'Position x must be a finite number' },
    ]);
    // 1e999 is valid JSON that parses to Infinity.
    const infinite = await server.call('PUT', layoutPath, {
      headers: { ...ADMIN, 'content-type': 'application/json' },
      body: '{"positions":{"start":{"x":0,"y":1e999}}}',
    });
    expect(infinite.status).toBe(400);
    expect(infinite.json.errors).toEqual([
      { field: 'positions.start.y', message: 'Position y must be a finite number' },
    ]);
    const unknown = await server.call('PUT', layoutPath, {
      headers: ADMIN,
      body: { positions: {}, zoom: 2 },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.json.message).toBe('Invalid request body');
    expect(unknown.json.errors).toEqual([{ field: 'zoom', message: "Unknown field: 'zoom'" }]);
    const missing = await server.call('PUT', layoutPath, { headers: ADMIN, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.json.errors[0].field).toBe('positions');
  });

  it('answers 404 with the messages of the other workflow calls for an unknown session or workflow', async () => {
    for (const method of ['GET', 'PUT']) {
      const body = method === 'PUT' ? { positions: {} } : undefined;
      const noWorkflow = await server.call(method, '/api/sessions/ls/workflows/nope/layout', {
        headers: ADMIN,
        ...(body === undefined ? {} : { body }),
      });
      expect(noWorkflow.status).toBe(404);
      expect(noWorkflow.json.message).toBe("Workflow 'nope' does not exist in session 'ls'");
      const noSession = await server.call(method, '/api/sessions/nope/workflows/flow/layout', {
        headers: ADMIN,
        ...(body === undefined ? {} : { body }),
      });
      expect(noSession.status).toBe(404);
      expect(noSession.json.message).toBe("Session 'nope' does not exist");
    }
  });

  it('lets a viewer read and only an admin of the session save (SPEC Authentication)', async () => {
    const body = { positions: { start: { x: 5, y: 5 } } };
    expect((await server.call('GET', layoutPath, { headers: OPERATOR })).status).toBe(200);
    expect((await server.call('GET', layoutPath)).status).toBe(401);
    expect((await server.call('PUT', layoutPath, { headers: VIEWER, body })).status).toBe(403);
    expect((await server.call('PUT', layoutPath, { headers: OPERATOR, body })).status).toBe(403);
    expect((await server.call('GET', layoutPath, { headers: OTHER_SESSION })).status).toBe(403);
    expect((await server.call('PUT', layoutPath, { headers: OTHER_SESSION, body })).status).toBe(
      403,
    );
    expect((await server.call('PUT', layoutPath, { headers: ADMIN, body })).status).toBe(200);
  });

  it('drops the layout with its workflow: made again, the workflow has none', async () => {
    const path = '/api/sessions/ls/workflows/brief/layout';
    await server.call('PUT', '/api/sessions/ls/workflows/brief', {
      headers: ADMIN,
      body: linearWorkflow('brief'),
    });
    await server.call('PUT', path, {
      headers: ADMIN,
      body: { positions: { start: { x: 9, y: 9 } } },
    });
    expect(
      (await server.call('DELETE', '/api/sessions/ls/workflows/brief', { headers: ADMIN })).status,
    ).toBe(200);
    expect((await server.call('GET', path, { headers: ADMIN })).status).toBe(404);
    await server.call('PUT', '/api/sessions/ls/workflows/brief', {
      headers: ADMIN,
      body: linearWorkflow('brief'),
    });
    expect((await server.call('GET', path, { headers: ADMIN })).json.data.positions).toEqual({});
  });
});
