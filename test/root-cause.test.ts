// A failed run tells its root cause (SPEC States and transitions, rule 2): the run's error names
// the node that failed first and its own error, and every plugin failure is a WARN line of its
// node and of the server's log, with the execution and node ids. Through a real server process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess } from './support/process.js';
import type { ServerProcess } from './support/process.js';
import { call } from './support/server.js';
import type { HttpAnswer } from './support/server.js';
import { endOf, eventually } from './support/wait.js';
import { failingWorkflow } from './support/workflows.js';

const chain = failingWorkflow('chain', 'boom-7c1e');

const skipped = {
  workflowId: 'skipped',
  description: 'a failure onError absorbs',
  nodes: [
    { nodeId: 'in', type: 'MANUAL' },
    {
      nodeId: 'lenient',
      type: 'MAPPER',
      config: { expression: '$error("lenient-52d9")', onError: 'SKIP' },
    },
    { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [
    { source: 'in', target: 'lenient' },
    { source: 'lenient', target: 'out' },
  ],
};

/** How MAPPER words the failure of its expression. */
const failedWith = (marker: string): string => `Expression '$error("${marker}")' failed: ${marker}`;

interface ServerLine {
  readonly level: number;
  readonly msg: string;
  readonly executionId?: string;
  readonly nodeId?: string;
}

/** pino's number for WARN. */
const WARN = 40;

describe('Root cause of a failed run (SPEC States and transitions 2, Errors)', () => {
  let server: ServerProcess;
  const request = (method: string, path: string, options?: { body?: unknown }) =>
    call(server.baseUrl, method, path, options);

  async function run(workflowId: string): Promise<HttpAnswer['json']> {
    const start = await request('POST', '/api/workflow/start', {
      body: { sessionId: 'causes', workflowId },
    });
    expect(start.status).toBe(202);
    return endOf({ call: request }, start.json.data.executionId as string);
  }

  /** The server's JSON log lines that mention `marker`. */
  function serverLines(marker: string): ServerLine[] {
    return server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{') && line.includes(marker))
      .map((line) => JSON.parse(line) as ServerLine);
  }

  beforeAll(async () => {
    server = await startServerProcess(['prod']);
    const created = await request('POST', '/api/sessions', {
      body: { sessionId: 'causes', name: 'Causes', initiator: 'ops', workflows: [chain, skipped] },
    });
    expect(created.status).toBe(201);
  });
  afterAll(async () => {
    await server.stop();
  });

  it("names the node that failed first and its error in the run's error, not the terminal that ended UPSTREAM_FAILED behind it", async () => {
    const record = await run('chain');
    expect(record.status).toBe('FAILED');
    expect(record.error).toBe(`Node 'boom' ended FAILURE: ${failedWith('boom-7c1e')}`);
    expect(record.nodes.out.status).toBe('UPSTREAM_FAILED');
    expect(record.nodes.out.error).toBe("Parent 'after' did not complete");
  });

  it('writes a plugin failure as a WARN line of its node and of the server, with execution and node ids', async () => {
    const record = await run('chain');
    const id = record.executionId as string;
    const logs = await request('GET', `/api/executions/${id}/logs?nodeId=boom`);
    expect(logs.status).toBe(200);
    expect(logs.json.data).toEqual([
      expect.objectContaining({
        executionId: id,
        nodeId: 'boom',
        level: 'WARN',
        message: `Plugin MAPPER failed: ${failedWith('boom-7c1e')}`,
        fields: expect.objectContaining({
          error: failedWith('boom-7c1e'),
          attempt: 1,
          retrying: false,
        }),
      }),
    ]);
    const lines = await eventually(
      () => Promise.resolve(serverLines(id)),
      (found) => found.some((line) => line.nodeId === 'boom'),
    );
    expect(lines.filter((line) => line.nodeId === 'boom')).toEqual([
      expect.objectContaining({
        level: WARN,
        executionId: id,
        nodeId: 'boom',
        msg: `Plugin MAPPER failed: ${failedWith('boom-7c1e')}`,
      }),
    ]);
  });

  it('logs a failure that onError absorbs too, though the run completes', async () => {
    const record = await run('skipped');
    expect(record.status).toBe('COMPLETED');
    expect(record.error).toBeNull();
    const id = record.executionId as string;
    const logs = await request('GET', `/api/executions/${id}/logs?nodeId=lenient`);
    expect(logs.json.data).toEqual([
      expect.objectContaining({
        level: 'WARN',
        message: `Plugin MAPPER failed: ${failedWith('lenient-52d9')}`,
      }),
      expect.objectContaining({ level: 'WARN', message: 'Message skipped after failure' }),
    ]);
    await eventually(
      () => Promise.resolve(serverLines('lenient-52d9')),
      (found) =>
        found.some(
          (line) => line.level === WARN && line.executionId === id && line.nodeId === 'lenient',
        ),
    );
  });
});
