// The `postgres` profile end to end on the real PostgreSQL of SVC_TEST_DB_URL (SPEC "Runtime
// profiles", "Build-time choices", "Recover conditions", Errors: process-level failures): the
// server keeps sessions, run history and checkpoints in the database across restarts and a
// crash, and refuses to start when the database cannot be prepared.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { defaultSettings } from '../src/config/index.js';
import { createSilentLoggers } from '../src/observability/index.js';
import { TEST_DB_URL, postgresUnavailable } from './support/postgres.js';
import { asAdmin, createRole, dropSchema, uniqueName } from './support/postgres-schemas.js';
import type { TestRole } from './support/postgres-schemas.js';
import { runServerToExit, startServerProcess } from './support/process.js';
import type { ServerProcess } from './support/process.js';
import { TEST_BUILD_INFO, call, startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';
import { eventually } from './support/wait.js';
import { delayedWorkflow } from './support/workflows.js';

const unavailable = await postgresUnavailable();
const skipped = unavailable === undefined ? '' : ` (skipped: ${unavailable})`;

const BUILD_WITH_POSTGRES = { ...TEST_BUILD_INFO, persistence: true };

const TERMINAL = ['COMPLETED', 'FAILED', 'STOPPED', 'TIMED_OUT', 'ABORTED'];

async function define(baseUrl: string): Promise<void> {
  const created = await call(baseUrl, 'POST', '/api/sessions', {
    body: { sessionId: 's', name: 'kept', initiator: 'tests', workflows: [delayedWorkflow] },
  });
  expect(created.status).toBe(201);
}

async function start(baseUrl: string): Promise<string> {
  const answer = await call(baseUrl, 'POST', '/api/workflow/start', {
    body: { sessionId: 's', workflowId: 'delayed' },
  });
  expect(answer.status).toBe(202);
  return answer.json.data.executionId as string;
}

const record = async (baseUrl: string, id: string) =>
  (await call(baseUrl, 'GET', `/api/executions/${id}`)).json.data;

const ended = (baseUrl: string, id: string) =>
  eventually(
    () => record(baseUrl, id),
    (data) => TERMINAL.includes((data as { status: string }).status),
    20_000,
  );

const payloadsOf = async (baseUrl: string, id: string) =>
  (
    (await call(baseUrl, 'GET', `/api/executions/${id}/results`)).json.data as {
      payload: unknown;
    }[]
  )
    .map((result) => result.payload)
    .sort();

describe('the relational stores in a build without them (SPEC Build-time choices)', () => {
  it('refuses settings that choose them, even when they do not come from the settings loader', async () => {
    await expect(
      createApp({
        settings: defaultSettings('postgres'),
        profile: 'postgres',
        buildInfo: TEST_BUILD_INFO,
        loggers: createSilentLoggers(),
      }),
    ).rejects.toMatchObject({
      code: 'SETTINGS_INVALID',
      message:
        'svc.session.store-type=postgres, svc.restart.store-type=postgres, svc.execution-log.store-type=postgres: this build does not include the relational-database stores (build with svc.persistence=postgres)',
    });
  });
});

describe.skipIf(unavailable !== undefined)(`the postgres profile${skipped}`, () => {
  const schema = uniqueName();
  const argv = [
    'postgres',
    `--svc.db.url=${TEST_DB_URL}`,
    `--svc.db.migration-url=${TEST_DB_URL}`,
    `--svc.db.schema=${schema}`,
  ];
  let server: TestServer | undefined;

  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  afterAll(async () => {
    await dropSchema(schema);
  });

  it('keeps sessions, workflows, run history and checkpoints in the database across a restart (SPEC Runtime profiles)', async () => {
    server = await startTestServer({ argv, buildInfo: BUILD_WITH_POSTGRES });
    const info = await server.call('GET', '/actuator/info');
    expect(info.json).toMatchObject({ build: { persistence: true }, profile: 'postgres' });
    await define(server.baseUrl);
    const id = await start(server.baseUrl);
    expect((await ended(server.baseUrl, id)).status).toBe('COMPLETED');
    const checkpoints = await server.call('GET', `/api/executions/${id}/checkpoints`);
    expect(checkpoints.json.data.store).toBe('postgres');
    expect(checkpoints.json.data.nodes.times).toMatchObject({ messages: 3, complete: true });
    await server.close();

    server = await startTestServer({ argv, buildInfo: BUILD_WITH_POSTGRES });
    const session = await server.call('GET', '/api/sessions/s');
    expect(session.json.data).toMatchObject({
      sessionId: 's',
      name: 'kept',
      workflows: ['delayed'],
    });
    const workflow = await server.call('GET', '/api/sessions/s/workflows/delayed');
    expect(workflow.json.data.nodes).toHaveLength(4);
    const restored = await record(server.baseUrl, id);
    expect(restored).toMatchObject({ status: 'COMPLETED', sessionId: 's', workflowId: 'delayed' });
    expect(restored.nodes.out).toMatchObject({ status: 'COMPLETED', messagesIn: 3 });
    const history = await server.call('GET', '/api/workflow/s/history');
    expect(history.json.data.map((run: { executionId: string }) => run.executionId)).toContain(id);
    const kept = await server.call('GET', `/api/executions/${id}/checkpoints`);
    expect(kept.json.data.nodes.times).toMatchObject({ messages: 3, complete: true });
  });

  it('keeps SESSION_MEMORY histories in the database across a restart', async () => {
    const memoryFlow = (workflowId: string, operation: string) => ({
      workflowId,
      description: 'session memory',
      nodes: [
        { nodeId: 'in', type: 'API_TRIGGER' },
        { nodeId: 'memory', type: 'SESSION_MEMORY', config: { key: 'chat', operation } },
        { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
      ],
      edges: [
        { source: 'in', target: 'memory' },
        { source: 'memory', target: 'out' },
      ],
    });
    const run = async (workflowId: string, payload: unknown): Promise<unknown[]> => {
      const answer = await server!.call('POST', '/api/workflow/start', {
        body: { sessionId: 'memory', workflowId, payload },
      });
      const id = answer.json.data.executionId as string;
      expect((await ended(server!.baseUrl, id)).status).toBe('COMPLETED');
      return payloadsOf(server!.baseUrl, id);
    };
    server = await startTestServer({ argv, buildInfo: BUILD_WITH_POSTGRES });
    const created = await server.call('POST', '/api/sessions', {
      body: {
        sessionId: 'memory',
        name: 'memory',
        initiator: 'tests',
        workflows: [memoryFlow('remember', 'APPEND'), memoryFlow('recall', 'READ')],
      },
    });
    expect(created.status).toBe(201);
    await run('remember', 'hello');
    await server.close();
    server = await startTestServer({ argv, buildInfo: BUILD_WITH_POSTGRES });
    expect(await run('recall', null)).toEqual([{ key: 'chat', entries: ['hello'] }]);
  });

  it('refuses to start when the migration URL does not answer, naming the setting', async () => {
    const nowhere = 'postgres://user@127.0.0.1:1/none';
    await expect(
      startTestServer({
        argv: [...argv.slice(0, 2), `--svc.db.migration-url=${nowhere}`, argv[3] ?? ''],
        buildInfo: BUILD_WITH_POSTGRES,
      }),
    ).rejects.toMatchObject({
      code: 'DATABASE_SETUP_FAILED',
      message: expect.stringContaining('cannot connect with svc.db.migration-url'),
    });
  });
});

describe.skipIf(unavailable !== undefined)(
  `the postgres profile in a server process${skipped}`,
  () => {
    const schema = uniqueName();
    let role: TestRole;
    let running: ServerProcess | undefined;

    beforeAll(async () => {
      role = await createRole();
    });

    afterEach(async () => {
      if (running !== undefined && running.child.exitCode === null) {
        running.child.kill('SIGKILL');
        await running.exited();
      }
      running = undefined;
    });

    afterAll(async () => {
      await dropSchema(schema);
      await role.drop();
    });

    /** A build with the relational stores, run by a least-privilege account. */
    const env = (): Record<string, string> => ({
      SVC_PERSISTENCE: 'postgres',
      SVC_DB_URL: role.url,
      SVC_DB_MIGRATION_URL: TEST_DB_URL,
      SVC_DB_SCHEMA: schema,
    });

    async function boot(): Promise<ServerProcess> {
      running = await startServerProcess(['postgres'], env());
      return running;
    }

    it('kill -9 during a run: ABORTED at the next start, and recover finishes it from the recorded checkpoints (SPEC Recover conditions)', async () => {
      let server = await boot();
      await define(server.baseUrl);
      const reference = await start(server.baseUrl);
      expect((await ended(server.baseUrl, reference)).status).toBe('COMPLETED');
      const expected = await payloadsOf(server.baseUrl, reference);

      const id = await start(server.baseUrl);
      // `times` has its end marker; `wait`, downstream of it, is still busy.
      await eventually(
        () => call(server.baseUrl, 'GET', `/api/executions/${id}/checkpoints`),
        (answer) =>
          answer.json.data.nodes.times?.complete === true &&
          answer.json.data.nodes.wait?.complete !== true,
      );
      server.child.kill('SIGKILL');
      await server.exited();

      server = await boot();
      const aborted = await record(server.baseUrl, id);
      expect(aborted.status).toBe('ABORTED');
      expect(aborted.error).toContain('server stopped');
      expect(aborted.nodes.times.status).toBe('COMPLETED');
      expect((await record(server.baseUrl, reference)).status).toBe('COMPLETED');
      const checkpoints = await call(server.baseUrl, 'GET', `/api/executions/${id}/checkpoints`);
      expect(checkpoints.json.data.store).toBe('postgres');

      const recovered = await call(server.baseUrl, 'POST', `/api/executions/${id}/recover`);
      expect(recovered.status).toBe(202);
      const resumed = await ended(server.baseUrl, recovered.json.data.executionId as string);
      expect(resumed).toMatchObject({ status: 'COMPLETED', resumedFrom: id });
      expect(resumed.nodes.times).toMatchObject({ messagesIn: 0, messagesOut: 3 });
      expect(await payloadsOf(server.baseUrl, resumed.executionId as string)).toEqual(expected);
    });

    it('stops on SIGTERM with exit code 0 and leaves no database connection behind (SPEC graceful shutdown)', async () => {
      const server = await boot();
      const connections = () =>
        asAdmin(async (client) => {
          const found = await client.query<{ n: number }>(
            "SELECT count(*)::integer AS n FROM pg_stat_activity WHERE usename = $1 AND application_name = 'workflow-service'",
            [role.name],
          );
          return found.rows[0]?.n ?? 0;
        });
      expect(await connections()).toBeGreaterThan(0);
      server.child.kill('SIGTERM');
      expect(await server.exited()).toBe(0);
      expect(await eventually(connections, (count) => count === 0)).toBe(0);
    });

    it('refuses to start when the migration account cannot change the schema, saying so (SPEC Errors)', async () => {
      const result = await runServerToExit(['postgres'], {
        ...env(),
        SVC_DB_SCHEMA: uniqueName(),
        SVC_DB_MIGRATION_URL: role.url,
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        new RegExp(
          `^Start-up failed: The relational database cannot be prepared: schema migration to version \\d+ failed: permission denied for database test \\(svc\\.db\\.migration-url, account '${role.name}'; it must be able to create and change schema`,
        ),
      );
    });

    it('refuses to start without the migration URL, naming it', async () => {
      const { SVC_DB_MIGRATION_URL: _left, ...withoutMigration } = env();
      const result = await runServerToExit(['postgres'], withoutMigration);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('not set: svc.db.migration-url (SVC_DB_MIGRATION_URL)');
    });
  },
);
