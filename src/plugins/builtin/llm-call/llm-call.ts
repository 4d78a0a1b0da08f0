// LLM_CALL (optional plugin llm-call): one model call per message, under the server's input
// and output filters, prompt budget and per-provider rate (SPEC Workflow-author safeguards):
// a refused call fails as bad input and is not retried.
import {
  serverAttributes,
  compileTemplate,
  definePlugin,
  describeFetchError,
  handlebarsTemplate,
  httpUrl,
  pluginSettings,
  positiveInt,
  StepFailure,
  z,
} from '../../../plugin-api/index.js';
import type {
  CallSpan,
  Emit,
  Message,
  MessageProcessor,
  NodeContext,
  OutgoingCall,
} from '../../../plugin-api/index.js';
import { protocolOf } from './llm-providers.js';
import { LlmRateLimiter } from './llm-rate-limiter.js';
import type { LlmAnswer, LlmProtocol, LlmRequest } from './llm-providers.js';

/** The `plugin` tag of `svc.plugin.events` for calls. */
export const CALL_EVENT = 'llm.call';
/** The `plugin` tag of `svc.plugin.events` for calls refused over the prompt budget. */
export const BUDGET_EVENT = 'llm.budget.exceeded';
/** Provider answers a later attempt may get past: timeouts, throttling, overload. */
const RETRYABLE_STATUS = new Set([408, 409, 425, 429, 500, 502, 503, 504, 529]);
/** Most characters of a provider's error text kept in a failure message. */
const MAX_REASON_CHARS = 300;

const configSchema = z.looseObject({
  provider: z
    .string()
    .min(1)
    .describe(
      'Model provider: anthropic, openai, or any name for an OpenAI-compatible API at baseUrl',
    ),
  model: z.string().min(1).optional().describe('Model name'),
  prompt: handlebarsTemplate()
    .optional()
    .describe('Prompt: a Handlebars template of the payload; default: the payload as text'),
  system: handlebarsTemplate().optional().describe('System instruction, a Handlebars template'),
  maxTokens: positiveInt().optional().describe('Most tokens in the answer'),
  baseUrl: httpUrl()
    .optional()
    .describe('API base URL; default: the provider’s own (needed for other providers)'),
  apiKey: z.string().min(1).optional().describe('API key, best given as a secret (decrypted:name)'),
  temperature: z.number().min(0).max(2).optional().describe('Sampling temperature'),
  tools: z
    .array(
      z.looseObject({
        name: z.string().min(1),
        description: z.string().optional(),
        inputSchema: z.record(z.string(), z.unknown()),
      }),
    )
    .optional()
    .describe('Tools the model may call: { name, description, inputSchema }, as MCP lists them'),
});

type LlmCallConfig = z.output<typeof configSchema>;

/**
 * The safeguards of the type, made once per server: the filters compiled, and one rate limiter
 * that every LLM_CALL node of the server shares.
 */
const settings = pluginSettings(
  [
    'svc.llm.deny-input-patterns',
    'svc.llm.deny-output-patterns',
    'svc.llm.max-input-chars',
    'svc.llm.rate-limit.*',
  ],
  (values) => ({
    llmDenyInputPatterns: values['svc.llm.deny-input-patterns'].map((text) => new RegExp(text)),
    llmDenyOutputPatterns: values['svc.llm.deny-output-patterns'].map((text) => new RegExp(text)),
    llmMaxInputChars: values['svc.llm.max-input-chars'],
    llmRequests: new LlmRateLimiter(values['svc.llm.rate-limit.*']),
  }),
);

export type LlmCallSettings = ReturnType<typeof settings.make>;

export const llmCallPlugin = definePlugin({
  type: 'LLM_CALL',
  kind: 'processor',
  description:
    'Sends a prompt built from each message to a language model and emits { text, model, finishReason, toolCalls, usage, cost }.',
  configSchema,
  outputPorts: () => ['out'],
  defaultTimeoutSeconds: 30,
  settings,
  create: (config, setup) => new LlmCall(config, setup.settings),
});

class LlmCall implements MessageProcessor {
  readonly #config: LlmCallConfig;
  readonly #safeguards: LlmCallSettings;
  readonly #protocol: LlmProtocol;
  readonly #promptOf: (message: Message) => string;
  readonly #systemOf: ((message: Message) => string) | undefined;

  constructor(config: LlmCallConfig, safeguards: LlmCallSettings) {
    this.#config = config;
    this.#safeguards = safeguards;
    this.#protocol = protocolOf(config.provider);
    this.#promptOf = config.prompt === undefined ? payloadText : templateOf(config.prompt);
    this.#systemOf = config.system === undefined ? undefined : templateOf(config.system);
  }

  async process(message: Message, ctx: NodeContext): Promise<Emit> {
    const { provider } = this.#config;
    let outcome = 'failed';
    try {
      const prompt = this.#promptOf(message);
      const system = this.#systemOf?.(message);
      const refusal = this.#inputRefusal(prompt, system, ctx);
      if (refusal !== undefined) {
        outcome = 'refused';
        throw StepFailure.nonRetryable(refusal);
      }
      const { model } = this.#config;
      if (model === undefined) throw StepFailure.nonRetryable("LLM_CALL needs 'model'");
      const baseUrl = this.#config.baseUrl ?? this.#protocol.defaultBaseUrl;
      if (baseUrl === undefined) {
        throw StepFailure.nonRetryable(`LLM_CALL provider '${provider}' needs 'baseUrl'`);
      }
      await this.#safeguards.llmRequests.acquire(provider, (ms) => ctx.sleep(ms));
      const span = ctx.traceCall(outgoingCall(provider, model, baseUrl));
      let answer: LlmAnswer;
      try {
        answer = await this.#call(
          baseUrl,
          {
            model,
            system,
            prompt,
            maxTokens: this.#config.maxTokens,
            temperature: this.#config.temperature,
            tools: this.#config.tools,
          },
          ctx.signal,
          span,
        );
        span.set({
          'gen_ai.response.model': answer.model,
          'gen_ai.usage.input_tokens': answer.usage.inputTokens,
          'gen_ai.usage.output_tokens': answer.usage.outputTokens,
          ...(answer.finishReason === null
            ? {}
            : { 'gen_ai.response.finish_reasons': answer.finishReason }),
        });
        span.end();
      } catch (error) {
        span.end(error);
        throw error;
      }
      // Tokens are spent whether or not the answer passes the output filter.
      const { inputTokens, outputTokens } = answer.usage;
      ctx.meter.count('llm.tokens', { provider, direction: 'input' }, inputTokens);
      ctx.meter.count('llm.tokens', { provider, direction: 'output' }, outputTokens);
      if (answer.cost !== null) ctx.meter.count('llm.cost', { provider }, answer.cost);
      const denied = this.#outputRefusal(answer);
      if (denied !== undefined) {
        outcome = 'refused';
        throw StepFailure.nonRetryable(denied);
      }
      outcome = 'completed';
      return { payload: answer };
    } catch (error) {
      if (ctx.signal.aborted) outcome = 'stopped';
      throw error;
    } finally {
      ctx.report(CALL_EVENT, outcome);
    }
  }

  /** SPEC: the prompt budget and the input patterns; a call over the budget is counted. */
  #inputRefusal(prompt: string, system: string | undefined, ctx: NodeContext): string | undefined {
    const { llmMaxInputChars: max, llmDenyInputPatterns: denied } = this.#safeguards;
    const chars = prompt.length + (system?.length ?? 0);
    if (max > 0 && chars > max) {
      ctx.report(BUDGET_EVENT, 'refused');
      return `LLM_CALL prompt has ${chars} characters, over svc.llm.max-input-chars (${max})`;
    }
    const match = denied.findIndex(
      (pattern) => pattern.test(prompt) || (system !== undefined && pattern.test(system)),
    );
    return match === -1
      ? undefined
      : `LLM_CALL prompt matches svc.llm.deny-input-patterns[${match}]`;
  }

  /** SPEC: the answer and its tool-call arguments must not match the output patterns. */
  #outputRefusal(answer: LlmAnswer): string | undefined {
    const texts = [answer.text, ...answer.toolCalls.map((call) => JSON.stringify(call.arguments))];
    const match = this.#safeguards.llmDenyOutputPatterns.findIndex((pattern) =>
      texts.some((text) => pattern.test(text)),
    );
    return match === -1 ? undefined : `LLM answer matches svc.llm.deny-output-patterns[${match}]`;
  }

  /** One HTTP call; the URL and the key stay out of every message. */
  async #call(
    baseUrl: string,
    request: LlmRequest,
    signal: AbortSignal,
    span: CallSpan,
  ): Promise<LlmAnswer> {
    const { provider } = this.#config;
    const http = this.#protocol.request(baseUrl, this.#config.apiKey, request);
    let response: Response;
    try {
      response = await fetch(http.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...http.headers, ...span.headers },
        body: JSON.stringify(http.body),
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw error;
      throw StepFailure.retryable(
        `LLM_CALL to '${provider}' failed: ${describeFetchError(error)}`,
        error,
      );
    }
    span.set({ 'http.response.status_code': response.status });
    const text = await response.text();
    let body: unknown;
    try {
      body = text === '' ? null : JSON.parse(text);
    } catch {
      body = null;
    }
    if (!response.ok) {
      const reason = errorText(body) ?? response.statusText;
      const failure = `LLM_CALL to '${provider}' answered HTTP ${response.status}${reason === '' ? '' : `: ${reason}`}`;
      throw RETRYABLE_STATUS.has(response.status)
        ? StepFailure.retryable(failure)
        : StepFailure.nonRetryable(failure);
    }
    const answer = this.#protocol.answer(body, request.model);
    if (answer === undefined) {
      throw StepFailure.retryable(`LLM_CALL to '${provider}' got an answer it cannot read`);
    }
    return answer;
  }
}

/**
 * The client span of a model call (OpenTelemetry generative-AI conventions). Prompts and
 * answers stay out of it: they may hold what the workflow's author keeps out of logs.
 */
function outgoingCall(provider: string, model: string, baseUrl: string): OutgoingCall {
  const url = URL.parse(baseUrl);
  return {
    name: `chat ${model}`,
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': provider,
      'gen_ai.request.model': model,
      ...serverAttributes(url),
    },
  };
}

/** A string payload as it is, anything else as JSON. */
function payloadText(message: Message): string {
  const { payload } = message;
  if (typeof payload === 'string') return payload;
  return (JSON.stringify as (value: unknown) => string | undefined)(payload) ?? '';
}

/** A Handlebars template of the payload, with the message id as `@messageId`. */
function templateOf(text: string): (message: Message) => string {
  const template = compileTemplate(text, 'LLM_CALL template');
  return (message) => template.render(message.payload, { messageId: message.id });
}

/** The error text of a provider's error body (`{ error: { message } }` in both APIs). */
function errorText(body: unknown): string | undefined {
  const error = (body as { error?: unknown } | null)?.error;
  const message =
    typeof error === 'string' ? error : (error as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message.slice(0, MAX_REASON_CHARS) : undefined;
}
