// SPEC "Deployment facts" (graceful shutdown) and start-up failures, through the built server as
// a process of its own: a stop says what it waits for and what it stopped, and a port already in
// use is one line on stderr and exit code 69, with no stack. A tree that was not built, or whose
// sources changed after the build, is reported skipped with the reason (as test/commands.test.ts).
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { staleReason } from '../scripts/build-freshness.mjs';
import { runToExit, startListening } from './support/process.js';
import type { ServerProcess } from './support/process.js';
import { call } from './support/server.js';
import { delayedWorkflow, slowWorkflow } from './support/workflows.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stale = staleReason(root);
const BUILT = join(root, 'dist/main.js');

interface LogLine {
  readonly level: number;
  readonly msg: string;
  readonly [field: string]: unknown;
}

/** The JSON lines (profile prod) the server wrote to stdout. */
function logLines(output: string): LogLine[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

function listeningOn(server: Server): Promise<number> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : 0);
    });
  });
}

describe.skipIf(stale !== undefined)(
  `The built server's start and stop${stale === undefined ? '' : ` (skipped: ${stale}; run npm run build first)`}`,
  () => {
    const running: ServerProcess[] = [];
    const taken: Server[] = [];
    afterEach(async () => {
      for (const server of running.splice(0)) {
        if (server.child.exitCode === null) {
          server.child.kill('SIGKILL');
          await server.exited();
        }
      }
      for (const server of taken.splice(0)) server.close();
    });

    async function start(env: Record<string, string>): Promise<ServerProcess> {
      const server = await startListening(process.execPath, [BUILT, 'prod'], {
        env: { SVC_SERVER_PORT: '0', ...env },
      });
      running.push(server);
      const request = (method: string, path: string, body?: unknown) =>
        call(server.baseUrl, method, path, body === undefined ? {} : { body });
      const created = await request('POST', '/api/sessions', {
        sessionId: 's',
        name: 's',
        initiator: 'ops',
        workflows: [slowWorkflow('slow'), delayedWorkflow],
      });
      expect(created.status).toBe(201);
      return server;
    }

    async function startRun(server: ServerProcess, workflowId: string): Promise<string> {
      const answer = await call(server.baseUrl, 'POST', '/api/workflow/start', {
        body: { sessionId: 's', workflowId },
      });
      expect(answer.status).toBe(202);
      return answer.json.data.executionId as string;
    }

    it('refuses a port already in use with one line on stderr, exit code 69 and no stack (SPEC Errors: process-level failures)', async () => {
      const other = createServer();
      taken.push(other);
      const port = await listeningOn(other);
      const result = await runToExit(process.execPath, [BUILT, 'prod'], {
        env: { SVC_SERVER_PORT: String(port) },
      });
      expect(result.code).toBe(69);
      expect(result.stderr).toBe(
        `Start-up failed: 127.0.0.1:${port} is already in use: stop what listens there, or set another port (svc.server.port, SVC_SERVER_PORT)\n`,
      );
      expect(result.stdout).not.toMatch(/\n\s+at /);
    });

    it('says on SIGTERM how long it waits for how many running executions, then which ones it stopped (SPEC graceful shutdown)', async () => {
      const server = await start({ SVC_EXECUTION_SHUTDOWN_TIMEOUT: '500ms' });
      const ids = [await startRun(server, 'slow'), await startRun(server, 'slow')];
      server.child.kill('SIGTERM');
      expect(await server.exited()).toBe(0);
      const lines = logLines(server.output()).map((line) => line.msg);
      const stopping = lines.indexOf('Stopping on SIGTERM');
      const waiting = lines.indexOf('Waiting up to 0.5 s for 2 running executions');
      const stopped = lines.findIndex((msg) =>
        msg.startsWith('Stopped 2 executions still running after 0.5 s: '),
      );
      expect(stopping).toBeGreaterThanOrEqual(0);
      expect(waiting).toBeGreaterThan(stopping);
      expect(stopped).toBeGreaterThan(waiting);
      for (const id of ids) expect(lines[stopped]).toContain(id);
      expect(lines.at(-1)).toBe('Stopped');
      const warning = logLines(server.output())[stopped];
      expect(warning).toMatchObject({ level: 40, executionIds: expect.arrayContaining(ids) });
    });

    it('says on SIGTERM that the running executions finished when they end within the shutdown timeout', async () => {
      const server = await start({});
      await startRun(server, 'delayed');
      server.child.kill('SIGTERM');
      expect(await server.exited()).toBe(0);
      const lines = logLines(server.output()).map((line) => line.msg);
      expect(lines).toContain('Waiting up to 30 s for 1 running execution');
      expect(lines).toContain('Every running execution finished');
      expect(lines.some((msg) => msg.startsWith('Stopped 1 execution'))).toBe(false);
    });
  },
);
