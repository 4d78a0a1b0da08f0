// FILE_WRITE and FILE_READ through a real server (SPEC Workflow-author safeguards: files are
// read and written inside a configured directory, `svc.files.base-dir`).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';
import { eventually } from './support/wait.js';

let server: TestServer | undefined;
let dir: string | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function runToEnd(running: TestServer, payload: unknown): Promise<string> {
  const start = await running.call('POST', '/api/workflow/start', {
    body: { sessionId: 's', workflowId: 'files', payload },
  });
  expect(start.status, start.text).toBe(202);
  const id = start.json.data.executionId as string;
  await eventually(
    () => running.call('GET', `/api/executions/${id}`),
    (answer) => !['QUEUED', 'RUNNING'].includes(answer.json.data.status as string),
  );
  return id;
}

describe('FILE_WRITE and FILE_READ in a workflow', () => {
  it('writes each item to a file named from its payload inside svc.files.base-dir, reads it back, and refuses a path out of it', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'svc-files-e2e-'));
    server = await startTestServer({ env: { SVC_FILES_BASE_DIR: dir } });
    await server.call('POST', '/api/sessions', {
      body: { sessionId: 's', name: 's', initiator: 'i' },
    });
    const saved = await server.call('PUT', '/api/sessions/s/workflows/files', {
      body: {
        workflowId: 'files',
        description: 'writes items and reads them back',
        nodes: [
          { nodeId: 'in', type: 'API_TRIGGER', config: { splitArray: true } },
          { nodeId: 'write', type: 'FILE_WRITE', config: { path: 'items/{{name}}.json' } },
          { nodeId: 'read', type: 'FILE_READ', config: { path: '{{path}}' } },
          { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
        ],
        edges: [
          { source: 'in', target: 'write' },
          { source: 'write', target: 'read' },
          { source: 'read', target: 'out' },
        ],
      },
    });
    expect(saved.status, saved.text).toBeLessThan(300);

    const id = await runToEnd(server, [
      { name: 'a', n: 1 },
      { name: 'b', n: 2 },
    ]);
    expect((await server.call('GET', `/api/executions/${id}`)).json.data.status).toBe('COMPLETED');
    const results = await server.call('GET', `/api/executions/${id}/results`);
    const payloads = (results.json.data as { payload: unknown }[]).map((result) => result.payload);
    expect(payloads).toEqual(
      expect.arrayContaining([
        { path: 'items/a.json', content: '{"name":"a","n":1}' },
        { path: 'items/b.json', content: '{"name":"b","n":2}' },
      ]),
    );
    expect(await readFile(path.join(dir, 'items/b.json'), 'utf8')).toBe('{"name":"b","n":2}');

    const escaping = await runToEnd(server, [{ name: '../../escaped' }]);
    const record = (await server.call('GET', `/api/executions/${escaping}`)).json.data;
    expect(record.status).toBe('FAILED');
    expect(record.nodes.write.status).toBe('FAILURE');
    expect(record.nodes.write.error).toContain('leads out of svc.files.base-dir');
    await expect(readFile(path.join(dir, '..', 'escaped.json'))).rejects.toThrow(/ENOENT/);
  });
});
