// Plugins from svc.plugins.dir (docs/writing-a-plugin.md) through a real server process: plain
// JavaScript outside src/, importing the plugin API by the package's exported name, listed by
// plugin discovery and run in a workflow; a bad plugin stops start-up with a message naming it.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/server.js';
import { runServerToExit, startServerProcess } from './support/process.js';
import type { ServerProcess } from './support/process.js';
import { endOf, eventually } from './support/wait.js';
import { placedFlow, startControlPlane, startRun, startWorker } from './support/workers.js';

const fixture = (name: string): string =>
  fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

describe('plugins from svc.plugins.dir', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess([`--svc.plugins.dir=${fixture('plugins')}`]);
  }, 30_000);
  afterAll(async () => {
    await server.stop();
  });

  it('lists a file plugin and a package-folder plugin beside the built-in types', async () => {
    const answer = await call(server.baseUrl, 'GET', '/api/plugins');
    expect(answer.status).toBe(200);
    const byType = new Map(answer.json.data.map((info: { type: string }) => [info.type, info]));
    expect(byType.get('TEXT_CASE')).toMatchObject({
      kind: 'processor',
      plugin: 'dir:text-case.mjs',
      description: 'Changes the case of one text field of the payload.',
      ports: ['out', 'unchanged'],
      defaultTimeoutSeconds: null,
    });
    expect(byType.get('WORD_COUNT')).toMatchObject({ plugin: 'dir:word-count' });
    expect(byType.has('FILTER')).toBe(true);
    const one = await call(server.baseUrl, 'GET', '/api/plugins/TEXT_CASE');
    expect(one.json.data.configSchema.properties).toMatchObject({
      field: { type: 'string' },
      to: { enum: ['upper', 'lower'] },
    });
  });

  it('validates a node of a directory plugin by its schema and runs it in a workflow', async () => {
    const workflow = (config: Record<string, unknown>) => ({
      workflowId: 'shout',
      description: 'changes the case of a text, then counts its words',
      nodes: [
        { nodeId: 'in', type: 'API_TRIGGER', config: { splitArray: true } },
        { nodeId: 'case', type: 'TEXT_CASE', config },
        { nodeId: 'count', type: 'WORD_COUNT' },
        { nodeId: 'done', type: 'NOTIFY_TERMINAL' },
        { nodeId: 'kept', type: 'NOTIFY_TERMINAL' },
      ],
      edges: [
        { source: 'in', target: 'case' },
        { source: 'case', target: 'count', sourcePort: 'out' },
        { source: 'case', target: 'kept', sourcePort: 'unchanged' },
        { source: 'count', target: 'done' },
      ],
    });
    const session = (config: Record<string, unknown>) => ({
      body: { sessionId: 'p', name: 'p', initiator: 'i', workflows: [workflow(config)] },
    });
    const refused = await call(server.baseUrl, 'POST', '/api/sessions', session({ to: 'title' }));
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('nodes[1].config.to');

    const created = await call(server.baseUrl, 'POST', '/api/sessions', session({ to: 'upper' }));
    expect(created.status, created.text).toBe(201);
    const started = await call(server.baseUrl, 'POST', '/api/workflow/start', {
      body: {
        sessionId: 'p',
        workflowId: 'shout',
        payload: [{ text: 'hello plugin world' }, { n: 1 }],
      },
    });
    expect(started.status, started.text).toBe(202);
    const id = started.json.data.executionId as string;
    await eventually(
      () => call(server.baseUrl, 'GET', `/api/executions/${id}`),
      (answer) => answer.json.data.status === 'COMPLETED',
    );
    const results = await call(server.baseUrl, 'GET', `/api/executions/${id}/results`);
    const byNode = Object.fromEntries(
      (results.json.data as { nodeId: string; payload: unknown }[]).map((result) => [
        result.nodeId,
        result.payload,
      ]),
    );
    expect(byNode).toEqual({ done: { text: 'HELLO PLUGIN WORLD', words: 3 }, kept: { n: 1 } });
  });

  it("fails bad input of a directory plugin without a retry: its StepFailure is the server's", async () => {
    const created = await call(server.baseUrl, 'POST', '/api/sessions', {
      body: {
        sessionId: 'q',
        name: 'q',
        initiator: 'i',
        workflows: [
          {
            workflowId: 'strict',
            description: 'fails a payload that is not an object',
            nodes: [
              { nodeId: 'in', type: 'API_TRIGGER' },
              {
                nodeId: 'case',
                type: 'TEXT_CASE',
                config: { engine: { retry: { maxAttempts: 3, backoffMs: 1 } } },
              },
              { nodeId: 'done', type: 'NOTIFY_TERMINAL' },
            ],
            edges: [
              { source: 'in', target: 'case' },
              { source: 'case', target: 'done' },
            ],
          },
        ],
      },
    });
    expect(created.status, created.text).toBe(201);
    const started = await call(server.baseUrl, 'POST', '/api/workflow/start', {
      body: { sessionId: 'q', workflowId: 'strict', payload: 'not an object' },
    });
    expect(started.status, started.text).toBe(202);
    const id = started.json.data.executionId as string;
    await eventually(
      () => call(server.baseUrl, 'GET', `/api/executions/${id}`),
      (answer) => answer.json.data.status === 'FAILED',
    );
    const retries = await call(
      server.baseUrl,
      'GET',
      '/actuator/metrics/svc.node.retries?tag=module:TEXT_CASE',
    );
    expect(retries.json.measurements[0].value).toBe(0);
  });
});

describe('plugins from svc.plugins.dir on a remote worker (docs/workers.md)', () => {
  it('runs a placed node of a directory plugin on a worker that loads the same directory', async () => {
    const dir = `--svc.plugins.dir=${fixture('plugins')}`;
    const server = await startControlPlane({ argv: [dir] });
    try {
      const worker = await startWorker(server, {
        argv: [dir, '--svc.workers.plugin-types=TEXT_CASE'],
      });
      try {
        const id = await startRun(
          server,
          placedFlow('placed-case', {
            type: 'TEXT_CASE',
            config: { to: 'upper', engine: { placement: 'default' } },
          }),
          { text: 'from the worker' },
        );
        const record = await endOf(server, id);
        expect(record.status, JSON.stringify(record)).toBe('COMPLETED');
        const results = await server.call('GET', `/api/executions/${id}/results`);
        expect(results.json.data.map((event: { payload: unknown }) => event.payload)).toEqual([
          { text: 'FROM THE WORKER' },
        ]);
      } finally {
        await worker.close();
      }
    } finally {
      await server.close();
    }
  });
});

describe('a bad plugin directory', () => {
  it('stops start-up naming a file that does not default-export a plugin definition', async () => {
    const result = await runServerToExit([
      '--svc.server.port=0',
      `--svc.plugins.dir=${fixture('bad-plugins/not-a-definition')}`,
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `svc.plugins.dir: plugin '${fixture('bad-plugins/not-a-definition/broken.mjs')}' is not a plugin definition`,
    );
    expect(result.stderr).toContain('kind:');
  }, 30_000);

  it('stops start-up naming a plugin that takes the type of a built-in', async () => {
    const result = await runServerToExit([
      '--svc.server.port=0',
      `--svc.plugins.dir=${fixture('bad-plugins/built-in-type')}`,
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `svc.plugins.dir: plugin '${fixture('bad-plugins/built-in-type/filter.mjs')}' defines type 'FILTER', a built-in type`,
    );
  }, 30_000);
});
