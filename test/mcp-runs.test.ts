// start_workflow with wait (issue "The tool endpoint beyond tools"), through the official SDK
// client: progress notifications of nodes done of nodes total, log notifications of the run's
// log lines, approvals asked through elicitation where the client can ask, and the pending
// approval answered where it cannot.
import {
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { ElicitRequest, ElicitResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp } from './support/mcp.js';
import type { McpSession } from './support/mcp.js';
import { startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';
import { approvalWorkflow, delayedWorkflow, slowWorkflow } from './support/workflows.js';

const printing = {
  workflowId: 'printing',
  description: 'prints one message',
  nodes: [
    { nodeId: 'in', type: 'CONSTANT_SOURCE', config: { messages: [{ hello: 'there' }] } },
    { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [{ source: 'in', target: 'out' }],
};

describe('start_workflow waiting for its run', () => {
  let server: TestServer;
  let mcp: McpSession;

  beforeAll(async () => {
    server = await startTestServer();
    mcp = await connectMcp(server.baseUrl);
    const created = await mcp.call('create_session', {
      sessionId: 'runs',
      name: 'Runs',
      initiator: 'tests',
      workflows: [delayedWorkflow, approvalWorkflow, printing, slowWorkflow()],
    });
    expect(created.isError, created.text).toBe(false);
  });
  afterAll(async () => {
    await mcp.close();
    await server.close();
  });

  it('answers the ended run and sends progress of nodes done of nodes total', async () => {
    const progress: Progress[] = [];
    const result = await mcp.client.callTool(
      {
        name: 'start_workflow',
        arguments: { sessionId: 'runs', workflowId: 'delayed', wait: true },
      },
      undefined,
      { onprogress: (update) => progress.push(update) },
    );
    expect(result.structuredContent).toMatchObject({
      status: 'COMPLETED',
      finished: true,
      pendingApprovals: [],
      execution: { progress: { nodesTotal: 4, nodesFinished: 4 } },
    });
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.every((update) => update.total === 4)).toBe(true);
    expect(progress.at(-1)).toMatchObject({ progress: 4, total: 4 });
    const counts = progress.map((update) => update.progress);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
  });

  it('sends the run log lines as log notifications at the level the client set', async () => {
    const messages: { level: string; logger?: string | undefined; data: unknown }[] = [];
    mcp.client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      messages.push(notification.params);
    });
    await mcp.client.setLoggingLevel('debug');
    const result = await mcp.client.callTool({
      name: 'start_workflow',
      arguments: { sessionId: 'runs', workflowId: 'printing', wait: true },
    });
    expect(result.structuredContent).toMatchObject({ status: 'COMPLETED', finished: true });
    expect(messages).toContainEqual(
      expect.objectContaining({ logger: 'out', data: expect.objectContaining({ nodeId: 'out' }) }),
    );
    messages.length = 0;
    await mcp.client.setLoggingLevel('error');
    await mcp.client.callTool({
      name: 'start_workflow',
      arguments: { sessionId: 'runs', workflowId: 'printing', wait: true },
    });
    expect(messages).toEqual([]);
  });

  it('answers where the run is once timeoutSeconds pass', async () => {
    const answer = await mcp.call('start_workflow', {
      sessionId: 'runs',
      workflowId: 'slow',
      wait: true,
      timeoutSeconds: 1,
    });
    expect(answer.data).toMatchObject({ status: 'RUNNING', finished: false });
    await mcp.call('control_workflow', { executionId: answer.data.executionId, action: 'stop' });
  });

  it('answers the pending approval to a client that cannot ask its user', async () => {
    const answer = await mcp.call('start_workflow', {
      sessionId: 'runs',
      workflowId: 'approval',
      wait: true,
    });
    expect(answer.data).toMatchObject({
      finished: false,
      pendingApprovals: [{ nodeId: 'ask', prompt: 'ship it?', payload: { order: 7 } }],
    });
    await mcp.call('control_workflow', { executionId: answer.data.executionId, action: 'stop' });
  });

  it('refuses a timeoutSeconds out of range with 400 naming the field', async () => {
    const answer = await mcp.call('start_workflow', {
      sessionId: 'runs',
      workflowId: 'slow',
      wait: true,
      timeoutSeconds: 0,
    });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/^400 .*timeoutSeconds: timeoutSeconds must be at least 1/);
  });
});

describe('start_workflow asking approvals through elicitation', () => {
  let server: TestServer;
  let asker: McpSession;
  const questions: ElicitRequest['params'][] = [];
  let reply: ElicitResult = { action: 'decline' };

  beforeAll(async () => {
    server = await startTestServer();
    asker = await connectMcp(server.baseUrl, undefined, { elicitation: { form: {} } });
    asker.client.setRequestHandler(ElicitRequestSchema, (request) => {
      questions.push(request.params);
      return reply;
    });
    await asker.call('create_session', {
      sessionId: 'asks',
      name: 'Asks',
      initiator: 'tests',
      workflows: [approvalWorkflow],
    });
  });
  afterAll(async () => {
    await asker.close();
    await server.close();
  });

  it('asks approve or reject with a comment, applies the answer and follows the run to its end', async () => {
    reply = { action: 'accept', content: { decision: 'approve', comment: 'looks right' } };
    const answer = await asker.call('start_workflow', {
      sessionId: 'asks',
      workflowId: 'approval',
      wait: true,
    });
    expect(answer.data).toMatchObject({ status: 'COMPLETED', finished: true });
    expect(questions).toHaveLength(1);
    expect(questions[0]?.message).toContain('ship it?');
    expect(questions[0]).toMatchObject({
      requestedSchema: { properties: { decision: { enum: ['approve', 'reject'] } } },
    });
    const results = await asker.call('get_execution_result', {
      executionId: answer.data.executionId,
    });
    expect(results.data.items).toHaveLength(1);
  });

  it('answers the pending approval when the user declines to answer', async () => {
    questions.length = 0;
    reply = { action: 'decline' };
    const answer = await asker.call('start_workflow', {
      sessionId: 'asks',
      workflowId: 'approval',
      wait: true,
    });
    expect(questions).toHaveLength(1);
    expect(answer.data).toMatchObject({ finished: false, pendingApprovals: [{ nodeId: 'ask' }] });
    await asker.call('control_workflow', { executionId: answer.data.executionId, action: 'stop' });
  });
});
