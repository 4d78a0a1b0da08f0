// SPEC "Meters": svc.tracker.queue.depth (state events accepted and not yet applied) and
// svc.tracker.log.append.failed (failed writes to the execution log), read through the
// management endpoint of a server whose durable execution log is held or fails.
import { mkdtemp, open, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';
import { eventually } from './support/wait.js';

const flow = {
  workflowId: 'flow',
  description: 'one message',
  nodes: [
    { nodeId: 'in', type: 'MANUAL' },
    { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [{ source: 'in', target: 'out' }],
};

async function fileHandlePrototype(dir: string): Promise<FileHandle> {
  const handle = await open(path.join(dir, 'probe'), 'w');
  await handle.close();
  await rm(path.join(dir, 'probe'));
  return Object.getPrototypeOf(handle) as FileHandle;
}

describe('execution log meters (SPEC Meters)', () => {
  let dir: string;
  let server: TestServer;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'log-meters-'));
    server = await startTestServer({ env: { SVC_EXECUTION_LOG_DIR: path.join(dir, 'log') } });
    await server.call('POST', '/api/sessions', {
      body: { sessionId: 's', name: 's', initiator: 'tests', workflows: [flow] },
    });
  });

  afterEach(async () => {
    vi.restoreAllMocks();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  const meter = async (name: string, tag?: string): Promise<number> => {
    const query = tag === undefined ? '' : `?tag=${tag}`;
    const answer = await server.call('GET', `/actuator/metrics/${name}${query}`);
    expect(answer.status).toBe(200);
    return (answer.json.measurements as { value: number }[])[0]?.value ?? 0;
  };

  it('shows the events waiting for the execution log in svc.tracker.queue.depth', async () => {
    const prototype = await fileHandlePrototype(dir);
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    vi.spyOn(prototype, 'sync').mockImplementation(() => held);
    // The start is answered once its log entry is on storage: it waits for the held sync.
    const start = server.call('POST', '/api/workflow/start', {
      body: { sessionId: 's', workflowId: 'flow' },
    });
    await eventually(
      () => meter('svc.tracker.queue.depth'),
      (depth) => depth > 0,
    );
    release();
    expect((await start).status).toBe(202);
    await eventually(
      () => meter('svc.tracker.queue.depth'),
      (depth) => depth === 0,
    );
  });

  it('counts events the execution log could not write in svc.tracker.log.append.failed, by type', async () => {
    const prototype = await fileHandlePrototype(dir);
    vi.spyOn(prototype, 'write').mockRejectedValue(new Error('EIO: i/o error, write'));
    const start = await server.call('POST', '/api/workflow/start', {
      body: { sessionId: 's', workflowId: 'flow' },
    });
    expect(start.status).toBe(202);
    await eventually(
      () => meter('svc.tracker.log.append.failed', 'type:node'),
      (failed) => failed >= 2,
    );
    expect(await meter('svc.tracker.log.append.failed', 'type:run')).toBeGreaterThanOrEqual(2);
  });
});
