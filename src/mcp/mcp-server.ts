// One MCP server for one connection of the tool endpoint: tools, resources (with subscriptions
// on a session), prompts, completions and logging. Every request is answered for the key that
// opened the connection, under the rules of tool-access.ts.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import type { Principal } from '../auth/index.js';
import { complete } from './completions.js';
import {
  isUnexpected,
  protocolError,
  ProtocolRefusal,
  refusalText,
  RESOURCE_NOT_FOUND,
} from './error-mapping.js';
import { findPrompt, PROMPTS, renderPrompt } from './prompts.js';
import { ResourceSubscriptions } from './resource-subscriptions.js';
import { listResources, matchResource, RESOURCES } from './resources.js';
import type { Tool, ToolCaller, ToolContext, ToolDeps } from './tool.js';
import { checkAccess, checkRole, checkScope } from './tool-access.js';
import { toolContext } from './tool-context.js';

export interface McpServerOptions {
  readonly deps: ToolDeps;
  readonly tools: readonly Tool[];
  /** The server's version, named in the MCP handshake. */
  readonly version: string;
  readonly logger: Logger;
}

export interface McpConnection {
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- the low-level server, see createMcpServer
  readonly server: Server;
  /** Ends the subscriptions of the connection. */
  close(): void;
}

const JSON_TYPE = 'application/json';

const INSTRUCTIONS =
  'Workflow execution service. Read get_session_creation_instructions before defining workflows, list_plugins (or the svc://plugins resource) for node types, and check drafts with validate_workflow. start_workflow with wait: true follows the run to its end.';

/**
 * The server for one connection. `stateful` is true for a connection that initialized a
 * session: only such a connection can be sent notifications after a request ended, so only it
 * takes subscriptions.
 */
export function createMcpServer(
  options: McpServerOptions,
  principal: Principal | null,
  stateful: boolean,
): McpConnection {
  const { deps, logger } = options;
  const byName = new Map(options.tools.map((tool) => [tool.name, tool]));
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- the low-level server: tools parse their own arguments and refusals carry the HTTP status, which McpServer's handling would not
  const server = new Server(
    { name: 'workflow-service', version: options.version },
    {
      capabilities: {
        tools: {},
        logging: {},
        completions: {},
        prompts: {},
        resources: { subscribe: true },
      },
      instructions: INSTRUCTIONS,
    },
  );
  let level: LoggingLevel = 'info';
  const subscriptions = new ResourceSubscriptions(deps, (uri) => {
    server.sendResourceUpdated({ uri }).catch(() => undefined);
  });
  const caller: ToolCaller = {
    actor: principal?.actor ?? null,
    author: principal?.caller ?? 'anonymous',
    sessions: principal?.sessions ?? null,
  };

  const callTool = async (
    tool: Tool,
    args: unknown,
    context: ToolContext,
  ): Promise<CallToolResult> => {
    try {
      checkRole(tool, principal);
      const input = tool.parse(args);
      checkScope(tool, input, principal, deps);
      const data: unknown = await tool.call(input, deps, caller, context);
      const structured = isRecord(data) ? data : { value: data };
      return {
        content: [{ type: 'text', text: JSON.stringify(structured) }],
        structuredContent: structured,
      };
    } catch (error) {
      if (isUnexpected(error)) {
        logger.error({ err: error, tool: tool.name }, 'Tool call failed unexpectedly');
      }
      return { isError: true, content: [{ type: 'text', text: refusalText(error) }] };
    }
  };
  /** Answers a resource, prompt or completion request, its refusals as JSON-RPC errors. */
  const answering = async <T>(what: string, work: () => Promise<T> | T, notFound?: number) => {
    try {
      return await work();
    } catch (error) {
      if (isUnexpected(error)) logger.error({ err: error, request: what }, 'MCP request failed');
      throw protocolError(error, notFound);
    }
  };

  const tools = options.tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
  }));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, (message, extra) => {
    const tool = byName.get(message.params.name);
    if (tool === undefined) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool '${message.params.name}'`);
    }
    const canAsk = stateful && server.getClientCapabilities()?.elicitation !== undefined;
    return callTool(
      tool,
      message.params.arguments,
      toolContext(extra, { level: () => level, canAsk }),
    );
  });

  server.setRequestHandler(SetLevelRequestSchema, (message) => {
    level = message.params.level;
    return {};
  });

  server.setRequestHandler(ListResourcesRequestSchema, () =>
    answering('resources/list', async () => ({
      resources: await listResources(principal, deps),
    })),
  );
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: RESOURCES.map((spec) => ({
      uriTemplate: spec.uriTemplate,
      name: spec.name,
      title: spec.title,
      description: `${spec.description} Needs the ${spec.role} role.`,
      mimeType: JSON_TYPE,
    })),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, (message) => {
    const { uri } = message.params;
    return answering(
      'resources/read',
      async () => {
        const match = matchResource(uri);
        if (match === undefined) {
          throw new ProtocolRefusal(RESOURCE_NOT_FOUND, `404 No resource has the URI '${uri}'`);
        }
        checkAccess(match.spec, match.params, principal, deps);
        const data: unknown = await match.spec.read(match.params, deps);
        return { contents: [{ uri, mimeType: JSON_TYPE, text: JSON.stringify(data) }] };
      },
      RESOURCE_NOT_FOUND,
    );
  });
  server.setRequestHandler(SubscribeRequestSchema, (message) => {
    if (!stateful) {
      throw new ProtocolRefusal(
        ErrorCode.InvalidRequest,
        'Subscriptions need a session: send initialize first and keep its Mcp-Session-Id',
      );
    }
    subscriptions.subscribe(message.params.uri, principal);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, (message) => {
    subscriptions.unsubscribe(message.params.uri);
    return {};
  });

  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: PROMPTS.map((prompt) => ({
      name: prompt.name,
      title: prompt.title,
      description: `${prompt.description} Needs the ${prompt.role} role.`,
      arguments: prompt.arguments.map((argument) => ({ ...argument })),
    })),
  }));
  server.setRequestHandler(GetPromptRequestSchema, (message) => {
    const { name, arguments: args = {} } = message.params;
    return answering('prompts/get', async () => {
      const prompt = findPrompt(name);
      if (prompt === undefined)
        throw new ProtocolRefusal(ErrorCode.InvalidParams, `Unknown prompt '${name}'`);
      const text = await renderPrompt(prompt, args, principal, deps);
      return {
        description: prompt.description,
        messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }],
      };
    });
  });

  server.setRequestHandler(CompleteRequestSchema, (message) =>
    answering('completion/complete', async () => ({
      completion: await complete(
        {
          ref: message.params.ref,
          argument: message.params.argument,
          context: message.params.context?.arguments ?? {},
        },
        principal,
        deps,
      ),
    })),
  );

  return {
    server,
    close: () => {
      subscriptions.close();
    },
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
