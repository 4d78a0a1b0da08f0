// SPEC "Workflow and session calls" and CONTRACT section 3/4: sessions through real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';
import { linearWorkflow } from './support/workflows.js';

describe('Sessions (CONTRACT 3, 4)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('creates a session with 201 and answers the full session record', async () => {
    const answer = await server.call('POST', '/api/sessions', {
      body: { name: 'Orders', initiator: 'alice', description: 'Order flows' },
    });
    expect(answer.status).toBe(201);
    const data = answer.json.data;
    expect(Object.keys(data).sort()).toEqual(
      [
        'createdAt',
        'description',
        'initiator',
        'name',
        'sessionId',
        'updatedAt',
        'workflows',
      ].sort(),
    );
    expect(data).toMatchObject({
      name: 'Orders',
      initiator: 'alice',
      description: 'Order flows',
      workflows: [],
    });
    expect(data.sessionId).toMatch(/\S+/);
    expect(Date.parse(data.createdAt)).not.toBeNaN();
  });

  it('uses a given sessionId and refuses a second session with the same id with 409', async () => {
    const first = await server.call('POST', '/api/sessions', {
      body: { sessionId: 'fixed-id', name: 'A', initiator: 'bob' },
    });
    expect(first.status).toBe(201);
    expect(first.json.data.sessionId).toBe('fixed-id');
    const second = await server.call('POST', '/api/sessions', {
      body: { sessionId: 'fixed-id', name: 'B', initiator: 'bob' },
    });
    expect(second.status).toBe(409);
    expect(second.json.message).toContain('fixed-id');
  });

  it('refuses a sessionId that would make paths ambiguous', async () => {
    const answer = await server.call('POST', '/api/sessions', {
      body: { sessionId: 'a/b', name: 'A', initiator: 'bob' },
    });
    expect(answer.status).toBe(400);
    expect(answer.json.errors[0].field).toBe('sessionId');
  });

  it('creates a session together with its workflows', async () => {
    const answer = await server.call('POST', '/api/sessions', {
      body: {
        sessionId: 'with-wf',
        name: 'W',
        initiator: 'carol',
        workflows: [linearWorkflow('one'), linearWorkflow('two')],
      },
    });
    expect(answer.status).toBe(201);
    expect(answer.json.data.workflows).toEqual(['one', 'two']);
    const read = await server.call('GET', '/api/sessions/with-wf/workflows/two');
    expect(read.json.data).toEqual(linearWorkflow('two'));
  });

  it('refuses a session whose workflow fails validation, saving nothing', async () => {
    const broken = { ...linearWorkflow('bad'), nodes: [{ nodeId: 'x', type: 'NOPE' }], edges: [] };
    const answer = await server.call('POST', '/api/sessions', {
      body: { sessionId: 'never', name: 'N', initiator: 'dan', workflows: [broken] },
    });
    expect(answer.status).toBe(400);
    expect(answer.json.message).toBe('Validation failed');
    expect(answer.json.errors).toContainEqual(
      expect.objectContaining({ field: 'workflows[0].nodes[0].type' }),
    );
    expect((await server.call('GET', '/api/sessions/never')).status).toBe(404);
  });

  it('lists sessions and reads one', async () => {
    await server.call('POST', '/api/sessions', {
      body: { sessionId: 'listed', name: 'L', initiator: 'eve' },
    });
    const list = await server.call('GET', '/api/sessions');
    expect(list.status).toBe(200);
    expect(list.json.data.map((s: { sessionId: string }) => s.sessionId)).toContain('listed');
    const one = await server.call('GET', '/api/sessions/listed');
    expect(one.status).toBe(200);
    expect(one.json.data).toMatchObject({ sessionId: 'listed', name: 'L', initiator: 'eve' });
  });

  it('deletes a session with its workflows; a second delete is 404', async () => {
    await server.call('POST', '/api/sessions', {
      body: { sessionId: 'doomed', name: 'D', initiator: 'fay', workflows: [linearWorkflow('w')] },
    });
    const removed = await server.call('DELETE', '/api/sessions/doomed');
    expect(removed.status).toBe(200);
    expect(removed.json.data).toEqual({ sessionId: 'doomed' });
    expect((await server.call('GET', '/api/sessions/doomed')).status).toBe(404);
    expect((await server.call('GET', '/api/sessions/doomed/workflows/w')).status).toBe(404);
    expect((await server.call('DELETE', '/api/sessions/doomed')).status).toBe(404);
  });

  it('answers an unknown session with 404 naming it', async () => {
    const answer = await server.call('GET', '/api/sessions/ghost');
    expect(answer.status).toBe(404);
    expect(answer.json.message).toContain("'ghost'");
    expect(answer.json.path).toBe('/api/sessions/ghost');
  });
});
