// SPEC "Events" 3 and 6 on a real server process: a restart drops every open stream, and the
// event history behind Last-Event-ID lives in memory, so nothing from before a restart comes back.
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, within } from './support/wait.js';
import { startServerProcess } from './support/process.js';
import type { ServerProcess } from './support/process.js';
import { call, openSse } from './support/server.js';
import type { SseClient, SseEvent } from './support/server.js';

/**
 * How a stream of `path` stops: `ended` when the server ends the response, `cut` when the
 * connection drops without an end (a killed process ends nothing). `openSse` reports the first only.
 */
async function watchHangUp(
  baseUrl: string,
  path: string,
): Promise<{ readonly hangUp: Promise<'ended' | 'cut'> }> {
  const { request } = await import('node:http');
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path }, (res) => {
      expect(res.statusCode).toBe(200);
      let ended = false;
      res.on('end', () => (ended = true));
      res.on('error', () => undefined);
      // Wrapped: a promise resolved with a promise would wait for the hang-up itself.
      resolve({
        hangUp: new Promise((hungUp) => {
          res.on('close', () => {
            hungUp(ended ? 'ended' : 'cut');
          });
        }),
      });
      res.resume();
    });
    req.on('error', reject);
    req.end();
  });
}

const payloadOf = (event: SseEvent) => (event.data as { payload?: unknown }).payload;
const executionOf = (event: SseEvent) => (event.data as { executionId?: string }).executionId;

describe('Event streams across a server restart (SPEC Events 3, 6)', () => {
  const servers: ServerProcess[] = [];
  const clients: SseClient[] = [];

  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    for (const server of servers.splice(0)) {
      if (server.child.exitCode === null && server.child.signalCode === null) {
        server.child.kill('SIGKILL');
        await server.exited();
      }
    }
  });

  async function boot(): Promise<ServerProcess> {
    const server = await startServerProcess();
    servers.push(server);
    return server;
  }

  async function subscribe(
    server: ServerProcess,
    headers: Record<string, string> = {},
  ): Promise<SseClient> {
    const client = await openSse(server.baseUrl, '/api/events?sessionId=s', headers);
    clients.push(client);
    expect(client.status).toBe(200);
    return client;
  }

  /** Defines session `s` with a workflow that answers its payload as one result. */
  async function define(server: ServerProcess): Promise<void> {
    const created = await call(server.baseUrl, 'POST', '/api/sessions', {
      body: {
        sessionId: 's',
        name: 's',
        initiator: 'tests',
        workflows: [
          {
            workflowId: 'echo',
            description: 'one result per start',
            nodes: [
              { nodeId: 'in', type: 'API_TRIGGER' },
              { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
            ],
            edges: [{ source: 'in', target: 'out' }],
          },
        ],
      },
    });
    expect(created.status).toBe(201);
  }

  async function runEcho(server: ServerProcess, payload: unknown): Promise<string> {
    const start = await call(server.baseUrl, 'POST', '/api/workflow/start', {
      body: { sessionId: 's', workflowId: 'echo', payload },
    });
    expect(start.status).toBe(202);
    return start.json.data.executionId as string;
  }

  const completedRun = (id: string) => (events: SseEvent[]) =>
    events.some((e) => e.event === 'execution.completed' && executionOf(e) === id);

  it('ends an open event stream when the server stops on SIGTERM (SPEC Events 6)', async () => {
    const server = await boot();
    await define(server);
    const client = await subscribe(server);
    await client.until(completedRun(await runEcho(server, { n: 1 })));
    server.child.kill('SIGTERM');
    await within(client.ended, 10_000, 'the end of the stream');
    expect(await within(server.exited(), 10_000, 'the exit')).toBe(0);
  });

  it('drops an open event stream when the server process is killed (SPEC Events 6)', async () => {
    const server = await boot();
    const { hangUp } = await watchHangUp(server.baseUrl, '/api/events');
    server.child.kill('SIGKILL');
    // Nothing ends the response of a killed process: the connection is cut.
    expect(await within(hangUp, 10_000, 'the hang-up')).toBe('cut');
  });

  it('continues a client after a restart with Last-Event-ID: the restarted server numbers events above those before it, and history from before the restart is gone (SPEC Events 3, 6)', async () => {
    const first = await boot();
    await define(first);
    const before = await subscribe(first);
    const oldRun = await runEcho(first, { n: 'before' });
    const seen = await before.until(completedRun(oldRun));
    const lastId = seen.at(-1)?.id ?? 0;
    expect(lastId).toBeGreaterThan(0);
    first.child.kill('SIGTERM');
    await within(before.ended, 10_000, 'the end of the stream');
    expect(await within(first.exited(), 10_000, 'the exit')).toBe(0);

    const second = await boot();
    // The session store is in memory too: the session is defined again.
    await define(second);
    // A run while the client is away: reconnecting with its last id, the client gets it.
    const missedRun = await runEcho(second, { n: 'while away' });
    await eventually(
      () => call(second.baseUrl, 'GET', `/api/executions/${missedRun}`),
      (answer) => answer.json.data.status === 'COMPLETED',
    );
    const resumed = await subscribe(second, { 'last-event-id': String(lastId) });
    const newRun = await runEcho(second, { n: 'after' });
    const live = await resumed.until(completedRun(newRun));
    expect(live.every((e) => (e.id ?? 0) > lastId)).toBe(true);
    expect(live.map(executionOf)).not.toContain(oldRun);
    expect(live.filter((e) => e.event === 'result').map(payloadOf)).toEqual([
      { n: 'while away' },
      { n: 'after' },
    ]);
    const ids = live.map((e) => e.id ?? 0);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
  });
});
