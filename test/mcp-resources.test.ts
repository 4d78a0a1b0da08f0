// The tool endpoint beyond tools, through the official SDK client: resources and their
// templates, subscriptions to executions, prompts and completions, under the same keys, roles
// and session limits as the tools (SPEC "Tool endpoint", "Roles").
import { McpError, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeysEnv } from './support/api-keys.js';
import { connectMcp } from './support/mcp.js';
import type { McpSession } from './support/mcp.js';
import { startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';
import { endOf, eventually } from './support/wait.js';
import { delayedWorkflow, failingWorkflow, slowWorkflow } from './support/workflows.js';

const RESOURCE_NOT_FOUND = -32002;

/** The JSON a resource read answers. */
async function read(mcp: McpSession, uri: string): Promise<unknown> {
  const { contents } = await mcp.client.readResource({ uri });
  expect(contents[0]).toMatchObject({ uri, mimeType: 'application/json' });
  return JSON.parse((contents[0] as { text: string }).text);
}

/** The JSON-RPC error a request is refused with: its code, and its message as the server sent it. */
async function refusal(request: Promise<unknown>): Promise<{ code: number; message: string }> {
  const error: unknown = await request.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(McpError);
  const { code, message } = error as McpError;
  // The client puts `MCP error <code>: ` before the server's message.
  return { code, message: message.replace(/^MCP error -?\d+: /, '') };
}

describe('Resources, prompts and completions on an open server', () => {
  let server: TestServer;
  let mcp: McpSession;
  let failedId: string;
  let completedId: string;

  beforeAll(async () => {
    server = await startTestServer();
    mcp = await connectMcp(server.baseUrl);
    const created = await mcp.call('create_session', {
      sessionId: 'res',
      name: 'Resources',
      initiator: 'tests',
      workflows: [delayedWorkflow, failingWorkflow('failing', 'broken-marker'), slowWorkflow()],
    });
    expect(created.isError, created.text).toBe(false);
    const failed = await mcp.call('start_workflow', { sessionId: 'res', workflowId: 'failing' });
    failedId = failed.data.executionId as string;
    const completed = await mcp.call('start_workflow', { sessionId: 'res', workflowId: 'delayed' });
    completedId = completed.data.executionId as string;
    await endOf(server, failedId);
    await endOf(server, completedId);
  });
  afterAll(async () => {
    await mcp.close();
    await server.close();
  });

  const rest = async (path: string): Promise<unknown> => (await server.call('GET', path)).json.data;

  it('declares logging, completions, prompts and resources with subscriptions', () => {
    expect(mcp.sessionId).toEqual(expect.any(String));
    expect(mcp.client.getServerCapabilities()).toMatchObject({
      tools: {},
      logging: {},
      completions: {},
      prompts: {},
      resources: { subscribe: true },
    });
  });

  it('lists the catalogue, sessions and workflows, and a template for every resource', async () => {
    const { resources } = await mcp.client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(
      expect.arrayContaining([
        'svc://plugins',
        'svc://sessions/res',
        'svc://sessions/res/workflows/delayed',
      ]),
    );
    const { resourceTemplates } = await mcp.client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual([
      'svc://plugins',
      'svc://plugins/{type}',
      'svc://sessions/{sessionId}',
      'svc://sessions/{sessionId}/workflows/{workflowId}',
      'svc://sessions/{sessionId}/workflows/{workflowId}/versions',
      'svc://sessions/{sessionId}/workflows/{workflowId}/versions/{version}',
      'svc://executions/{executionId}',
      'svc://executions/{executionId}/results',
      'svc://executions/{executionId}/logs',
      'svc://executions/{executionId}/nodes/{nodeId}',
    ]);
    for (const template of resourceTemplates) expect(template.description).toMatch(/VIEWER/);
  });

  it('reads each resource as the data of the REST call it stands for', async () => {
    expect(await read(mcp, 'svc://plugins')).toEqual(await rest('/api/plugins'));
    expect(await read(mcp, 'svc://plugins/MAPPER')).toEqual(await rest('/api/plugins/MAPPER'));
    expect(await read(mcp, 'svc://sessions/res')).toEqual(await rest('/api/sessions/res'));
    expect(await read(mcp, 'svc://sessions/res/workflows/delayed')).toEqual(
      await rest('/api/sessions/res/workflows/delayed'),
    );
    expect(await read(mcp, 'svc://sessions/res/workflows/delayed/versions')).toEqual(
      await rest('/api/sessions/res/workflows/delayed/versions'),
    );
    expect(await read(mcp, 'svc://sessions/res/workflows/delayed/versions/1')).toMatchObject({
      workflowId: 'delayed',
      nodes: delayedWorkflow.nodes,
    });
    expect(await read(mcp, `svc://executions/${completedId}`)).toEqual(
      await rest(`/api/workflow/res/status/${completedId}`),
    );
    expect(await read(mcp, `svc://executions/${completedId}/results`)).toEqual(
      await rest(`/api/executions/${completedId}/results`),
    );
    expect(await read(mcp, `svc://executions/${failedId}/logs`)).toEqual(
      await rest(`/api/executions/${failedId}/logs`),
    );
    expect(await read(mcp, `svc://executions/${failedId}/nodes/boom`)).toMatchObject({
      nodeId: 'boom',
      status: 'FAILURE',
      error: expect.stringContaining('broken-marker'),
    });
  });

  it('refuses a URI of no resource and an unknown id with resource-not-found and the status', async () => {
    const unknown = await refusal(mcp.client.readResource({ uri: 'svc://nothing/here' }));
    expect(unknown.code).toBe(RESOURCE_NOT_FOUND);
    expect(unknown.message).toMatch(/404 No resource has the URI/);
    const execution = await refusal(mcp.client.readResource({ uri: 'svc://executions/nope' }));
    expect(execution.code).toBe(RESOURCE_NOT_FOUND);
    expect(execution.message).toMatch(/404 Execution 'nope' does not exist/);
    const session = await refusal(mcp.client.readResource({ uri: 'svc://sessions/nope' }));
    expect(session.code).toBe(RESOURCE_NOT_FOUND);
  });

  it('sends resources/updated to a subscriber while the execution changes, and stops after unsubscribe', async () => {
    const updated: string[] = [];
    mcp.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      updated.push(notification.params.uri);
    });
    const started = await mcp.call('start_workflow', { sessionId: 'res', workflowId: 'delayed' });
    const uri = `svc://executions/${started.data.executionId as string}`;
    await mcp.client.subscribeResource({ uri });
    await mcp.client.subscribeResource({ uri: `${uri}/results` });
    await eventually(
      () => Promise.resolve(updated),
      (uris) => uris.includes(uri) && uris.includes(`${uri}/results`),
    );
    await endOf(server, started.data.executionId as string);
    await mcp.client.unsubscribeResource({ uri });
    await mcp.client.unsubscribeResource({ uri: `${uri}/results` });
    const refused = await refusal(mcp.client.subscribeResource({ uri: 'svc://plugins' }));
    expect(refused.message).toMatch(/^400 Only resources of executions change/);
  });

  it('answers a request without a session on its own as JSON, but takes no subscription there', async () => {
    const post = (body: unknown): Promise<Response> =>
      fetch(`${server.baseUrl}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify(body),
      });
    const answer = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'resources/read',
      params: { uri: 'svc://sessions/res' },
    });
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.headers.get('mcp-session-id')).toBeNull();
    expect(await answer.json()).toMatchObject({
      result: { contents: [{ uri: 'svc://sessions/res' }] },
    });
    const subscribe = await post({
      jsonrpc: '2.0',
      id: 2,
      method: 'resources/subscribe',
      params: { uri: `svc://executions/${completedId}` },
    });
    expect(await subscribe.json()).toMatchObject({
      error: { message: expect.stringMatching(/^Subscriptions need a session/) },
    });
  });

  it('lists three prompts with described arguments', async () => {
    const { prompts } = await mcp.client.listPrompts();
    expect(prompts.map((prompt) => [prompt.name, prompt.arguments?.map((a) => a.name)])).toEqual([
      ['design_workflow', ['goal']],
      ['debug_failed_run', ['executionId']],
      ['explain_workflow', ['sessionId', 'workflowId']],
    ]);
    for (const prompt of prompts) {
      for (const argument of prompt.arguments ?? []) expect(argument.description).toMatch(/e\.g\./);
    }
  });

  it('designs a workflow from the plugin catalogue and asks for validate_workflow', async () => {
    const { messages } = await mcp.client.getPrompt({
      name: 'design_workflow',
      arguments: { goal: 'greet every caller' },
    });
    const text = (messages[0]?.content as { text: string }).text;
    expect(text).toContain('greet every caller');
    expect(text).toContain('"type": "MAPPER"');
    expect(text).toContain('validate_workflow');
  });

  it('debugs a failed run with its record, failing node, error and log lines', async () => {
    const { messages } = await mcp.client.getPrompt({
      name: 'debug_failed_run',
      arguments: { executionId: failedId },
    });
    const text = (messages[0]?.content as { text: string }).text;
    expect(text).toContain(`Execution ${failedId}`);
    expect(text).toContain('"nodeId": "boom"');
    expect(text).toContain('broken-marker');
    expect(text).toMatch(/Last \d+ log lines/);
  });

  it('explains a workflow from its definition, and refuses missing arguments with 400', async () => {
    const { messages } = await mcp.client.getPrompt({
      name: 'explain_workflow',
      arguments: { sessionId: 'res', workflowId: 'delayed' },
    });
    expect((messages[0]?.content as { text: string }).text).toContain('"nodeId": "times"');
    const missing = await refusal(
      mcp.client.getPrompt({ name: 'explain_workflow', arguments: { sessionId: 'res' } }),
    );
    expect(missing.message).toMatch(
      /400 Validation failed \(workflowId: workflowId is mandatory\)/,
    );
  });

  it('completes sessions, workflows, versions, executions, nodes and plugin types', async () => {
    const values = async (
      ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
      name: string,
      value: string,
      context: Record<string, string> = {},
    ): Promise<string[]> =>
      (
        await mcp.client.complete({
          ref,
          argument: { name, value },
          context: { arguments: context },
        })
      ).completion.values;
    const explain = { type: 'ref/prompt', name: 'explain_workflow' } as const;
    expect(await values(explain, 'sessionId', 're')).toEqual(['res']);
    expect(await values(explain, 'workflowId', 'de', { sessionId: 'res' })).toEqual(['delayed']);
    const version = {
      type: 'ref/resource',
      uri: 'svc://sessions/{sessionId}/workflows/{workflowId}/versions/{version}',
    } as const;
    expect(
      await values(version, 'version', '', { sessionId: 'res', workflowId: 'delayed' }),
    ).toEqual(['1']);
    const debug = { type: 'ref/prompt', name: 'debug_failed_run' } as const;
    expect(await values(debug, 'executionId', failedId.slice(0, 8))).toEqual([failedId]);
    const node = {
      type: 'ref/resource',
      uri: 'svc://executions/{executionId}/nodes/{nodeId}',
    } as const;
    expect(await values(node, 'nodeId', 'b', { executionId: failedId })).toEqual(['boom']);
    const plugin = { type: 'ref/resource', uri: 'svc://plugins/{type}' } as const;
    expect(await values(plugin, 'type', 'MAP')).toEqual(['MAPPER']);
    expect(await values({ type: 'ref/prompt', name: 'no_such_prompt' }, 'x', '')).toEqual([]);
  });
});

const KEYS = {
  ...apiKeysEnv({ viewer: 'VIEWER', admin: 'ADMIN', limited: { role: 'ADMIN', sessions: 'mine' } }),
};

describe('Resources, prompts and completions with keys (SPEC Roles)', () => {
  let server: TestServer;
  const clients: Record<string, McpSession> = {};
  const executions: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer({ env: KEYS });
    for (const key of ['viewer-key', 'admin-key', 'limited-key']) {
      clients[key] = await connectMcp(server.baseUrl, key);
    }
    const admin = clients['admin-key'] as McpSession;
    for (const sessionId of ['mine', 'theirs']) {
      await admin.call('create_session', {
        sessionId,
        name: sessionId,
        initiator: 'tests',
        workflows: [slowWorkflow()],
      });
      const started = await admin.call('start_workflow', { sessionId, workflowId: 'slow' });
      executions[sessionId] = started.data.executionId as string;
    }
  });
  afterAll(async () => {
    for (const client of Object.values(clients)) await client.close();
    await server.close();
  });

  const as = (key: string): McpSession => clients[key] as McpSession;
  const sessionIds = async (key: string): Promise<string[]> =>
    (
      await as(key).client.complete({
        ref: { type: 'ref/prompt', name: 'explain_workflow' },
        argument: { name: 'sessionId', value: '' },
      })
    ).completion.values;

  it('lets a VIEWER read every resource and prompt the tools let it read', async () => {
    expect(await read(as('viewer-key'), 'svc://sessions/theirs')).toMatchObject({
      sessionId: 'theirs',
    });
    expect(
      await read(as('viewer-key'), `svc://executions/${executions.mine as string}`),
    ).toMatchObject({ status: 'RUNNING' });
    const prompt = await as('viewer-key').client.getPrompt({
      name: 'explain_workflow',
      arguments: { sessionId: 'mine', workflowId: 'slow' },
    });
    expect(prompt.messages).toHaveLength(1);
    expect(await sessionIds('viewer-key')).toEqual(['mine', 'theirs']);
  });

  it('shows a session-limited key only its sessions and their executions', async () => {
    const limited = as('limited-key');
    const { resources } = await limited.client.listResources();
    expect(resources.map((resource) => resource.uri).sort()).toEqual([
      'svc://sessions/mine',
      'svc://sessions/mine/workflows/slow',
    ]);
    expect(await read(limited, `svc://executions/${executions.mine as string}/logs`)).toEqual([]);
    const theirs = await refusal(limited.client.readResource({ uri: 'svc://sessions/theirs' }));
    expect(theirs.message).toMatch(/^403 The key may not reach session 'theirs'/);
    const other = await refusal(
      limited.client.readResource({ uri: `svc://executions/${executions.theirs as string}` }),
    );
    expect(other.code).toBe(RESOURCE_NOT_FOUND);
    expect(other.message).toMatch(/^404 Execution/);
    const catalogue = await refusal(limited.client.readResource({ uri: 'svc://plugins' }));
    expect(catalogue.message).toMatch(
      /^403 A key limited to sessions cannot use resource 'plugins'/,
    );
    const design = await refusal(
      limited.client.getPrompt({ name: 'design_workflow', arguments: { goal: 'x' } }),
    );
    expect(design.message).toMatch(/^403 /);
    const subscribe = await refusal(
      limited.client.subscribeResource({ uri: `svc://executions/${executions.theirs as string}` }),
    );
    expect(subscribe.code).toBe(RESOURCE_NOT_FOUND);
  });

  it('completes for a session-limited key only what it may reach', async () => {
    const limited = as('limited-key');
    expect(await sessionIds('limited-key')).toEqual(['mine']);
    const runs = await limited.client.complete({
      ref: { type: 'ref/prompt', name: 'debug_failed_run' },
      argument: { name: 'executionId', value: '' },
    });
    expect(runs.completion.values).toEqual([executions.mine]);
    const nodes = await limited.client.complete({
      ref: { type: 'ref/resource', uri: 'svc://executions/{executionId}/nodes/{nodeId}' },
      argument: { name: 'nodeId', value: '' },
      context: { arguments: { executionId: executions.theirs as string } },
    });
    expect(nodes.completion.values).toEqual([]);
    const types = await limited.client.complete({
      ref: { type: 'ref/resource', uri: 'svc://plugins/{type}' },
      argument: { name: 'type', value: '' },
    });
    expect(types.completion.values).toEqual([]);
  });

  it('keeps an MCP session to the key that opened it', async () => {
    const sessionId = as('admin-key').sessionId;
    expect(sessionId).toEqual(expect.any(String));
    const listTools = (key: string): Promise<Response> =>
      fetch(`${server.baseUrl}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': sessionId as string,
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    const own = await listTools('admin-key');
    expect(own.status).toBe(200);
    await own.body?.cancel();
    const other = await listTools('viewer-key');
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ error: { code: -32001 } });
  });
});
