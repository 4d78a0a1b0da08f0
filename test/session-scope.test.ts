// SPEC "Authentication" (session-limited keys) and "Errors" (another session's execution is
// reported as 404): a key limited to session `sa` reaches nothing of session `sb` through any
// route, tool, stream, search or sub-workflow, and cannot tell `sb`'s ids from unknown ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeRule } from '../src/auth/index.js';
import { apiKeysEnv } from './support/api-keys.js';
import { connectMcp } from './support/mcp.js';
import type { McpSession, ToolAnswer } from './support/mcp.js';
import { openSse, startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';
import { toolArguments } from './support/tool-arguments.js';
import { eventually } from './support/wait.js';
import { linearWorkflow, slowWorkflow } from './support/workflows.js';

const ADMIN = { authorization: 'Bearer admin-key' };
const LIMITED = { authorization: 'Bearer sa-key' };
const UNKNOWN_EXECUTION = 'unknown-execution';
const UNKNOWN_SESSION = 'zz';

/** MANUAL -> SUB_WORKFLOW of session sb -> terminal: the escape a limited key must not make. */
const escapeWorkflow = {
  ...slowWorkflow('escape'),
  nodes: slowWorkflow().nodes.map((node) =>
    node.nodeId === 'wait'
      ? { nodeId: 'wait', type: 'SUB_WORKFLOW', config: { sessionId: 'sb', workflowId: 'quick' } }
      : node,
  ),
};

interface Answer {
  readonly status: number;
  readonly body: string;
}

let server: TestServer;
let limitedMcp: McpSession;
const ids = { sa: '', sb: '' };

beforeAll(async () => {
  server = await startTestServer({
    env: {
      ...apiKeysEnv({ admin: 'ADMIN', sa: { role: 'ADMIN', sessions: 'sa' } }),
    },
  });
  for (const sessionId of ['sa', 'sb'] as const) {
    await server.call('POST', '/api/sessions', {
      headers: ADMIN,
      body: {
        sessionId,
        name: sessionId,
        initiator: 'ops',
        workflows: [slowWorkflow('wf'), linearWorkflow('quick')],
      },
    });
    const started = await server.call('POST', '/api/workflow/start', {
      headers: ADMIN,
      body: { sessionId, workflowId: 'wf', payload: { secret: `${sessionId}-payload` } },
    });
    ids[sessionId] = started.json.data.executionId as string;
  }
  limitedMcp = await connectMcp(server.baseUrl, 'sa-key');
});

afterAll(async () => {
  await limitedMcp.close();
  await server.close();
});

/** One request; a stream is not read on, only noted, so a leaking stream cannot hang a test. */
async function answerOf(method: string, path: string, body: unknown): Promise<Answer> {
  const controller = new AbortController();
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { ...LIMITED, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: controller.signal,
  });
  if ((response.headers.get('content-type') ?? '').includes('event-stream')) {
    controller.abort();
    return { status: response.status, body: 'event stream' };
  }
  return { status: response.status, body: normalise(await response.text()) };
}

/** The answer with what legitimately differs (the id asked for, the time) taken out. */
function normalise(text: string): string {
  return text
    .replaceAll(ids.sb, '<execution>')
    .replaceAll(UNKNOWN_EXECUTION, '<execution>')
    .replaceAll(`'sb'`, "'<session>'")
    .replaceAll(`'${UNKNOWN_SESSION}'`, "'<session>'")
    .replace(/"timestamp":"[^"]*"/g, '"timestamp":"<time>"');
}

function bodyFor(method: string, url: string): unknown {
  if (method === 'GET' || method === 'DELETE') return undefined;
  if (url === '/api/sessions') return { name: 'n', initiator: 'i' };
  if (url === '/api/sessions/validate') return linearWorkflow('draft');
  if (url.endsWith('/workflows/:workflowId')) return linearWorkflow('wf');
  if (url === '/api/workflow/start') return { sessionId: 'sb', workflowId: 'wf' };
  if (url === '/api/workflow/:sessionId/start') return { workflowId: 'wf' };
  if (url === '/actuator/loggers/:name') return { configuredLevel: 'INFO' };
  if (url === '/api/executions/:id/breakpoints') return { nodeIds: [] };
  if (url === '/api/executions/:id/priority') return { priority: 1 };
  if (url.endsWith('/signal')) return { approved: true };
  return undefined;
}

/** A concrete path: `sb`'s objects, or unknown ones; the key's own session beside an id. */
function pathOf(url: string, target: 'sb' | 'unknown'): string {
  const session = url.includes(':id') ? 'sa' : target === 'sb' ? 'sb' : UNKNOWN_SESSION;
  return url
    .replace(':sessionId', session)
    .replace(':workflowId', 'wf')
    .replace(':version', '1')
    .replace(':type', 'FILTER')
    .replace(':nodeId', 'wait')
    .replace(':name', 'app')
    .replace(':id', target === 'sb' ? ids.sb : UNKNOWN_EXECUTION);
}

describe('Session scope on every route (SPEC Authentication, Errors)', () => {
  it("answers every route for session sb's objects exactly as for unknown ones", async () => {
    const routes = server.app.routes.filter((route) => route.method !== 'HEAD');
    expect(routes.length).toBeGreaterThan(40);
    for (const route of routes) {
      const rule = routeRule(route.method, route.url);
      if (rule === undefined || rule.scope === 'open' || rule.scope === 'tool') continue;
      // The dead-letter list names no session in its path: it answers the key's sessions only
      // (test/dead-letters.test.ts).
      if (rule.scope === 'filtered' && !route.url.includes(':')) continue;
      const body = bodyFor(route.method, route.url);
      const ofSb = await answerOf(route.method, pathOf(route.url, 'sb'), body);
      const ofUnknown = await answerOf(route.method, pathOf(route.url, 'unknown'), body);
      const context = `${route.method} ${route.url}: ${ofSb.status} ${ofSb.body}`;
      expect(ofSb, context).toEqual(ofUnknown);
      expect(ofSb.status, context).toBeGreaterThanOrEqual(400);
      expect(ofSb.body, context).not.toContain('sb-payload');
    }
    // Nothing was steered: sb's run still waits in its DELAY.
    const sbRun = await server.call('GET', `/api/executions/${ids.sb}`, { headers: ADMIN });
    expect(sbRun.json.data.status).toBe('RUNNING');
  });

  it("answers another session's execution with the unknown id's 404 and message", async () => {
    const ofSb = await server.call('GET', `/api/executions/${ids.sb}`, { headers: LIMITED });
    const ofUnknown = await server.call('GET', `/api/executions/${UNKNOWN_EXECUTION}`, {
      headers: LIMITED,
    });
    expect(ofSb.status).toBe(404);
    expect(ofSb.json.message).toBe(ofUnknown.json.message.replace(UNKNOWN_EXECUTION, ids.sb));
  });

  it('refuses the global searches and the global event stream with 403', async () => {
    for (const path of ['/api/executions?sessionId=sb', '/api/events?sessionId=sb']) {
      const answer = await answerOf('GET', path, undefined);
      expect(answer, path).toEqual({ status: 403, body: '' });
    }
  });

  it('shows nothing of sb in the searches and streams of its own session', async () => {
    const history = await server.call('GET', '/api/workflow/sa/history?workflowId=wf', {
      headers: LIMITED,
    });
    expect(history.status).toBe(200);
    expect(history.text).toContain(ids.sa);
    expect(history.text).not.toContain(ids.sb);
    const approvals = await server.call('GET', '/api/sessions/sa/approvals', { headers: LIMITED });
    expect(approvals.text).not.toContain(ids.sb);
    const stream = await openSse(
      server.baseUrl,
      `/api/workflow/sa/status/${ids.sa}/stream`,
      LIMITED,
    );
    try {
      expect(stream.status).toBe(200);
      const events = await stream.until((seen) => seen.length >= 1, 5_000);
      const text = JSON.stringify(events);
      expect(text).not.toContain(ids.sb);
      expect(text).not.toContain('sb-payload');
    } finally {
      stream.close();
    }
  });
});

describe('Session scope on every tool (SPEC Tool endpoint)', () => {
  /** Plausible arguments, with the execution named whenever the tool takes one. */
  function argumentsFor(
    schema: { properties?: Record<string, unknown> | undefined; required?: string[] | undefined },
    sessionId: string,
    executionId: string,
  ): Record<string, unknown> {
    const args = toolArguments(schema, {
      sessionId,
      executionId,
      workflowId: 'wf',
      workflow: slowWorkflow('wf'),
    });
    if ('executionId' in (schema.properties ?? {})) args.executionId = executionId;
    return args;
  }

  function normaliseTool(answer: ToolAnswer): { isError: boolean; text: string } {
    return { isError: answer.isError, text: normalise(answer.text) };
  }

  it("answers every tool for session sb's objects exactly as for unknown ones", async () => {
    const { tools } = await limitedMcp.client.listTools();
    expect(tools.length).toBeGreaterThan(20);
    for (const tool of tools) {
      const schema = tool.inputSchema as { properties?: Record<string, unknown> };
      const pairs: [Record<string, unknown>, Record<string, unknown>][] = [
        [
          argumentsFor(tool.inputSchema, 'sb', ids.sb),
          argumentsFor(tool.inputSchema, UNKNOWN_SESSION, UNKNOWN_EXECUTION),
        ],
      ];
      // The key's own session named beside another session's execution.
      if ('executionId' in (schema.properties ?? {})) {
        pairs.push([
          argumentsFor(tool.inputSchema, 'sa', ids.sb),
          argumentsFor(tool.inputSchema, 'sa', UNKNOWN_EXECUTION),
        ]);
      }
      for (const [sbArgs, unknownArgs] of pairs) {
        const ofSb = normaliseTool(await limitedMcp.call(tool.name, sbArgs));
        const ofUnknown = normaliseTool(await limitedMcp.call(tool.name, unknownArgs));
        const context = `${tool.name} ${JSON.stringify(sbArgs)}: ${ofSb.text}`;
        expect(ofSb, context).toEqual(ofUnknown);
        expect(ofSb.text, context).not.toContain('sb-payload');
        if (sbArgs.sessionId === 'sb' || 'executionId' in sbArgs) {
          expect(ofSb.isError, context).toBe(true);
        }
      }
    }
    const sbRun = await server.call('GET', `/api/executions/${ids.sb}`, { headers: ADMIN });
    expect(sbRun.json.data.status).toBe('RUNNING');
  });
});

describe('SUB_WORKFLOW keeps to the sessions of the key (SPEC Roles)', () => {
  it('refuses a limited key saving a child in another session, with a field error', async () => {
    const saved = await server.call('PUT', '/api/sessions/sa/workflows/escape', {
      headers: LIMITED,
      body: escapeWorkflow,
    });
    expect(saved.status).toBe(400);
    expect(saved.json.errors).toEqual([
      { field: 'nodes[1].config.sessionId', message: expect.stringContaining("'sb'") },
    ]);
    const byTool = await limitedMcp.call('define_workflow', {
      sessionId: 'sa',
      workflow: escapeWorkflow,
    });
    expect(byTool.isError).toBe(true);
    expect(byTool.text).toContain('nodes[1].config.sessionId');
  });

  it("fails the child at run time when a limited key starts a workflow reaching sb's", async () => {
    // Saved by an unrestricted key, which may reach every session.
    const saved = await server.call('PUT', '/api/sessions/sa/workflows/escape', {
      headers: ADMIN,
      body: escapeWorkflow,
    });
    expect(saved.status).toBe(201);
    const started = await server.call('POST', '/api/workflow/sa/start', {
      headers: LIMITED,
      body: { workflowId: 'escape', payload: { n: 1 } },
    });
    expect(started.status).toBe(202);
    const id = started.json.data.executionId as string;
    const ended = await eventually(
      () => server.call('GET', `/api/executions/${id}`, { headers: LIMITED }),
      (answer) => answer.json.data.status !== 'RUNNING' && answer.json.data.status !== 'QUEUED',
    );
    expect(ended.json.data.status).toBe('FAILED');
    expect(ended.json.data.nodes.wait.error).toMatch(/outside the sessions of the key/);
    const results = await server.call('GET', `/api/executions/${id}/results`, {
      headers: LIMITED,
    });
    expect(JSON.stringify(results.json.data)).not.toContain('"n":1');
    // The same workflow started by an unrestricted key runs its child.
    const byAdmin = await server.call('POST', '/api/workflow/sa/start', {
      headers: ADMIN,
      body: { workflowId: 'escape', payload: { n: 1 } },
    });
    const done = await eventually(
      () =>
        server.call('GET', `/api/executions/${byAdmin.json.data.executionId}`, { headers: ADMIN }),
      (answer) => answer.json.data.status === 'COMPLETED' || answer.json.data.status === 'FAILED',
    );
    expect(done.json.data.status).toBe('COMPLETED');
    // Restarted by the limited key, the new run keeps to the key's sessions.
    const restarted = await server.call(
      'POST',
      `/api/executions/${byAdmin.json.data.executionId}/restart`,
      { headers: LIMITED },
    );
    expect(restarted.status).toBe(202);
    const again = await eventually(
      () =>
        server.call('GET', `/api/executions/${restarted.json.data.executionId}`, {
          headers: LIMITED,
        }),
      (answer) => answer.json.data.status === 'COMPLETED' || answer.json.data.status === 'FAILED',
    );
    expect(again.json.data.status).toBe('FAILED');
    expect(again.json.data.nodes.wait.error).toMatch(/outside the sessions of the key/);
  });
});
