// The wire protocols LLM_CALL speaks: Anthropic's Messages API for `anthropic`, and the
// OpenAI Chat Completions API for `openai` and every other provider name (Ollama, vLLM,
// LiteLLM, OpenRouter and most gateways speak it; they need a `baseUrl`).

export interface LlmTool {
  readonly name: string;
  readonly description?: string | undefined;
  /** JSON Schema of the tool's arguments. */
  readonly inputSchema: Readonly<Record<string, unknown>>;
}

export interface LlmRequest {
  readonly model: string;
  readonly system: string | undefined;
  readonly prompt: string;
  readonly maxTokens: number | undefined;
  readonly temperature: number | undefined;
  readonly tools: readonly LlmTool[] | undefined;
}

export interface LlmToolCall {
  readonly name: string;
  /** Parsed arguments; the text itself when it is not JSON. */
  readonly arguments: unknown;
}

/** The emitted payload. */
export interface LlmAnswer {
  readonly text: string;
  readonly model: string;
  readonly finishReason: string | null;
  readonly toolCalls: readonly LlmToolCall[];
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number };
  /** Cost of the call when the provider reports it (OpenRouter and LiteLLM do), else null. */
  readonly cost: number | null;
}

export interface HttpCall {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: unknown;
}

export interface LlmProtocol {
  /** The base URL used when the node sets none; undefined: the node must set one. */
  readonly defaultBaseUrl: string | undefined;
  request(baseUrl: string, apiKey: string | undefined, request: LlmRequest): HttpCall;
  /** The answer in a provider's response body; undefined when the body is not one. */
  answer(body: unknown, model: string): LlmAnswer | undefined;
}

/** Anthropic requires `max_tokens`; this is used when the node sets none. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 1024;
const ANTHROPIC_VERSION = '2023-06-01';

export function protocolOf(provider: string): LlmProtocol {
  return provider === 'anthropic'
    ? ANTHROPIC
    : provider === 'openai'
      ? { ...CHAT_COMPLETIONS, defaultBaseUrl: 'https://api.openai.com/v1' }
      : CHAT_COMPLETIONS;
}

function joinUrl(baseUrl: string, path: string): string {
  return baseUrl.replace(/\/+$/, '') + path;
}

const CHAT_COMPLETIONS: LlmProtocol = {
  defaultBaseUrl: undefined,
  request(baseUrl, apiKey, request) {
    const messages: { role: string; content: string }[] = [];
    if (request.system !== undefined) messages.push({ role: 'system', content: request.system });
    messages.push({ role: 'user', content: request.prompt });
    return {
      url: joinUrl(baseUrl, '/chat/completions'),
      headers: apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` },
      body: {
        model: request.model,
        messages,
        ...(request.maxTokens === undefined ? {} : { max_tokens: request.maxTokens }),
        ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
        ...(request.tools === undefined
          ? {}
          : {
              tools: request.tools.map((tool) => ({
                type: 'function',
                function: {
                  name: tool.name,
                  ...(tool.description === undefined ? {} : { description: tool.description }),
                  parameters: tool.inputSchema,
                },
              })),
            }),
      },
    };
  },
  answer(body, model) {
    const response = record(body);
    const choice = record(array(response?.choices)?.[0]);
    const message = record(choice?.message);
    if (message === undefined) return undefined;
    const usage = record(response?.usage);
    const toolCalls = (array(message.tool_calls) ?? []).flatMap((call) => {
      const fn = record(record(call)?.function);
      return typeof fn?.name === 'string'
        ? [{ name: fn.name, arguments: parsed(fn.arguments) }]
        : [];
    });
    return {
      text: typeof message.content === 'string' ? message.content : '',
      model: typeof response?.model === 'string' ? response.model : model,
      finishReason: typeof choice?.finish_reason === 'string' ? choice.finish_reason : null,
      toolCalls,
      usage: {
        inputTokens: count(usage?.prompt_tokens),
        outputTokens: count(usage?.completion_tokens),
      },
      cost: typeof usage?.cost === 'number' ? usage.cost : null,
    };
  },
};

const ANTHROPIC: LlmProtocol = {
  defaultBaseUrl: 'https://api.anthropic.com',
  request(baseUrl, apiKey, request) {
    return {
      url: joinUrl(baseUrl, '/v1/messages'),
      headers: {
        'anthropic-version': ANTHROPIC_VERSION,
        ...(apiKey === undefined ? {} : { 'x-api-key': apiKey }),
      },
      body: {
        model: request.model,
        max_tokens: request.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
        ...(request.system === undefined ? {} : { system: request.system }),
        messages: [{ role: 'user', content: request.prompt }],
        ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
        ...(request.tools === undefined
          ? {}
          : {
              tools: request.tools.map((tool) => ({
                name: tool.name,
                ...(tool.description === undefined ? {} : { description: tool.description }),
                input_schema: tool.inputSchema,
              })),
            }),
      },
    };
  },
  answer(body, model) {
    const response = record(body);
    const blocks = array(response?.content);
    if (blocks === undefined) return undefined;
    const usage = record(response?.usage);
    const texts: string[] = [];
    const toolCalls: LlmToolCall[] = [];
    for (const block of blocks.map(record)) {
      if (block?.type === 'text' && typeof block.text === 'string') texts.push(block.text);
      if (block?.type === 'tool_use' && typeof block.name === 'string') {
        toolCalls.push({ name: block.name, arguments: block.input ?? null });
      }
    }
    return {
      text: texts.join(''),
      model: typeof response?.model === 'string' ? response.model : model,
      finishReason: typeof response?.stop_reason === 'string' ? response.stop_reason : null,
      toolCalls,
      usage: {
        inputTokens: count(usage?.input_tokens),
        outputTokens: count(usage?.output_tokens),
      },
      cost: null,
    };
  },
};

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function array(value: unknown): readonly unknown[] | undefined {
  return Array.isArray(value) ? (value as unknown[]) : undefined;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}

function parsed(text: unknown): unknown {
  if (typeof text !== 'string') return text ?? null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
