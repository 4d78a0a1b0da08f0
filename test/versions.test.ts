// SPEC "Versioning" and CONTRACT section 4: every save is a version; list, read, diff, rollback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';
import { linearWorkflow } from './support/workflows.js';

const base = '/api/sessions/vs/workflows/flow';

describe('Workflow versions (SPEC Versioning, CONTRACT 4)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    await server.call('POST', '/api/sessions', {
      body: { sessionId: 'vs', name: 'V', initiator: 'kim' },
    });
    await server.call('PUT', base, { body: linearWorkflow('flow', 'first') });
    await server.call('PUT', base, {
      body: {
        ...linearWorkflow('flow', 'second'),
        nodes: [
          { nodeId: 'start', type: 'MANUAL' },
          {
            nodeId: 'shape',
            type: 'MAPPER',
            config: { mode: 'PROJECTION', expression: '{"n": 2}' },
          },
          { nodeId: 'print', type: 'CONSOLE_TERMINAL' },
          { nodeId: 'note', type: 'NOTIFY_TERMINAL' },
        ],
        edges: [...linearWorkflow().edges, { source: 'shape', target: 'note' }],
      },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('lists versions newest first with version, createdAt, author, note and current', async () => {
    const answer = await server.call('GET', `${base}/versions`);
    expect(answer.status).toBe(200);
    const versions = answer.json.data;
    expect(versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect(versions[0]).toMatchObject({
      version: 2,
      current: true,
      author: 'anonymous',
      note: null,
    });
    expect(versions[1].current).toBe(false);
    expect(Date.parse(versions[0].createdAt)).not.toBeNaN();
  });

  it('keeps the note given with a save (?note=), and refuses a note over 1024 characters', async () => {
    const noted = '/api/sessions/vs/workflows/noted';
    const saved = await server.call(
      'PUT',
      `${noted}?note=${encodeURIComponent('from git 1a2b3c')}`,
      {
        body: linearWorkflow('noted'),
      },
    );
    expect(saved.status).toBe(201);
    const versions = await server.call('GET', `${noted}/versions`);
    expect(versions.json.data[0]).toMatchObject({ version: 1, note: 'from git 1a2b3c' });
    const tooLong = await server.call('PUT', `${noted}?note=${'n'.repeat(1025)}`, {
      body: linearWorkflow('noted'),
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.json.errors).toEqual([
      { field: 'note', message: "Parameter 'note' must be at most 1024 characters" },
    ]);
  });

  it('reads one saved definition', async () => {
    const answer = await server.call('GET', `${base}/versions/1`);
    expect(answer.status).toBe(200);
    expect(answer.json.data.description).toBe('first');
  });

  it('answers an unknown version with 404', async () => {
    expect((await server.call('GET', `${base}/versions/99`)).status).toBe(404);
    expect((await server.call('GET', `${base}/versions/abc`)).status).toBe(404);
  });

  it('diffs two versions structurally', async () => {
    const answer = await server.call('GET', `${base}/versions/diff?from=1&to=2`);
    expect(answer.status).toBe(200);
    const diff = answer.json.data;
    expect(diff).toMatchObject({ from: 1, to: 2 });
    expect(diff.nodes.added).toEqual([{ nodeId: 'note', type: 'NOTIFY_TERMINAL' }]);
    expect(diff.nodes.removed).toEqual([]);
    expect(diff.nodes.changed.map((n: { nodeId: string }) => n.nodeId)).toEqual(['shape']);
    expect(diff.edges.added).toEqual([{ source: 'shape', target: 'note' }]);
    expect(diff.edges.removed).toEqual([]);
  });

  it('refuses a diff without its parameters with 400 and an unknown version with 404', async () => {
    const missing = await server.call('GET', `${base}/versions/diff?from=1`);
    expect(missing.status).toBe(400);
    expect(missing.json.message).toContain('to');
    expect((await server.call('GET', `${base}/versions/diff?from=1&to=7`)).status).toBe(404);
  });

  it('rolls back by saving the old definition as a new current version', async () => {
    const answer = await server.call('POST', `${base}/versions/1/rollback`);
    expect(answer.status).toBe(200);
    expect(answer.json.data).toMatchObject({ version: 3, current: true });
    const current = await server.call('GET', base);
    expect(current.json.data.description).toBe('first');
    const versions = (await server.call('GET', `${base}/versions`)).json.data;
    expect(versions[0]).toMatchObject({ version: 3, current: true, note: 'Rollback to version 1' });
    expect((await server.call('POST', `${base}/versions/42/rollback`)).status).toBe(404);
  });

  it('adds the note a rollback is given after what it restores', async () => {
    const answer = await server.call('POST', `${base}/versions/2/rollback?note=v1%20was%20wrong`);
    expect(answer.status).toBe(200);
    expect(answer.json.data).toMatchObject({
      version: 4,
      current: true,
      note: 'Rollback to version 2: v1 was wrong',
    });
    const long = await server.call('POST', `${base}/versions/2/rollback?note=${'x'.repeat(1025)}`);
    expect(long.status).toBe(400);
  });

  it('keeps only the newest 20 versions', async () => {
    await server.call('POST', '/api/sessions', {
      body: { sessionId: 'many', name: 'M', initiator: 'lee' },
    });
    for (let i = 1; i <= 23; i++) {
      const saved = await server.call('PUT', '/api/sessions/many/workflows/w', {
        body: linearWorkflow('w', `v${i}`),
      });
      expect(saved.json.data.version).toBe(i);
    }
    const versions = (await server.call('GET', '/api/sessions/many/workflows/w/versions')).json
      .data;
    expect(versions).toHaveLength(20);
    expect(versions[0].version).toBe(23);
    expect(versions[19].version).toBe(4);
    expect((await server.call('GET', '/api/sessions/many/workflows/w/versions/3')).status).toBe(
      404,
    );
  });
});
