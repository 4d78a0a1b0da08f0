// MCP_TOOL_CALL (optional plugin mcp-tool-call): calls a tool of a Streamable HTTP MCP server
// once per message, under the server's allow-list and argument filters (SPEC Workflow-author
// safeguards): a refused call fails as bad input and is not retried.
import {
  serverAttributes,
  compileTemplate,
  definePlugin,
  handlebarsProblem,
  httpUrl,
  pluginSettings,
  StepFailure,
  z,
} from '../../../plugin-api/index.js';
import type {
  Emit,
  Message,
  MessageProcessor,
  NodeContext,
  OutgoingCall,
} from '../../../plugin-api/index.js';
import { McpConnection, SDK_TIMEOUT_MS, mcpFailure, withHeaders } from './mcp-connection.js';

/** The safeguards of the type, with the deny patterns compiled once per server. */
const settings = pluginSettings(
  [
    'svc.mcp-client.allowed-tools',
    'svc.mcp-client.max-argument-bytes',
    'svc.mcp-client.deny-argument-patterns',
  ],
  (values) => ({
    mcpAllowedTools: values['svc.mcp-client.allowed-tools'],
    mcpMaxArgumentBytes: values['svc.mcp-client.max-argument-bytes'],
    mcpDenyArgumentPatterns: values['svc.mcp-client.deny-argument-patterns'].map(
      (pattern) => new RegExp(pattern),
    ),
  }),
);

export type McpToolCallSettings = ReturnType<typeof settings.make>;

/** The `plugin` tag of `svc.plugin.events` for calls refused over the argument budget. */
export const BUDGET_EVENT = 'mcp.budget.exceeded';

const configSchema = z.looseObject({
  url: httpUrl().describe('Streamable HTTP endpoint of the MCP server'),
  tool: z.string().min(1).describe('Tool name'),
  arguments: z
    .record(z.string(), z.unknown())
    .superRefine((value, ctx) => {
      for (const [path, problem] of templateProblems(value, [])) {
        ctx.addIssue({ code: 'custom', path, message: problem });
      }
    })
    .optional()
    .describe(
      'Tool arguments; strings may hold Handlebars placeholders of the payload, and a string that is one placeholder keeps the value it names. Without it an object payload is the arguments',
    ),
  headers: z
    .record(z.string(), z.string())
    .optional()
    .describe('HTTP headers sent to the MCP server, e.g. Authorization; may be secrets'),
});

type McpToolCallConfig = z.output<typeof configSchema>;

/** The emitted payload: the tool's result. */
export interface McpToolResult {
  readonly content: readonly unknown[];
  /** The tool's structured result, or null when it gives none. */
  readonly structuredContent: unknown;
}

export const mcpToolCallPlugin = definePlugin({
  type: 'MCP_TOOL_CALL',
  kind: 'processor',
  description:
    'Calls a tool of an MCP server per message and emits { content, structuredContent }.',
  configSchema,
  outputPorts: () => ['out'],
  defaultTimeoutSeconds: 30,
  settings,
  create: (config, setup) => new McpToolCall(config, setup.settings),
});

class McpToolCall implements MessageProcessor {
  readonly #tool: string;
  readonly #argumentsOf: (message: Message) => Record<string, unknown>;
  readonly #safeguards: McpToolCallSettings;
  readonly #connection: McpConnection;
  readonly #call: OutgoingCall;

  constructor(config: McpToolCallConfig, safeguards: McpToolCallSettings) {
    this.#tool = config.tool;
    this.#call = outgoingCall(config.url, config.tool);
    this.#argumentsOf = argumentsOf(config.arguments);
    this.#safeguards = safeguards;
    this.#connection = new McpConnection(config.url, config.headers);
  }

  async process(message: Message, ctx: NodeContext): Promise<Emit> {
    const started = ctx.now();
    const measure = (outcome: string): void => {
      ctx.meter.observe('svc.mcp.call', ctx.now() - started, { tool: this.#tool, outcome });
    };
    const args = this.#argumentsOf(message);
    const refusal = refusalOf(this.#tool, args, this.#safeguards);
    if (refusal !== undefined) {
      if (refusal.overBudget) ctx.report(BUDGET_EVENT, 'refused');
      measure('refused');
      throw StepFailure.nonRetryable(refusal.reason);
    }
    const span = ctx.traceCall(this.#call);
    try {
      const result = await withHeaders(span.headers, async () => {
        const client = await this.#connection.client(ctx.signal);
        return client.callTool({ name: this.#tool, arguments: args }, undefined, {
          signal: ctx.signal,
          timeout: SDK_TIMEOUT_MS,
        });
      });
      if (result.isError === true) {
        span.set({ 'error.type': 'tool_error' });
        throw StepFailure.nonRetryable(
          `MCP tool '${this.#tool}' failed: ${textOf(result.content) ?? 'no reason given'}`,
        );
      }
      span.end();
      measure('completed');
      const payload: McpToolResult = {
        content: Array.isArray(result.content) ? result.content : [],
        structuredContent: result.structuredContent ?? null,
      };
      return { payload };
    } catch (error) {
      span.end(error);
      measure(ctx.signal.aborted ? 'stopped' : 'failed');
      if (ctx.signal.aborted) throw error;
      const failure = mcpFailure(`MCP tool '${this.#tool}' call failed`, error);
      if (failure.retryable) this.#connection.drop();
      throw failure;
    }
  }

  close(): Promise<void> {
    return this.#connection.close();
  }
}

/**
 * The client span of the node's tool calls (OpenTelemetry MCP conventions), made once per
 * node; the URL's path and query stay out, as they may carry a token.
 */
function outgoingCall(endpoint: string, tool: string): OutgoingCall {
  const url = URL.parse(endpoint);
  return {
    name: `tools/call ${tool}`,
    attributes: {
      'mcp.method.name': 'tools/call',
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': tool,
      ...serverAttributes(url),
    },
  };
}

/**
 * SPEC Workflow-author safeguards for `MCP_TOOL_CALL`: the allow-list of tools, the size of
 * the arguments as JSON, and patterns the arguments must not match.
 */
export function refusalOf(
  tool: string,
  args: Readonly<Record<string, unknown>>,
  safeguards: McpToolCallSettings,
): { readonly reason: string; readonly overBudget: boolean } | undefined {
  const allowed = safeguards.mcpAllowedTools;
  if (allowed.length > 0 && !allowed.includes(tool)) {
    return {
      reason: `MCP tool '${tool}' is not in svc.mcp-client.allowed-tools`,
      overBudget: false,
    };
  }
  const json = JSON.stringify(args);
  const bytes = Buffer.byteLength(json, 'utf8');
  if (bytes > safeguards.mcpMaxArgumentBytes) {
    return {
      reason: `MCP tool '${tool}' arguments take ${bytes} bytes, over svc.mcp-client.max-argument-bytes (${safeguards.mcpMaxArgumentBytes})`,
      overBudget: true,
    };
  }
  const denied = safeguards.mcpDenyArgumentPatterns.findIndex((pattern) => pattern.test(json));
  if (denied !== -1) {
    return {
      reason: `MCP tool '${tool}' arguments match svc.mcp-client.deny-argument-patterns[${denied}]`,
      overBudget: false,
    };
  }
  return undefined;
}

/**
 * The arguments of a message: the node's `arguments` with every string holding `{{` rendered
 * as a Handlebars template of the payload, or else the payload itself when it is an object.
 */
function argumentsOf(
  configured: Readonly<Record<string, unknown>> | undefined,
): (message: Message) => Record<string, unknown> {
  if (configured === undefined) {
    return (message) => {
      const { payload } = message;
      if (typeof payload === 'object' && payload !== null && !Array.isArray(payload)) {
        return payload as Record<string, unknown>;
      }
      throw StepFailure.nonRetryable(
        'MCP_TOOL_CALL without arguments takes them from the payload, which must be an object',
      );
    };
  }
  const render = rendererOf(configured);
  return (message) => render(message.payload) as Record<string, unknown>;
}

/** Nesting of arguments looked into for templates; deeper members are sent as they are. */
const MAX_ARGUMENT_DEPTH = 32;

/** Each string of the arguments that holds `{{` and is not a template within the limits. */
function templateProblems(
  value: unknown,
  path: (string | number)[],
): [(string | number)[], string][] {
  if (typeof value === 'string') {
    const problem = value.includes('{{') ? handlebarsProblem(value) : undefined;
    return problem === undefined ? [] : [[path, problem]];
  }
  if (typeof value !== 'object' || value === null || path.length >= MAX_ARGUMENT_DEPTH) return [];
  return Object.entries(value).flatMap(([key, member]) =>
    templateProblems(member, [...path, Array.isArray(value) ? Number(key) : key]),
  );
}

type Renderer = (payload: unknown) => unknown;

/** A string that is one placeholder and nothing else: `{{ n }}`, `{{ order.id }}`, `{{this}}`. */
const SOLE_PLACEHOLDER = /^\{\{\s*([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*\}\}$/;

function rendererOf(value: unknown, depth = 0): Renderer {
  if (typeof value === 'string') {
    if (!value.includes('{{')) return () => value;
    // A lone placeholder keeps the value's type (a number stays a number), as tools expect.
    const sole = SOLE_PLACEHOLDER.exec(value)?.[1];
    if (sole !== undefined) return (payload) => valueAt(payload, sole);
    const template = compileTemplate(value, 'MCP_TOOL_CALL argument template');
    return (payload) => template.render(payload);
  }
  if (depth >= MAX_ARGUMENT_DEPTH) return () => value;
  if (Array.isArray(value)) {
    const items = value.map((item) => rendererOf(item, depth + 1));
    return (payload) => items.map((render) => render(payload));
  }
  if (typeof value === 'object' && value !== null) {
    const members = Object.entries(value).map(
      ([key, member]) => [key, rendererOf(member, depth + 1)] as const,
    );
    return (payload) => Object.fromEntries(members.map(([key, render]) => [key, render(payload)]));
  }
  return () => value;
}

/** The value at a dotted path of the payload (`this` is the payload); undefined when absent. */
function valueAt(payload: unknown, dotted: string): unknown {
  if (dotted === 'this') return payload;
  let value = payload;
  for (const key of dotted.split('.')) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
  }
  return value;
}

/** The text parts of a tool result, joined, for an error message. */
function textOf(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  const texts = content.flatMap((part: unknown) => {
    const text = (part as { type?: unknown; text?: unknown } | null)?.text;
    return typeof text === 'string' ? [text] : [];
  });
  return texts.length === 0 ? undefined : texts.join(' ').slice(0, 500);
}
