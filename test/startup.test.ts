// SPEC "Runtime profiles" and CONTRACT section 5: the server process, its start-up line and
// the settings that stop start-up.
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { call } from './support/server.js';
import { runServerToExit, startServerProcess } from './support/process.js';
import type { ServerProcess } from './support/process.js';

const running: ServerProcess[] = [];
const dirs: string[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-startup-'));
  dirs.push(dir);
  return dir;
}

async function start(
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const server = await startServerProcess(args, env);
  running.push(server);
  return server;
}

afterEach(async () => {
  for (const server of running.splice(0)) {
    if (server.child.exitCode === null) {
      server.child.kill('SIGKILL');
      await server.exited();
    }
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('Server process (CONTRACT 5, SPEC Runtime profiles)', () => {
  it('listens on 127.0.0.1 and logs a line naming the address and port', async () => {
    const server = await start();
    expect(server.output()).toMatch(/Listening on http:\/\/127\.0\.0\.1:\d+/);
    const answer = await call(server.baseUrl, 'GET', '/api/sessions');
    expect(answer.status).toBe(200);
  });

  it('prints the banner in dev and not in prod', async () => {
    const dev = await start();
    expect(dev.output()).toContain('workflow service');
    const prod = await start(['prod']);
    expect(prod.output()).not.toContain('workflow service');
  });

  it('stops on SIGTERM with exit code 0', async () => {
    const server = await start();
    server.child.kill('SIGTERM');
    expect(await server.exited()).toBe(0);
  });

  it('refuses an unknown svc.* setting naming it', async () => {
    const result = await runServerToExit(['--svc.server.prot=9000']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('svc.server.prot');
  });

  it('refuses a bad value naming the setting', async () => {
    const result = await runServerToExit([], { SVC_SERVER_PORT: 'eighty' });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('svc.server.port');
  });

  it('refuses an unknown key in the YAML file naming it', async () => {
    const file = join(tempDir(), 'settings.yaml');
    writeFileSync(file, 'svc:\n  server:\n    colour: blue\n');
    const result = await runServerToExit(['--config', file]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('svc.server.colour');
  });

  it('reads the port from the YAML file', async () => {
    const file = join(tempDir(), 'settings.yaml');
    writeFileSync(file, 'svc:\n  server:\n    port: 0\n  limits:\n    max-body: 4KB\n');
    const server = await start(['--config', file]);
    const big = await call(server.baseUrl, 'POST', '/api/sessions', {
      body: { name: 'n', initiator: 'i', description: 'z'.repeat(5000) },
    });
    expect(big.status).toBe(413);
  });

  it('refuses the postgres profile clearly while the build has no relational stores', async () => {
    const result = await runServerToExit(['postgres']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/postgres/);
    expect(result.stderr).toMatch(/relational/);
  });
});

describe('File session store through the server (SPEC Deployment facts: persistence)', () => {
  it('keeps sessions and workflow versions across a kill -9 and a restart', async () => {
    const dir = tempDir();
    const env = { SVC_SESSION_STORE_TYPE: 'file', SVC_SESSION_BASE_DIR: dir };
    const first = await start([], env);
    await call(first.baseUrl, 'POST', '/api/sessions', {
      body: { sessionId: 'keep', name: 'K', initiator: 'ops' },
    });
    const workflow = {
      workflowId: 'w',
      description: 'kept',
      nodes: [
        { nodeId: 't', type: 'MANUAL' },
        { nodeId: 'p', type: 'CONSOLE_TERMINAL' },
      ],
      edges: [{ source: 't', target: 'p' }],
    };
    await call(first.baseUrl, 'PUT', '/api/sessions/keep/workflows/w', { body: workflow });
    await call(first.baseUrl, 'PUT', '/api/sessions/keep/workflows/w', {
      body: { ...workflow, description: 'kept again' },
    });
    first.child.kill('SIGKILL');
    await first.exited();

    const second = await start([], env);
    const session = await call(second.baseUrl, 'GET', '/api/sessions/keep');
    expect(session.status).toBe(200);
    expect(session.json.data.workflows).toEqual(['w']);
    const versions = await call(second.baseUrl, 'GET', '/api/sessions/keep/workflows/w/versions');
    expect(versions.json.data.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    const current = await call(second.baseUrl, 'GET', '/api/sessions/keep/workflows/w');
    expect(current.json.data.description).toBe('kept again');
  });

  it('refuses to start on a damaged file, naming it', async () => {
    const dir = tempDir();
    const sessionDir = join(dir, 'sessions', 'broken');
    mkdirSync(sessionDir, { recursive: true });
    writeFileSync(join(sessionDir, 'session.json'), '{"not": json');
    const result = await runServerToExit([], {
      SVC_SESSION_STORE_TYPE: 'file',
      SVC_SESSION_BASE_DIR: dir,
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(join(sessionDir, 'session.json'));
  });
});
