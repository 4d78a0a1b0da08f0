// MCP_TOOL_CALL and MCP_LIST_TOOLS against a real MCP server on loopback (official SDK on
// both sides), with SPEC's client filters: allowed tools, argument bytes, denied patterns.
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, Server } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StepFailure } from '../../../plugin-api/index.js';
import type { MessageProcessor } from '../../../plugin-api/index.js';
import {
  closeServer,
  createTestContext,
  listenForBodies,
  message,
  processAll,
  setupOf,
  waitUntil,
} from '../../testing/index.js';
import { mcpListToolsPlugin } from './mcp-list-tools.js';
import { mcpToolCallPlugin } from './mcp-tool-call.js';
import type { McpToolCallSettings } from './mcp-tool-call.js';

let server: Server | undefined;

afterEach(async () => {
  await closeServer(server);
  server = undefined;
});

interface Calls {
  readonly headers: IncomingHttpHeaders[];
  readonly tools: string[];
}

/** A stateless MCP server with the tools `add`, `broken` and `slow`. */
async function startMcpServer(): Promise<{ url: string; calls: Calls }> {
  const calls: Calls = { headers: [], tools: [] };
  const listening = await listenForBodies((received, response, request) => {
    calls.headers.push(received.headers);
    const mcp = new McpServer({ name: 'test-tools', version: '1.0.0' });
    mcp.registerTool(
      'add',
      {
        description: 'Adds two numbers',
        inputSchema: { a: z.number(), b: z.number() },
        outputSchema: { sum: z.number() },
      },
      ({ a, b }) => {
        calls.tools.push('add');
        return {
          content: [{ type: 'text', text: String(a + b) }],
          structuredContent: { sum: a + b },
        };
      },
    );
    mcp.registerTool('broken', { description: 'Always fails' }, () => {
      calls.tools.push('broken');
      return { isError: true, content: [{ type: 'text', text: 'the disk is on fire' }] };
    });
    mcp.registerTool('slow', { description: 'Takes a minute' }, async () => {
      calls.tools.push('slow');
      // Answers too late for any test: the call is under way until the node gives it up.
      await new Promise((resolve) => setTimeout(resolve, 60_000));
      return { content: [] };
    });
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
    const body: unknown = received.body === '' ? undefined : JSON.parse(received.body);
    void mcp
      .connect(transport)
      .then(() => transport.handleRequest(request, response, body))
      .finally(() => {
        response.on('close', () => {
          void transport.close();
          void mcp.close();
        });
      });
  });
  server = listening.server;
  return { url: `${listening.origin}/mcp`, calls };
}

/** A stateful MCP server with the tool `add`: it keeps a session per client until it is ended. */
async function startStatefulMcpServer(): Promise<{
  url: string;
  open: Set<string>;
  ended: string[];
}> {
  const open = new Set<string>();
  const ended: string[] = [];
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const listening = await listenForBodies((received, response, request) => {
    const id = received.headers['mcp-session-id'];
    const known = typeof id === 'string' ? transports.get(id) : undefined;
    const body: unknown = received.body === '' ? undefined : JSON.parse(received.body);
    if (known !== undefined) {
      if (received.method === 'DELETE' && typeof id === 'string') ended.push(id);
      void known.handleRequest(request, response, body);
      return;
    }
    const mcp = new McpServer({ name: 'stateful-tools', version: '1.0.0' });
    mcp.registerTool('add', { inputSchema: { a: z.number(), b: z.number() } }, ({ a, b }) => ({
      content: [{ type: 'text', text: String(a + b) }],
    }));
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (sessionId) => {
        transports.set(sessionId, transport);
        open.add(sessionId);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) open.delete(transport.sessionId);
    };
    void mcp.connect(transport).then(() => transport.handleRequest(request, response, body));
  });
  server = listening.server;
  return { url: `${listening.origin}/mcp`, open, ended };
}

function caller(
  config: Record<string, unknown>,
  safeguards: Partial<McpToolCallSettings> = {},
): MessageProcessor {
  const parsed = mcpToolCallPlugin.configSchema.parse(config);
  const defaults = setupOf(mcpToolCallPlugin, {}, 'tool');
  const setup = { ...defaults, settings: { ...defaults.settings, ...safeguards } };
  return mcpToolCallPlugin.create!(parsed, setup) as MessageProcessor;
}

describe('MCP_TOOL_CALL', () => {
  it('calls the tool once per message with arguments from the payload or a template, emits its result and times each call', async () => {
    const { url, calls } = await startMcpServer();
    const ctx = createTestContext();
    const fromPayload = await processAll(
      caller({ url, tool: 'add' }),
      [message({ a: 2, b: 3 })],
      ctx,
    );
    expect(fromPayload[0]?.payload).toEqual({
      content: [{ type: 'text', text: '5' }],
      structuredContent: { sum: 5 },
    });
    // A lone placeholder keeps the number; one inside text renders as text.
    const templated = await processAll(
      caller({ url, tool: 'add', arguments: { a: 10, b: '{{ n }}' } }),
      [message({ n: 7 })],
    );
    expect(templated[0]?.payload).toMatchObject({ structuredContent: { sum: 17 } });
    const asText = await processAll(
      caller({ url, tool: 'add', arguments: { a: 10, b: 'n={{n}}' } }),
      [message({ n: 7 })],
    ).catch((error: unknown) => error);
    // The tool's schema refuses text for a number: bad input, not retried.
    expect(asText).toBeInstanceOf(StepFailure);
    expect(asText).toHaveProperty('retryable', false);
    expect(calls.tools).toEqual(['add', 'add']);
    expect(ctx.meterCalls).toEqual([
      expect.objectContaining({
        kind: 'observe',
        name: 'svc.mcp.call',
        tags: { tool: 'add', outcome: 'completed' },
      }),
    ]);
  });

  it('ends its session on a stateful server when the node closes, so none is left open', async () => {
    const { url, open, ended } = await startStatefulMcpServer();
    const emitted = await processAll(caller({ url, tool: 'add' }), [
      message({ a: 2, b: 3 }),
      message({ a: 1, b: 1 }),
    ]);
    expect(emitted.map((emit) => emit.payload)).toEqual([
      { content: [{ type: 'text', text: '5' }], structuredContent: null },
      { content: [{ type: 'text', text: '2' }], structuredContent: null },
    ]);
    // One session for both messages, ended by the node's close.
    expect(ended).toHaveLength(1);
    await waitUntil(() => open.size === 0, 'the session to be closed on the server');
  });

  it('sends the configured headers to the MCP server', async () => {
    const { url, calls } = await startMcpServer();
    await processAll(caller({ url, tool: 'add', headers: { authorization: 'Bearer t0k' } }), [
      message({ a: 1, b: 1 }),
    ]);
    expect(calls.headers.every((headers) => headers.authorization === 'Bearer t0k')).toBe(true);
  });

  it('fails the message without retry when the tool answers an error, naming its text', async () => {
    const { url } = await startMcpServer();
    const ctx = createTestContext();
    const failing = processAll(caller({ url, tool: 'broken' }), [message({})], ctx);
    await expect(failing).rejects.toThrow("MCP tool 'broken' failed: the disk is on fire");
    await expect(failing).rejects.toHaveProperty('retryable', false);
    expect(ctx.meterCalls.map((call) => call.tags['outcome'])).toEqual(['failed']);
  });

  it('fails as retryable when the server cannot be reached', async () => {
    const failing = processAll(caller({ url: 'http://127.0.0.1:1/mcp', tool: 'add' }), [
      message({ a: 1, b: 2 }),
    ]);
    await expect(failing).rejects.toThrow(/^MCP tool 'add' call failed: fetch failed/);
    await expect(failing).rejects.toHaveProperty('retryable', true);
  });

  it('refuses a tool outside svc.mcp-client.allowed-tools, as bad input and without calling it (SPEC Workflow-author safeguards)', async () => {
    const { url, calls } = await startMcpServer();
    const ctx = createTestContext();
    const failing = processAll(
      caller({ url, tool: 'add' }, { mcpAllowedTools: ['search'] }),
      [message({ a: 1, b: 2 })],
      ctx,
    );
    await expect(failing).rejects.toThrow("MCP tool 'add' is not in svc.mcp-client.allowed-tools");
    await expect(failing).rejects.toHaveProperty('retryable', false);
    expect(calls.tools).toEqual([]);
    expect(ctx.meterCalls.map((call) => call.tags['outcome'])).toEqual(['refused']);
  });

  it('refuses arguments over svc.mcp-client.max-argument-bytes and counts mcp.budget.exceeded', async () => {
    const { url, calls } = await startMcpServer();
    const ctx = createTestContext();
    const failing = processAll(
      caller({ url, tool: 'add' }, { mcpMaxArgumentBytes: 10 }),
      [message({ a: 1000, b: 2000 })],
      ctx,
    );
    await expect(failing).rejects.toThrow(
      "MCP tool 'add' arguments take 19 bytes, over svc.mcp-client.max-argument-bytes (10)",
    );
    await expect(failing).rejects.toHaveProperty('retryable', false);
    expect(ctx.reports).toEqual(['mcp.budget.exceeded:refused']);
    expect(calls.tools).toEqual([]);
  });

  it('refuses arguments matching svc.mcp-client.deny-argument-patterns', async () => {
    const { url, calls } = await startMcpServer();
    const failing = processAll(
      caller(
        { url, tool: 'add', arguments: { a: 1, b: 2, note: 'rm -rf /' } },
        {
          mcpDenyArgumentPatterns: [/secret/, /rm -rf/],
        },
      ),
      [message(null)],
    );
    await expect(failing).rejects.toThrow(
      "MCP tool 'add' arguments match svc.mcp-client.deny-argument-patterns[1]",
    );
    await expect(failing).rejects.toHaveProperty('retryable', false);
    expect(calls.tools).toEqual([]);
  });

  it('gives up a call under way when the node is stopped', async () => {
    const { url, calls } = await startMcpServer();
    const ctx = createTestContext();
    const started = Date.now();
    const failing = processAll(caller({ url, tool: 'slow' }), [message({})], ctx);
    await waitUntil(() => calls.tools.includes('slow'), 'the call to reach the tool');
    ctx.abort(new Error('stopped by the operator'));
    await expect(failing).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(ctx.meterCalls.map((call) => call.tags['outcome'])).toEqual(['stopped']);
  });
});

describe('MCP_LIST_TOOLS', () => {
  it('emits the tools of the server, only the allowed ones when svc.mcp-client.allowed-tools is set', async () => {
    const { url } = await startMcpServer();
    const list = (settings: { readonly allowedTools?: readonly string[] }) => {
      const parsed = mcpListToolsPlugin.configSchema.parse({ url });
      const setup = { nodeId: 'list', settings: { allowedTools: [], ...settings } };
      return processAll(mcpListToolsPlugin.create!(parsed, setup), [message(null)]);
    };
    const [all] = await list({});
    const names = (all?.payload as { tools: { name: string }[] }).tools.map((tool) => tool.name);
    expect(names).toEqual(['add', 'broken', 'slow']);
    expect((all?.payload as { tools: unknown[] }).tools[0]).toEqual({
      name: 'add',
      description: 'Adds two numbers',
      inputSchema: expect.objectContaining({ type: 'object' }),
    });
    const [allowed] = await list({ allowedTools: ['slow'] });
    expect(
      (allowed?.payload as { tools: { name: string }[] }).tools.map((tool) => tool.name),
    ).toEqual(['slow']);
  });
});
