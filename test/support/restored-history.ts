// What the history tests share across store kinds: a server process that is killed and started
// again on the same stores, the workflows they run, and the checks on what a restored run shows.
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { TEST_DB_URL } from './postgres.js';
import { createRole, dropSchema, uniqueName } from './postgres-schemas.js';
import type { TestRole } from './postgres-schemas.js';
import { http, startServerProcess } from './process.js';
import type { Answer, ServerProcess } from './process.js';
import { openSse } from './server.js';
import { eventually } from './wait.js';

/** in -> double -> print (logs each message; each is a result). */
export const printed = {
  workflowId: 'printed',
  description: 'three messages, each logged and a result',
  nodes: [
    { nodeId: 'in', type: 'CONSTANT_SOURCE', config: { messages: [1, 2, 3] } },
    { nodeId: 'double', type: 'MAPPER', config: { expression: '$ * 2' } },
    { nodeId: 'print', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [
    { source: 'in', target: 'double' },
    { source: 'double', target: 'print' },
  ],
};

/**
 * in -> double -> boom (fails every message, after retries that give its parents time to
 * record their ends) -> out: ends FAILED, boom FAILURE.
 */
export const failing = {
  workflowId: 'failing',
  description: 'a node that fails',
  nodes: [
    { nodeId: 'in', type: 'CONSTANT_SOURCE', config: { messages: [1] } },
    { nodeId: 'double', type: 'MAPPER', config: { expression: '$ * 2' } },
    {
      nodeId: 'boom',
      type: 'HTTP_REQUEST',
      // Nothing listens on port 1: every attempt fails, and can be retried.
      config: {
        method: 'POST',
        url: 'http://127.0.0.1:1/',
        engine: { retry: { maxAttempts: 3, backoffMs: 150 } },
      },
    },
    { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
  ],
  edges: [
    { source: 'in', target: 'double' },
    { source: 'double', target: 'boom' },
    { source: 'boom', target: 'out' },
  ],
};

const GOING = ['QUEUED', 'RUNNING', 'PAUSED'];

/** A server on the given stores that a test kills and starts again. */
export class Restartable {
  #server: ServerProcess | undefined;

  constructor(
    readonly args: readonly string[],
    readonly env: () => Record<string, string>,
    /** How long a boot may take: longer for a test that shares a busy machine. */
    readonly bootTimeoutMs = 15_000,
  ) {}

  get server(): ServerProcess {
    if (this.#server === undefined) throw new Error('no server started');
    return this.#server;
  }

  async boot(): Promise<ServerProcess> {
    this.#server = await startServerProcess(this.args, this.env(), this.bootTimeoutMs);
    return this.#server;
  }

  /** kill -9 and start again on the same stores. */
  async crashAndBoot(): Promise<ServerProcess> {
    await this.kill();
    return this.boot();
  }

  async kill(): Promise<void> {
    const server = this.#server;
    if (server === undefined || server.child.exitCode !== null) return;
    server.child.kill('SIGKILL');
    await server.exited();
  }

  call(method: string, path: string, body?: unknown): Promise<Answer> {
    return http(this.server, method, path, body);
  }

  async define(workflows: unknown[]): Promise<void> {
    const created = await this.call('POST', '/api/sessions', {
      sessionId: 's',
      name: 's',
      initiator: 'tests',
      workflows,
    });
    expect(created.status).toBe(201);
  }

  async start(workflowId: string): Promise<string> {
    const answer = await this.call('POST', '/api/workflow/start', { sessionId: 's', workflowId });
    expect(answer.status).toBe(202);
    return answer.json.data.executionId as string;
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers of the API
  async record(id: string): Promise<any> {
    return (await this.call('GET', `/api/executions/${id}`)).json.data;
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers of the API
  ended(id: string): Promise<any> {
    return eventually(
      () => this.record(id),
      (data) => !GOING.includes((data as { status: string }).status),
      20_000,
    );
  }

  /** Runs a workflow to its end; answers its id. */
  async run(workflowId: string): Promise<string> {
    const id = await this.start(workflowId);
    await this.ended(id);
    return id;
  }

  async results(id: string): Promise<unknown[]> {
    return (await this.call('GET', `/api/executions/${id}/results`)).json.data as unknown[];
  }

  async logs(id: string): Promise<unknown[]> {
    return (await this.call('GET', `/api/executions/${id}/logs`)).json.data as unknown[];
  }
}

/**
 * For each test of the suite that calls it, a server of a build with the relational stores,
 * run by a least-privilege account on a schema of its own.
 */
export function postgresServers(): () => Restartable {
  let role: TestRole;
  let schema: string;
  let servers: Restartable;
  beforeAll(async () => {
    role = await createRole();
  });
  beforeEach(async () => {
    schema = uniqueName();
    servers = new Restartable(['postgres'], () => ({
      SVC_PERSISTENCE: 'postgres',
      SVC_DB_URL: role.url,
      SVC_DB_MIGRATION_URL: TEST_DB_URL,
      SVC_DB_SCHEMA: schema,
    }));
    await servers.boot();
  });
  afterEach(async () => {
    await servers.kill();
    await dropSchema(schema);
  });
  afterAll(async () => {
    await role.drop();
  });
  return () => servers;
}

/**
 * The history checks every durable store kind passes: a run that ended before a crash comes
 * back with its status, its null error, its results and log lines, and is not announced again.
 */
export async function expectHistoryKept(servers: Restartable): Promise<void> {
  await servers.define([printed, failing]);
  const completed = await servers.run('printed');
  const failed = await servers.run('failing');
  const before = {
    completed: await servers.record(completed),
    failed: await servers.record(failed),
    results: await servers.results(completed),
    logs: await servers.logs(completed),
  };
  expect(before.completed).toMatchObject({ status: 'COMPLETED', error: null });
  expect(before.results).toHaveLength(3);
  expect(before.logs.length).toBeGreaterThanOrEqual(3);

  await servers.crashAndBoot();
  const restored = await servers.record(completed);
  expect(restored).toMatchObject({ status: 'COMPLETED', error: null });
  const snapshot = await servers.call('GET', `/api/workflow/s/status/${completed}`);
  expect(snapshot.json.data.progress).toMatchObject({
    results: 3,
    resultsNotKept: false,
    logsNotKept: false,
  });
  expect(restored.nodes).toEqual(before.completed.nodes);
  expect(await servers.record(failed)).toMatchObject({
    status: 'FAILED',
    error: before.failed.error,
  });
  expect(await servers.results(completed)).toEqual(before.results);
  expect(await servers.logs(completed)).toEqual(before.logs);

  // The log-entries stream sends the stored entries and ends: the run is over.
  const entries = await openSse(
    servers.server.baseUrl,
    `/api/sessions/s/executions/${completed}/logs/entries`,
  );
  await entries.ended;
  expect(entries.events.map((event) => (event.data as { message: string }).message)).toEqual(
    before.logs.map((line) => (line as { message: string }).message),
  );

  // Nothing announces the old end as news: the global stream holds no end of it, and the
  // progress stream tells its status with the time it ended.
  const global = await openSse(servers.server.baseUrl, `/api/events?executionId=${completed}`, {
    'last-event-id': '0',
  });
  const progress = await openSse(
    servers.server.baseUrl,
    `/api/workflow/s/status/${completed}/stream`,
  );
  await progress.ended;
  expect(progress.events).toHaveLength(1);
  expect(progress.events[0]?.data).toMatchObject({
    kind: 'execution.completed',
    status: 'COMPLETED',
    timestamp: before.completed.endedAt,
  });
  // A new run's events reach the global stream; the old run's end never did.
  const fresh = await servers.run('printed');
  const other = await openSse(servers.server.baseUrl, `/api/events?executionId=${fresh}`, {
    'last-event-id': '0',
  });
  await other.until((seen) => seen.some((event) => event.event === 'execution.completed'));
  other.close();
  expect(global.events).toEqual([]);
  global.close();
}

/**
 * Restart, restart from a node and retry of runs of an earlier server process, on stores that
 * keep checkpoints durably; a retry of a node that did not fail points to restart from a node.
 */
export async function expectRestartsAfterCrash(servers: Restartable): Promise<void> {
  await servers.define([printed, failing]);
  const completed = await servers.run('printed');
  const failed = await servers.run('failing');
  const expected = await servers.results(completed);
  await servers.crashAndBoot();

  const payloadsOf = async (id: string) =>
    ((await servers.results(id)) as { payload: unknown }[]).map((result) => result.payload);
  const whole = await servers.call('POST', `/api/executions/${completed}/restart`);
  expect(whole.status).toBe(202);
  const restarted = await servers.ended(whole.json.data.executionId as string);
  expect(restarted).toMatchObject({ status: 'COMPLETED', restartOf: completed });
  expect(await payloadsOf(restarted.executionId as string)).toEqual(
    (expected as { payload: unknown }[]).map((result) => result.payload),
  );

  const fromNode = await servers.call('POST', `/api/executions/${completed}/restart/print`);
  expect(fromNode.status).toBe(202);
  const partial = await servers.ended(fromNode.json.data.executionId as string);
  expect(partial.status).toBe('COMPLETED');
  // The feeding node replayed what the earlier process recorded.
  expect(partial.nodes.double).toMatchObject({ status: 'COMPLETED', messagesIn: 0 });
  expect(partial.nodes.in).toBeUndefined();
  expect(await payloadsOf(partial.executionId as string)).toEqual([2, 4, 6]);

  const retried = await servers.call('POST', `/api/executions/${failed}/nodes/boom/retry`);
  expect(retried.status).toBe(202);
  const again = await servers.ended(retried.json.data.executionId as string);
  expect(again).toMatchObject({ status: 'FAILED', restartOf: failed });
  expect(again.nodes.boom.status).toBe('FAILURE');
  expect(again.nodes.double).toMatchObject({ status: 'COMPLETED', messagesIn: 0 });

  const notFailed = await servers.call('POST', `/api/executions/${failed}/nodes/double/retry`);
  expect(notFailed.status).toBe(400);
  expect(notFailed.json.message).toBe(
    `Node 'double' of execution '${failed}' did not fail (it is COMPLETED): only a node that ended FAILURE or TIMED_OUT can be retried; to run it again, restart from it (POST /api/executions/${failed}/restart/double, or the RESTART_FROM_NODE action of the tool endpoint)`,
  );
}

/** What a node received and sent is read from the durable checkpoints after a crash too. */
export async function expectNodeMessagesAfterCrash(servers: Restartable): Promise<void> {
  await servers.define([printed]);
  const id = await servers.run('printed');
  const read = async (direction: 'in' | 'out'): Promise<unknown[]> => {
    const answer = await servers.call(
      'GET',
      `/api/executions/${id}/nodes/double/messages?direction=${direction}`,
    );
    expect(answer.status).toBe(200);
    return (answer.json.data.items as { payload: unknown }[]).map((item) => item.payload);
  };
  expect(await read('in')).toEqual([1, 2, 3]);
  expect(await read('out')).toEqual([2, 4, 6]);
  await servers.crashAndBoot();
  expect(await read('in')).toEqual([1, 2, 3]);
  expect(await read('out')).toEqual([2, 4, 6]);
}

/**
 * Repairs of a run of an earlier server process (docs/run-repair.md): a restart from a node
 * with an edited input, and one on another saved version, both from the durable checkpoints.
 */
export async function expectRepairsAfterCrash(servers: Restartable): Promise<void> {
  await servers.define([printed]);
  const id = await servers.run('printed');
  await servers.crashAndBoot();
  const payloadsOf = async (execution: string) =>
    ((await servers.results(execution)) as { payload: unknown }[]).map((result) => result.payload);
  const repaired = async (path: string, body: unknown) => {
    const answer = await servers.call('POST', `/api/executions/${id}/${path}`, body);
    expect(answer.status, JSON.stringify(answer.json)).toBe(202);
    return servers.ended(answer.json.data.executionId as string);
  };

  const received = await servers.call(
    'GET',
    `/api/executions/${id}/nodes/print/messages?direction=in`,
  );
  const [first] = received.json.data.items as { messageId: string; payload: unknown }[];
  expect(first?.payload).toBe(2);
  const edited = await repaired('restart/print', {
    inputs: [{ messageId: first?.messageId, payload: 20 }],
  });
  expect(edited).toMatchObject({ status: 'COMPLETED', restartOf: id });
  expect(edited.nodes.double).toMatchObject({ status: 'COMPLETED', messagesIn: 0 });
  expect(await payloadsOf(edited.executionId as string)).toEqual([20, 4, 6]);
  const unknown = await servers.call('POST', `/api/executions/${id}/restart/print`, {
    inputs: [{ messageId: 'nope', payload: 1 }],
  });
  expect(unknown.status).toBe(400);

  const tenfold = printed.nodes.map((node) =>
    node.nodeId === 'double' ? { ...node, config: { expression: '$ * 10' } } : node,
  );
  const saved = await servers.call('PUT', '/api/sessions/s/workflows/printed', {
    ...printed,
    nodes: tenfold,
  });
  expect(saved.status).toBeLessThan(300);
  const replayed = await repaired('restart/double', { version: 2 });
  expect(replayed).toMatchObject({ status: 'COMPLETED', workflowVersion: 2 });
  expect(await payloadsOf(replayed.executionId as string)).toEqual([10, 20, 30]);
  const differs = await servers.call('POST', `/api/executions/${id}/restart/print`, {
    version: 2,
  });
  expect(differs.status).toBe(409);
  expect(differs.json.message).toContain("node 'double' differs");

  // The audit keeps what each repair changed across a restart too: the entries that a later
  // start forced to storage (the newest ones may be lost to a kill -9, as any audit entry).
  await servers.crashAndBoot();
  const audit = await servers.call('GET', `/api/control/audit?executionId=${id}`);
  expect(
    (audit.json.data as { command: string; outcome: string; detail?: string }[]).map(
      ({ command, outcome, detail }) => [command, outcome, detail],
    ),
  ).toEqual(
    expect.arrayContaining([
      ['RESTART_FROM_NODE', 'REFUSED', 'inputs: payload of nope edited'],
      ['RESTART_FROM_NODE', 'APPLIED', `inputs: payload of ${String(first?.messageId)} edited`],
    ]),
  );
}

/**
 * A replay check of a run of the earlier process (docs/run-repair.md "Replay check"): its
 * recorded output is read from the durable checkpoints, on its own version and another.
 */
export async function expectReplayCheckAfterCrash(servers: Restartable): Promise<void> {
  await servers.define([printed]);
  const id = await servers.run('printed');
  await servers.crashAndBoot();
  const check = async (body: unknown) => {
    const answer = await servers.call('POST', `/api/executions/${id}/replay-check`, body);
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    return answer.json.data.nodes as { nodeId: string; same: boolean; differences: unknown[] }[];
  };
  expect((await check({ version: 1 })).every((node) => node.same)).toBe(true);
  const saved = await servers.call('PUT', '/api/sessions/s/workflows/printed', {
    ...printed,
    nodes: printed.nodes.map((node) =>
      node.nodeId === 'double' ? { ...node, config: { expression: '$ * 10' } } : node,
    ),
  });
  expect(saved.status).toBeLessThan(300);
  const [, double] = await check({ version: 2 });
  expect(double).toMatchObject({ nodeId: 'double', same: false });
  expect(double?.differences[0]).toMatchObject({ recorded: 2, replayed: 10 });
}
