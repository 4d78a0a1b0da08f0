// SPEC "Tool endpoint" and CONTRACT 4 "MCP tools" through the official SDK client: the tools
// by role, REST data as structured content, refusals starting with the HTTP status, and the
// same keys, roles and session limits as the REST API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roleAllows } from '../src/auth/index.js';
import type { Role } from '../src/auth/index.js';
import { MCP_TOOLS } from '../src/mcp/index.js';
import type { Tool } from '../src/mcp/index.js';
import { apiKeysEnv } from './support/api-keys.js';
import { connectMcp } from './support/mcp.js';
import type { McpSession } from './support/mcp.js';
import { startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';
import { eventually } from './support/wait.js';
import { doubling, slowWorkflow } from './support/workflows.js';
import { toolArguments } from './support/tool-arguments.js';

const VIEWER_TOOLS = [
  'get_session_details',
  'list_sessions',
  'get_execution_logs',
  'get_execution_result',
  'list_pending_approvals',
  'list_workflow_versions',
  'diff_workflow_versions',
  'get_workflow_details',
  'get_workflow_status',
  'get_workflow_history',
  'list_plugins',
  'get_plugin_details',
  'get_control_bus_status',
  'get_session_creation_instructions',
  'get_plugin_creation_guide',
];
const OPERATOR_TOOLS = [
  'start_workflow',
  'control_workflow',
  'control_node',
  'set_node_breakpoint',
  'signal_node',
  'rollback_workflow',
  'note_workflow_version',
  'replay_check',
];

const echo = {
  workflowId: 'echo',
  description: 'hands its start payload to a terminal',
  nodes: [
    { nodeId: 'in', type: 'API_TRIGGER' },
    { nodeId: 'shape', type: 'MAPPER', config: { expression: '{"got": $}' } },
    { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
  ],
  edges: [
    { source: 'in', target: 'shape' },
    { source: 'shape', target: 'out' },
  ],
};

const slow = slowWorkflow();

describe('Tool endpoint on an open server (SPEC Tool endpoint, CONTRACT 4)', () => {
  let server: TestServer;
  let mcp: McpSession;

  beforeAll(async () => {
    server = await startTestServer();
    mcp = await connectMcp(server.baseUrl);
  });
  afterAll(async () => {
    await mcp.close();
    await server.close();
  });

  const rest = async (path: string): Promise<unknown> => (await server.call('GET', path)).json.data;
  /** A new session, named by its id, holding `workflows`. */
  const sessionWith = (sessionId: string, ...workflows: unknown[]) =>
    mcp.call('create_session', { sessionId, name: sessionId, initiator: 'agent', workflows });
  /** A new session holding `echo`, and a run of it on payload 1. */
  const echoOnce = async (sessionId: string): Promise<string> => {
    await sessionWith(sessionId, echo);
    return (await mcp.call('start_workflow', { sessionId, workflowId: 'echo', payload: 1 })).data
      .executionId as string;
  };

  it('lists every tool of the role table, each with a JSON Schema of its arguments', async () => {
    const { tools } = await mcp.client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining([...VIEWER_TOOLS, ...OPERATOR_TOOLS]));
    expect(names).toEqual(expect.arrayContaining(['create_session', 'define_workflow']));
    for (const tool of tools) expect(tool.inputSchema.type).toBe('object');
    const start = tools.find((tool) => tool.name === 'start_workflow');
    expect(start?.inputSchema.required).toEqual(['sessionId', 'workflowId']);
  });

  it('defines, starts and reads a workflow, answering the data of the REST calls', async () => {
    const created = await mcp.call('create_session', {
      sessionId: 'tools',
      name: 'Tools',
      initiator: 'agent',
      workflows: [echo],
    });
    expect(created.isError, created.text).toBe(false);
    expect(created.data).toEqual(await rest('/api/sessions/tools'));
    expect(JSON.parse(created.text)).toEqual(created.data);

    const started = await mcp.call('start_workflow', {
      sessionId: 'tools',
      workflowId: 'echo',
      payload: { name: 'you' },
    });
    expect(started.data).toMatchObject({ executionId: expect.any(String) });
    const executionId = started.data.executionId as string;
    const status = await eventually(
      () => mcp.call('get_workflow_status', { executionId }),
      (answer) => answer.data.status === 'COMPLETED',
    );
    expect(status.data).toEqual(await rest(`/api/workflow/tools/status/${executionId}`));

    const results = await mcp.call('get_execution_result', { executionId });
    expect(results.data).toEqual({ items: await rest(`/api/executions/${executionId}/results`) });
    expect(results.data.items[0].payload).toEqual({ got: { name: 'you' } });
    expect((await mcp.call('get_execution_logs', { executionId })).data).toEqual({
      items: await rest(`/api/executions/${executionId}/logs`),
    });
    const history = await mcp.call('get_workflow_history', { sessionId: 'tools' });
    expect(history.data).toEqual({ items: await rest('/api/workflow/tools/history') });
    expect(
      (await mcp.call('get_workflow_details', { sessionId: 'tools', workflowId: 'echo' })).data,
    ).toEqual(await rest('/api/sessions/tools/workflows/echo'));
    expect((await mcp.call('get_plugin_details', { type: 'MAPPER' })).data).toEqual(
      await rest('/api/plugins/MAPPER'),
    );
    expect((await mcp.call('get_control_bus_status')).data).toEqual(
      await rest('/api/control/status'),
    );
  });

  it('reads and saves a workflow layout as the REST calls do, without a new version', async () => {
    await sessionWith('layouts', echo);
    const target = { sessionId: 'layouts', workflowId: 'echo' };
    expect((await mcp.call('get_workflow_layout', target)).data).toEqual({
      ...target,
      version: 1,
      positions: {},
    });
    const positions = { in: { x: 0, y: 0 }, shape: { x: 240, y: 0 } };
    const saved = await mcp.call('save_workflow_layout', { ...target, positions });
    expect(saved.isError, saved.text).toBe(false);
    expect(saved.data).toEqual({ ...target, version: 1, positions });
    expect(saved.data).toEqual(await rest('/api/sessions/layouts/workflows/echo/layout'));
    expect((await mcp.call('get_workflow_layout', target)).data).toEqual(saved.data);
    const versions = await mcp.call('list_workflow_versions', target);
    expect(versions.data.items).toHaveLength(1);

    const refused = await mcp.call('save_workflow_layout', {
      ...target,
      positions: { gone: { x: 1, y: 1 } },
    });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/^400 /);
    expect((await mcp.call('get_workflow_layout', target)).data).toEqual(saved.data);
  });

  it('saves versions, notes one, diffs two and rolls back', async () => {
    await mcp.call('create_session', { sessionId: 'versions', name: 'V', initiator: 'agent' });
    const first = await mcp.call('define_workflow', { sessionId: 'versions', workflow: echo });
    expect(first.data).toMatchObject({ version: 1, created: true });
    const changed = { ...echo, description: 'changed', nodes: echo.nodes.slice(0, 1), edges: [] };
    expect(
      (await mcp.call('define_workflow', { sessionId: 'versions', workflow: changed })).data,
    ).toMatchObject({
      version: 2,
    });
    const noted = await mcp.call('note_workflow_version', {
      sessionId: 'versions',
      workflowId: 'echo',
      version: 1,
      note: 'the one that worked',
    });
    expect(noted.data).toMatchObject({ version: 1, note: 'the one that worked', current: false });
    const versions = await mcp.call('list_workflow_versions', {
      sessionId: 'versions',
      workflowId: 'echo',
    });
    expect(versions.data).toEqual({
      items: await rest('/api/sessions/versions/workflows/echo/versions'),
    });
    const diff = await mcp.call('diff_workflow_versions', {
      sessionId: 'versions',
      workflowId: 'echo',
      from: 1,
      to: '2',
    });
    expect(diff.data).toEqual(
      await rest('/api/sessions/versions/workflows/echo/versions/diff?from=1&to=2'),
    );
    const rolledBack = await mcp.call('rollback_workflow', {
      sessionId: 'versions',
      workflowId: 'echo',
      version: 1,
    });
    expect(rolledBack.data).toMatchObject({ version: 3, current: true });
    expect((await rest('/api/sessions/versions/workflows/echo')) as object).toMatchObject({
      description: echo.description,
    });
  });

  it('steers a run with case-insensitive actions, audited like the REST calls', async () => {
    await sessionWith('steer', slow);
    const executionId = (
      await mcp.call('start_workflow', { sessionId: 'steer', workflowId: 'slow' })
    ).data.executionId as string;
    expect((await mcp.call('control_workflow', { executionId, action: 'pause' })).data).toEqual({
      executionId,
      status: 'PAUSED',
    });
    expect((await mcp.call('control_workflow', { executionId, action: 'Resume' })).data).toEqual({
      executionId,
      status: 'RUNNING',
    });
    const breakpoint = await mcp.call('set_node_breakpoint', { executionId, nodeId: 'out' });
    expect(breakpoint.data).toEqual({ nodeIds: ['out'] });
    expect(await rest(`/api/executions/${executionId}/breakpoints`)).toEqual({ nodeIds: ['out'] });
    const skipped = await mcp.call('control_node', { executionId, nodeId: 'wait', action: 'skip' });
    expect(skipped.data).toMatchObject({ executionId, nodeId: 'wait' });
    const restarted = await mcp.call('control_workflow', { executionId, action: 'RESTART' });
    expect(restarted.isError, restarted.text).toBe(false);
    expect(restarted.data.executionId).not.toBe(executionId);
    await mcp.call('control_workflow', { executionId: restarted.data.executionId, action: 'STOP' });
    const audit = (await rest(`/api/control/audit?executionId=${executionId}`)) as {
      command: string;
      outcome: string;
    }[];
    expect(audit.map((entry) => entry.command)).toEqual([
      'RESTART',
      'SKIP',
      'BREAKPOINTS',
      'RESUME',
      'PAUSE',
    ]);
  });

  it('restarts from a node with edited inputs and another version (docs/run-repair.md)', async () => {
    const executionId = await echoOnce('repair');
    const ended = (id: string) =>
      eventually(
        () => rest(`/api/executions/${id}`),
        (data) => !['QUEUED', 'RUNNING'].includes((data as { status: string }).status),
      );
    await ended(executionId);
    const received = (await rest(
      `/api/executions/${executionId}/nodes/shape/messages?direction=in`,
    )) as { items: { messageId: string }[] };
    const restarted = await mcp.call('control_node', {
      executionId,
      nodeId: 'shape',
      action: 'restart_from_node',
      inputs: [{ messageId: received.items[0]?.messageId, payload: 2 }],
      version: 1,
    });
    expect(restarted.isError, restarted.text).toBe(false);
    const again = restarted.data.executionId as string;
    await ended(again);
    expect(
      ((await rest(`/api/executions/${again}/results`)) as { payload: unknown }[]).map(
        (result) => result.payload,
      ),
    ).toEqual([{ got: 2 }]);
    const unknown = await mcp.call('control_workflow', {
      executionId,
      nodeId: 'shape',
      action: 'RESTART_FROM_NODE',
      inputs: [{ messageId: 'nope', payload: 2 }],
    });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(/^400 .*Message 'nope' is not one node 'shape' received/);
    const misplaced = await mcp.call('control_workflow', {
      executionId,
      action: 'PAUSE',
      inputs: [{ payload: 2 }],
    });
    expect(misplaced.isError).toBe(true);
    expect(misplaced.text).toContain('inputs does not go with PAUSE');
  });

  it('replay-checks a run against a saved version or a draft, answering the data of the REST call (docs/run-repair.md)', async () => {
    const executionId = await echoOnce('checks');
    await eventually(
      () => rest(`/api/executions/${executionId}`),
      (data) => (data as { status: string }).status === 'COMPLETED',
    );
    const same = await mcp.call('replay_check', { executionId, version: 1 });
    expect(same.isError, same.text).toBe(false);
    expect(same.data).toMatchObject({ version: 1, status: 'COMPLETED' });
    const changed = {
      ...echo,
      nodes: echo.nodes.map((node) =>
        node.nodeId === 'shape' ? { ...node, config: { expression: '{"had": $}' } } : node,
      ),
    };
    const draft = await mcp.call('replay_check', { executionId, definition: changed });
    expect(draft.isError, draft.text).toBe(false);
    const shape = (draft.data.nodes as { nodeId: string }[]).find(
      (node) => node.nodeId === 'shape',
    );
    expect(shape).toMatchObject({
      same: false,
      differences: [{ recorded: { got: 1 }, replayed: { had: 1 } }],
    });
    const neither = await mcp.call('replay_check', { executionId });
    expect(neither.isError).toBe(true);
    expect(neither.text).toMatch(/^400 /);
  });

  it('lists, reads, redrives and deletes dead letters (docs/dead-letters.md)', async () => {
    await sessionWith('letters', doubling());
    const started = await mcp.call('start_workflow', {
      sessionId: 'letters',
      workflowId: 'doubling',
    });
    const executionId = started.data.executionId as string;
    const listed = await eventually(
      () => mcp.call('list_dead_letters', { sessionId: 'letters' }),
      (answer) => (answer.data?.items as unknown[] | undefined)?.length === 2,
    );
    const [first, second] = listed.data.items as { id: string; payload: unknown }[];
    if (first === undefined || second === undefined) throw new Error('no letters');
    const read = await mcp.call('get_dead_letter', { id: first.id });
    expect(read.data).toMatchObject({ id: first.id, executionId, nodeId: 'double' });
    expect(read.data.attempts).not.toHaveLength(0);

    const redriven = await mcp.call('redrive_dead_letter', { id: first.id, payload: 5 });
    expect(redriven.isError, redriven.text).toBe(false);
    const again = redriven.data.executionId as string;
    expect(redriven.data.letter).toMatchObject({ id: first.id, redrivenAs: again });
    await eventually(
      () => rest(`/api/executions/${again}`),
      (data) => (data as { status: string }).status === 'COMPLETED',
    );
    expect(
      ((await rest(`/api/executions/${again}/results`)) as { payload: unknown }[]).map(
        (result) => result.payload,
      ),
    ).toEqual([10]);

    const deleted = await mcp.call('delete_dead_letter', { id: second.id });
    expect(deleted.isError, deleted.text).toBe(false);
    const gone = await mcp.call('get_dead_letter', { id: second.id });
    expect(gone.isError).toBe(true);
    expect(gone.text).toMatch(/^404 /);
  });

  it('lists pending approvals and answers one with signal_node', async () => {
    const asking = {
      workflowId: 'ask',
      description: 'one message to approve',
      nodes: [
        { nodeId: 'in', type: 'MANUAL' },
        { nodeId: 'approve', type: 'WAIT_FOR_SIGNAL', config: { prompt: 'ok?' } },
        { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
      ],
      edges: [
        { source: 'in', target: 'approve' },
        { source: 'approve', target: 'out', sourcePort: 'approved' },
      ],
    };
    await sessionWith('asks', asking);
    const executionId = (await mcp.call('start_workflow', { sessionId: 'asks', workflowId: 'ask' }))
      .data.executionId as string;
    const pending = await eventually(
      () => mcp.call('list_pending_approvals', { executionId }),
      (answer) => answer.data.items.length === 1,
    );
    expect(pending.data).toEqual({ items: await rest(`/api/executions/${executionId}/approvals`) });
    expect((await mcp.call('list_pending_approvals', { sessionId: 'asks' })).data).toEqual({
      items: await rest('/api/sessions/asks/approvals'),
    });
    const messageId = pending.data.items[0].messageId as string;
    const signalled = await mcp.call('signal_node', {
      executionId,
      nodeId: 'approve',
      approved: true,
      messageId,
      comment: 'fine',
    });
    expect(signalled.data).toEqual({ executionId, nodeId: 'approve', messageId, approved: true });
    await eventually(
      () => mcp.call('get_workflow_status', { executionId }),
      (answer) => answer.data.status === 'COMPLETED',
    );
    const again = await mcp.call('signal_node', {
      executionId,
      nodeId: 'approve',
      approved: false,
    });
    expect(again.text).toMatch(/^409 /);
  });

  it('answers a refusal as isError with the HTTP status first (CONTRACT 4)', async () => {
    const unknown = await mcp.call('get_session_details', { sessionId: 'nothing' });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(/^404 Session 'nothing' does not exist/);
    const invalid = await mcp.call('start_workflow', { sessionId: 'tools' });
    expect(invalid.isError).toBe(true);
    expect(invalid.text).toMatch(/^400 Validation failed \(workflowId: /);
    const unknownArgument = await mcp.call('list_sessions', { surprise: true });
    expect(unknownArgument.text).toMatch(/^400 .*surprise/);
    const stopped = await mcp.call('control_workflow', { executionId: 'nope', action: 'STOP' });
    expect(stopped.text).toMatch(/^404 /);
    const badAction = await mcp.call('control_workflow', { executionId: 'nope', action: 'FLY' });
    expect(badAction.text).toMatch(/^400 .*action must be one of/);
    await expect(mcp.client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(
      /Unknown tool 'no_such_tool'/,
    );
  });

  it('offers no event stream: GET and DELETE on /mcp answer 405', async () => {
    expect((await server.call('GET', '/mcp')).status).toBe(405);
    expect((await server.call('DELETE', '/mcp')).status).toBe(405);
  });

  it('answers the guides and a draft validation without saving anything', async () => {
    const instructions = await mcp.call('get_session_creation_instructions');
    expect(instructions.data.instructions).toContain('create_session');
    expect(instructions.data.nodeTypes).toContain('API_TRIGGER');
    const guide = await mcp.call('get_plugin_creation_guide');
    expect(guide.data.guide).toContain('definePlugin');
    const validation = await mcp.call('validate_workflow', {
      workflow: { ...echo, nodes: echo.nodes.slice(1), edges: [echo.edges[1]] },
    });
    expect(validation.data).toMatchObject({ valid: false });
    const example = instructions.data.example as { sessionId: string };
    const created = await mcp.call('create_session', example);
    expect(created.isError, created.text).toBe(false);
  });
});

const KEYS = {
  ...apiKeysEnv({
    viewer: 'VIEWER',
    operator: 'OPERATOR',
    admin: 'ADMIN',
    limited: { role: 'ADMIN', sessions: 'mine' },
  }),
  SVC_MCP_API_KEY: 'tool-key',
};

/** A server with KEYS, a client per key, and a slow run going in sessions `mine` and `theirs`. */
async function keyedServer(keys: readonly string[]): Promise<{
  readonly server: TestServer;
  readonly clients: Record<string, McpSession>;
  readonly executions: Record<string, string>;
  readonly close: () => Promise<void>;
}> {
  const server = await startTestServer({ env: KEYS });
  const clients: Record<string, McpSession> = {};
  for (const key of keys) clients[key] ??= await connectMcp(server.baseUrl, key);
  const admin = clients['admin-key'] ?? (await connectMcp(server.baseUrl, 'admin-key'));
  const executions: Record<string, string> = {};
  for (const sessionId of ['mine', 'theirs']) {
    await admin.call('create_session', {
      sessionId,
      name: sessionId,
      initiator: 'tests',
      workflows: [slow],
    });
    const started = await admin.call('start_workflow', { sessionId, workflowId: 'slow' });
    executions[sessionId] = started.data.executionId as string;
  }
  return {
    server,
    clients,
    executions,
    close: async () => {
      for (const client of new Set([...Object.values(clients), admin])) await client.close();
      await server.close();
    },
  };
}

describe('Tool endpoint with keys (SPEC Authentication, Roles, Audit actor naming)', () => {
  let server: TestServer;
  let sessions: Record<string, McpSession> = {};
  let executions: Record<string, string> = {};
  let close = (): Promise<void> => Promise.resolve();

  beforeAll(async () => {
    const keyed = await keyedServer([
      'viewer-key',
      'operator-key',
      'admin-key',
      'limited-key',
      'tool-key',
    ]);
    ({ server, clients: sessions, executions, close } = keyed);
  });
  afterAll(() => close());

  const as = (key: string): McpSession => sessions[key] as McpSession;

  it('refuses /mcp without a valid key with 401, and answers the same keys as the REST API', async () => {
    const answer = await fetch(`${server.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toBe('Bearer');
    await expect(connectMcp(server.baseUrl, 'wrong-key')).rejects.toThrow();
    const byApiKeyHeader = await fetch(`${server.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        'x-api-key': 'viewer-key',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 't', version: '1' },
        },
      }),
    });
    expect(byApiKeyHeader.status).toBe(200);
  });

  it('lets each role use exactly its tools: VIEWER reads, OPERATOR steers, ADMIN defines', async () => {
    const mine = executions.mine as string;
    interface ToolCall {
      readonly name: string;
      readonly args: Record<string, unknown>;
    }
    const read: ToolCall = { name: 'get_workflow_status', args: { executionId: mine } };
    const steer = { name: 'control_workflow', args: { executionId: mine, action: 'RESUME' } };
    const rollback = {
      name: 'rollback_workflow',
      args: { sessionId: 'mine', workflowId: 'slow', version: 1 },
    };
    const define = { name: 'define_workflow', args: { sessionId: 'mine', workflow: slow } };
    const expectations: [string, ToolCall, boolean][] = [
      ['viewer-key', read, true],
      ['viewer-key', steer, false],
      ['viewer-key', rollback, false],
      ['viewer-key', define, false],
      ['operator-key', read, true],
      ['operator-key', steer, true],
      // SPEC Versioning 3: rollback needs OPERATOR on the tool endpoint (ADMIN on REST).
      ['operator-key', rollback, true],
      ['operator-key', define, false],
      ['admin-key', define, true],
    ];
    for (const [key, tool, allowed] of expectations) {
      const answer = await as(key).call(tool.name, tool.args);
      const context = `${key} ${tool.name}: ${answer.text}`;
      if (allowed) expect(answer.text, context).not.toMatch(/^403/);
      else expect(answer.text, context).toMatch(/^403 Tool '.*' needs the (OPERATOR|ADMIN) role/);
    }
    const restRollback = await server.call(
      'POST',
      '/api/sessions/mine/workflows/slow/versions/1/rollback',
      {
        headers: { authorization: 'Bearer operator-key' },
      },
    );
    expect(restRollback.status).toBe(403);
  });

  it('makes a session-limited key pass a sessionId it may reach, and answers another session like an unknown one', async () => {
    const limited = as('limited-key');
    const theirs = executions.theirs as string;
    const mine = executions.mine as string;
    expect((await limited.call('get_session_details', { sessionId: 'mine' })).isError).toBe(false);
    expect((await limited.call('get_session_details', { sessionId: 'theirs' })).text).toMatch(
      /^403 The key may not reach session 'theirs'/,
    );
    expect((await limited.call('get_workflow_status', { executionId: mine })).text).toMatch(
      /^403 A key limited to sessions must pass a sessionId argument/,
    );
    expect(
      (await limited.call('get_workflow_status', { executionId: mine, sessionId: 'mine' })).isError,
    ).toBe(false);
    expect(
      (await limited.call('get_workflow_status', { executionId: theirs, sessionId: 'mine' })).text,
    ).toMatch(/^404 /);
    expect(
      (
        await limited.call('control_workflow', {
          executionId: theirs,
          sessionId: 'mine',
          action: 'STOP',
        })
      ).text,
    ).toMatch(/^404 /);
    expect((await limited.call('list_sessions')).text).toMatch(
      /^403 A key limited to sessions cannot use tool/,
    );
    expect((await limited.call('get_plugin_creation_guide')).isError).toBe(false);
    expect((await server.call('GET', `/api/executions/${theirs}`)).status).toBe(401);
  });

  it('records control commands with key:<name> and key:mcp as their actors', async () => {
    const mine = executions.mine as string;
    await as('operator-key').call('control_workflow', { executionId: mine, action: 'PAUSE' });
    await as('tool-key').call('control_workflow', { executionId: mine, action: 'RESUME' });
    const audit = await server.call('GET', `/api/control/audit?executionId=${mine}&limit=2`, {
      headers: { authorization: 'Bearer admin-key' },
    });
    expect(
      audit.json.data.map((entry: { command: string; actor: string }) => [
        entry.command,
        entry.actor,
      ]),
    ).toEqual([
      ['RESUME', 'key:mcp'],
      ['PAUSE', 'key:operator'],
    ]);
  });

  it('keeps the tool-endpoint key out of the REST API', async () => {
    const answer = await server.call('GET', '/api/sessions', {
      headers: { authorization: 'Bearer tool-key' },
    });
    expect(answer.status).toBe(401);
  });
});

interface MatrixKey {
  readonly key: string;
  readonly role: Role;
  /** The session a limited key names in its calls; null for an unrestricted key. */
  readonly names: string | null;
  readonly reaches: boolean;
}

const MATRIX_KEYS: readonly MatrixKey[] = [
  { key: 'viewer-key', role: 'VIEWER', names: null, reaches: true },
  { key: 'operator-key', role: 'OPERATOR', names: null, reaches: true },
  { key: 'admin-key', role: 'ADMIN', names: null, reaches: true },
  { key: 'limited-key', role: 'ADMIN', names: 'mine', reaches: true },
  { key: 'limited-key', role: 'ADMIN', names: 'theirs', reaches: false },
];

/** Plausible arguments for a tool, by the names SPEC and CONTRACT give them. */
function argumentsFor(tool: Tool, sessionId: string, executionId: string): Record<string, unknown> {
  return toolArguments(tool.inputSchema, {
    sessionId,
    executionId,
    workflowId: 'slow',
    workflow: slow,
  });
}

describe('Tool endpoint authorization matrix: every tool against every kind of key (SPEC Roles)', () => {
  let clients: Record<string, McpSession> = {};
  let executions: Record<string, string> = {};
  let close = (): Promise<void> => Promise.resolve();

  beforeAll(async () => {
    ({ clients, executions, close } = await keyedServer(MATRIX_KEYS.map((entry) => entry.key)));
  });
  afterAll(() => close());

  it.each(MCP_TOOLS.map((tool) => [tool.name, tool] as const))(
    '%s answers each key exactly as its role and sessions allow',
    async (_name, tool) => {
      for (const entry of MATRIX_KEYS) {
        const session = entry.names ?? 'mine';
        const args = argumentsFor(tool, session, executions[session] ?? 'none');
        const answer = await (clients[entry.key] as McpSession).call(tool.name, args);
        const limited = entry.names !== null;
        const refused =
          !roleAllows(entry.role, tool.role) ||
          (limited && tool.scope === 'global') ||
          (limited && !entry.reaches && (tool.scope === 'session' || tool.scope === 'execution'));
        const context = `${entry.key} (${session}) ${tool.name}: ${answer.text}`;
        if (refused) expect(answer.text, context).toMatch(/^403 /);
        else expect(answer.text, context).not.toMatch(/^403 /);
      }
    },
  );
});

describe('Tool endpoint settings (SPEC Runtime profiles)', () => {
  it('is not served with svc.mcp.enabled=false', async () => {
    const server = await startTestServer({ env: { SVC_MCP_ENABLED: 'false' } });
    try {
      const answer = await server.call('POST', '/mcp', { body: {} });
      expect(answer.status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('guards /mcp alone with svc.mcp.api-key and records no actor without named keys', async () => {
    const server = await startTestServer({ env: { SVC_MCP_API_KEY: 'tool-key' } });
    try {
      expect((await server.call('GET', '/api/sessions')).status).toBe(200);
      await expect(connectMcp(server.baseUrl)).rejects.toThrow();
      const mcp = await connectMcp(server.baseUrl, 'tool-key');
      await mcp.call('create_session', {
        sessionId: 's',
        name: 's',
        initiator: 't',
        workflows: [slow],
      });
      const executionId = (await mcp.call('start_workflow', { sessionId: 's', workflowId: 'slow' }))
        .data.executionId as string;
      await mcp.call('control_workflow', { executionId, action: 'STOP' });
      const audit = await server.call('GET', `/api/control/audit?executionId=${executionId}`);
      expect(audit.json.data[0]).toMatchObject({
        command: 'STOP',
        outcome: 'APPLIED',
        actor: null,
      });
      await mcp.close();
    } finally {
      await server.close();
    }
  });
});
