// The native binary (SPEC Runtime profiles, Build-time choices): `npm run build:native` makes a
// single executable from the server `npm run build` made. It runs as prod unless a profile is
// passed on the command line, SVC_PROFILES_ACTIVE does not change that, it serves everything
// the server serves from files it carries, it is not built with the relational stores or with
// a worker role the build lacks, and built with workers it runs as a remote worker. A tree that
// was not built is reported skipped with the reason, as test/commands.test.ts explains.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runToExit, startListening } from './support/process.js';
import type { ServerProcess } from './support/process.js';
import { call } from './support/server.js';
import { endOf, eventually } from './support/wait.js';
import { startWorkerProcess } from './support/worker-process.js';
import { placedFlow, startControlPlane, startRun } from './support/workers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = existsSync(join(root, 'dist/main.js'));

/** Runs the build script; answers its exit code and what it printed. */
async function buildNative(args: string[]): Promise<{ code: number | null; output: string }> {
  const made = await runToExit(
    process.execPath,
    [join(root, 'scripts/build-native.mjs'), ...args],
    {
      timeoutMs: 120_000,
    },
  );
  return { code: made.code, output: made.stdout + made.stderr };
}

/** Starts the binary on a free port; answers its base URL and a way to stop it. */
function startBinary(
  binary: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  return startListening(binary, ['--svc.server.port=0', ...args], {
    cwd: tmpdir(),
    env,
    timeoutMs: 20_000,
  });
}

/** Creates session `n` holding `workflows`. */
function createSession(baseUrl: string, workflows: readonly object[]) {
  return call(baseUrl, 'POST', '/api/sessions', {
    body: { sessionId: 'n', name: 'native', initiator: 'tests', workflows },
  });
}

describe.skipIf(!built)(
  `the native binary${built ? '' : ' (skipped: nothing is built; run npm run build first)'}`,
  () => {
    const out = mkdtempSync(join(tmpdir(), 'svc-native-'));
    const binary = join(out, 'workflow-service');

    // The second binary: a build with script-js and remote workers, for the cases that need
    // them (one binary for both, as each build costs a copy of Node.js).
    const extended = join(out, 's', 'workflow-service');

    beforeAll(async () => {
      const made = await buildNative(['--out', out]);
      expect(made.code, made.output).toBe(0);
      const info = JSON.parse(readFileSync(join(root, 'dist/build-info.json'), 'utf8')) as {
        plugins: string[];
      };
      const plugins = [...new Set([...info.plugins, 'script-js'])];
      const extendedInfo = join(out, 'extended-build-info.json');
      writeFileSync(extendedInfo, JSON.stringify({ ...info, plugins, workers: true }));
      const second = await buildNative(['--build-info', extendedInfo, '--out', join(out, 's')]);
      expect(second.code, second.output).toBe(0);
    }, 240_000);

    afterAll(() => {
      rmSync(out, { recursive: true, force: true });
    });

    it('runs as prod unless a profile is passed on the command line, whatever SVC_PROFILES_ACTIVE says', async () => {
      for (const [args, env, profile] of [
        [[], {}, 'prod'],
        [[], { SVC_PROFILES_ACTIVE: 'dev' }, 'prod'],
        [['dev'], { SVC_PROFILES_ACTIVE: 'prod' }, 'dev'],
      ] as const) {
        const server = await startBinary(binary, [...args], { ...env });
        try {
          const info = await call(server.baseUrl, 'GET', '/actuator/info');
          expect(info.json.profile, JSON.stringify({ args, env })).toBe(profile);
        } finally {
          await server.stop();
        }
      }
    });

    it('serves the API, the web UI and the API documentation from what it carries, and runs workflows', async () => {
      const server = await startBinary(binary, []);
      try {
        const info = await call(server.baseUrl, 'GET', '/actuator/info');
        expect(info.json.build).toMatchObject({ version: '0.0.1-SNAPSHOT', persistence: false });
        // The binary carries the Node.js that built it: the line package.json asks for.
        expect(info.json.runtime).toEqual({ name: 'node', version: process.versions.node });
        expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(24);
        const page = await fetch(`${server.baseUrl}/`);
        expect(page.status).toBe(200);
        expect(await page.text()).toContain('<div id="root">');
        expect((await fetch(`${server.baseUrl}/swagger-ui/`)).status).toBe(200);
        expect((await fetch(`${server.baseUrl}/v3/api-docs`)).status).toBe(200);
        const created = await createSession(server.baseUrl, [
          {
            workflowId: 'double',
            description: 'doubles a number',
            nodes: [
              { nodeId: 'in', type: 'API_TRIGGER' },
              { nodeId: 'twice', type: 'MAPPER', config: { expression: '$ * 2' } },
              { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
            ],
            edges: [
              { source: 'in', target: 'twice' },
              { source: 'twice', target: 'out' },
            ],
          },
        ]);
        expect(created.status).toBe(201);
        const started = await call(server.baseUrl, 'POST', '/api/workflow/start', {
          body: { sessionId: 'n', workflowId: 'double', payload: 21 },
        });
        const id = started.json.data.executionId as string;
        const payloads = await eventually(
          async () => {
            const results = await call(server.baseUrl, 'GET', `/api/executions/${id}/results`);
            return (results.json.data as { payload: unknown }[]).map((result) => result.payload);
          },
          (found) => found.length > 0,
          2_000,
        );
        expect(payloads).toEqual([42]);
      } finally {
        await server.stop();
      }
    });

    it('runs MAPPER scripts on worker threads from the files it carries, in a build with script-js', async () => {
      const server = await startBinary(extended, [], {
        SVC_SCRIPT_TIMEOUT_MS: '500',
        // The time limit is what stops the endless script: on a fast host the default
        // statement limit would come first.
        SVC_SCRIPT_MAX_STATEMENTS: '2000000000',
      });
      try {
        const scriptFlow = (workflowId: string, script: string) => ({
          workflowId,
          description: 'a script',
          nodes: [
            { nodeId: 'in', type: 'API_TRIGGER' },
            { nodeId: 'map', type: 'MAPPER', config: { mode: 'SCRIPT', script } },
            { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
          ],
          edges: [
            { source: 'in', target: 'map' },
            { source: 'map', target: 'out' },
          ],
        });
        const created = await createSession(server.baseUrl, [
          scriptFlow('double', 'return payload * 2;'),
          scriptFlow('endless', 'while (true) {}'),
        ]);
        expect(created.status, created.text).toBe(201);
        const ended = async (workflowId: string) => {
          const started = await call(server.baseUrl, 'POST', '/api/workflow/start', {
            body: { sessionId: 'n', workflowId, payload: 21 },
          });
          const id = started.json.data.executionId as string;
          const record = await eventually(
            () => call(server.baseUrl, 'GET', `/api/executions/${id}`),
            (answer) => !['QUEUED', 'RUNNING'].includes(answer.json.data.status as string),
          );
          const results = await call(server.baseUrl, 'GET', `/api/executions/${id}/results`);
          return {
            record: record.json.data as { status: string; nodes: { map: { error: unknown } } },
            payloads: (results.json.data as { payload: unknown }[]).map((result) => result.payload),
          };
        };
        expect((await ended('double')).payloads).toEqual([42]);
        const endless = await ended('endless');
        expect(endless.record.status).toBe('FAILED');
        expect(endless.record.nodes.map.error).toContain(
          'Script ran longer than svc.script.timeout-ms (500 ms)',
        );
      } finally {
        await server.stop();
      }
    }, 120_000);

    it('runs as a remote worker in a build with workers: a node placed on its pool runs in the binary (SPEC Build-time choices: svc.workers=true)', async () => {
      const server = await startControlPlane({ env: { SVC_VAR_WHERE: 'the control plane' } });
      try {
        const worker = await startWorkerProcess(server, {
          binary: extended,
          argv: ['--svc.workers.pool=native', '--svc.workers.plugin-types=MAPPER'],
          env: { SVC_VAR_WHERE: 'the native worker' },
        });
        try {
          const id = await startRun(
            server,
            placedFlow('native', {
              type: 'MAPPER',
              config: {
                mode: 'TEMPLATE',
                template: 'from ${env.SVC_VAR_WHERE}',
                engine: { placement: 'native' },
              },
            }),
          );
          expect((await endOf(server, id)).status).toBe('COMPLETED');
          const results = await server.call('GET', `/api/executions/${id}/results`);
          expect(results.json.data[0].payload).toBe('from the native worker');
          const workers = await server.call('GET', '/api/workers');
          expect(workers.json.data.workers).toEqual([
            expect.objectContaining({ workerId: worker.workerId(), pool: 'native' }),
          ]);
          expect(await worker.stop()).toBe(0);
        } finally {
          await worker.kill();
        }
      } finally {
        await server.close();
      }
    }, 120_000);

    it('is not built with the relational-database stores, nor in a worker role the build lacks', async () => {
      const relational = join(out, 'relational-build-info.json');
      const info = JSON.parse(readFileSync(join(root, 'dist/build-info.json'), 'utf8')) as object;
      writeFileSync(relational, JSON.stringify({ ...info, persistence: true }));
      const refused = await buildNative(['--build-info', relational, '--out', join(out, 'x')]);
      expect(refused.code).not.toBe(0);
      expect(refused.output).toContain(
        'the relational-database stores are not for use with the native binary',
      );
      const noWorkers = JSON.stringify({ ...info, workers: false });
      writeFileSync(relational, noWorkers);
      const worker = await buildNative([
        '--build-info',
        relational,
        '--svc.workers.native=worker',
        '--out',
        join(out, 'y'),
      ]);
      expect(worker.code).not.toBe(0);
      expect(worker.output).toContain(
        'svc.workers.native=worker needs remote workers in the build',
      );
    });
  },
);
