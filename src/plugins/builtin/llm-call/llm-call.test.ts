// LLM_CALL against local endpoints that speak the OpenAI Chat Completions and the Anthropic
// Messages APIs, with SPEC's filters: input patterns, prompt budget, output patterns, and the
// per-provider rate (SPEC Workflow-author safeguards), and the llm.* meters (SPEC Meters).
import type { IncomingHttpHeaders, Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
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
import { llmCallPlugin } from './llm-call.js';
import type { LlmCallSettings } from './llm-call.js';
import { LlmRateLimiter, RATE_WINDOW_MS } from './llm-rate-limiter.js';

let server: Server | undefined;

afterEach(async () => {
  await closeServer(server);
  server = undefined;
});

interface Received {
  readonly path: string | undefined;
  readonly headers: IncomingHttpHeaders;
  readonly body: Record<string, unknown>;
}

/** Answers like a model: the reply says what it was asked, or `answer` decides. */
async function startModel(
  answer?: (received: Received) => { status: number; body: unknown },
): Promise<{ baseUrl: string; received: Received[] }> {
  const received: Received[] = [];
  const listening = await listenForBodies((request, response) => {
    const entry = {
      path: request.url,
      headers: request.headers,
      body: JSON.parse(request.body) as Record<string, unknown>,
    };
    received.push(entry);
    const reply = answer?.(entry) ?? defaultReply(entry);
    response.statusCode = reply.status;
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(reply.body));
  });
  server = listening.server;
  return { baseUrl: listening.origin, received };
}

function defaultReply(received: Received): { status: number; body: unknown } {
  const messages = received.body.messages as { role: string; content: string }[];
  const asked = messages.at(-1)?.content ?? '';
  if (received.path === '/v1/messages') {
    return {
      status: 200,
      body: {
        model: received.body.model,
        stop_reason: 'end_turn',
        content: [{ type: 'text', text: `echo: ${asked}` }],
        usage: { input_tokens: 11, output_tokens: 3 },
      },
    };
  }
  return {
    status: 200,
    body: {
      model: received.body.model,
      choices: [
        { finish_reason: 'stop', message: { role: 'assistant', content: `echo: ${asked}` } },
      ],
      usage: { prompt_tokens: 12, completion_tokens: 4, cost: 0.002 },
    },
  };
}

function llm(
  config: Record<string, unknown>,
  safeguards: Partial<LlmCallSettings> = {},
): MessageProcessor {
  const parsed = llmCallPlugin.configSchema.parse(config);
  const defaults = setupOf(llmCallPlugin, {}, 'llm');
  const setup = { ...defaults, settings: { ...defaults.settings, ...safeguards } };
  return llmCallPlugin.create!(parsed, setup) as MessageProcessor;
}

describe('LLM_CALL', () => {
  it('sends the rendered prompt and system text to an OpenAI-compatible API and emits the answer, counting tokens and cost', async () => {
    const { baseUrl, received } = await startModel();
    const ctx = createTestContext();
    const [emit] = await processAll(
      llm({
        provider: 'local',
        baseUrl: `${baseUrl}/v1`,
        model: 'small',
        apiKey: 'k-123',
        system: 'Answer briefly.',
        prompt: 'Summarise {{title}}',
        maxTokens: 50,
      }),
      [message({ title: 'the report' })],
      ctx,
    );
    expect(received[0]?.path).toBe('/v1/chat/completions');
    expect(received[0]?.headers.authorization).toBe('Bearer k-123');
    expect(received[0]?.body).toEqual({
      model: 'small',
      max_tokens: 50,
      messages: [
        { role: 'system', content: 'Answer briefly.' },
        { role: 'user', content: 'Summarise the report' },
      ],
    });
    expect(emit?.payload).toEqual({
      text: 'echo: Summarise the report',
      model: 'small',
      finishReason: 'stop',
      toolCalls: [],
      usage: { inputTokens: 12, outputTokens: 4 },
      cost: 0.002,
    });
    expect(ctx.meterCalls).toEqual([
      {
        kind: 'count',
        name: 'llm.tokens',
        value: 12,
        tags: { provider: 'local', direction: 'input' },
      },
      {
        kind: 'count',
        name: 'llm.tokens',
        value: 4,
        tags: { provider: 'local', direction: 'output' },
      },
      { kind: 'count', name: 'llm.cost', value: 0.002, tags: { provider: 'local' } },
    ]);
    expect(ctx.reports).toEqual(['llm.call:completed']);
  });

  it('speaks the Anthropic Messages API for provider anthropic, with the payload as the prompt by default', async () => {
    const { baseUrl, received } = await startModel();
    const [emit] = await processAll(
      llm({ provider: 'anthropic', baseUrl, model: 'claude', apiKey: 'a-1', system: 'Be terse.' }),
      [message({ q: 1 })],
    );
    expect(received[0]?.path).toBe('/v1/messages');
    expect(received[0]?.headers['x-api-key']).toBe('a-1');
    expect(received[0]?.headers['anthropic-version']).toBe('2023-06-01');
    expect(received[0]?.body).toEqual({
      model: 'claude',
      max_tokens: 1024,
      system: 'Be terse.',
      messages: [{ role: 'user', content: '{"q":1}' }],
    });
    expect(emit?.payload).toMatchObject({
      text: 'echo: {"q":1}',
      finishReason: 'end_turn',
      usage: { inputTokens: 11, outputTokens: 3 },
      cost: null,
    });
  });

  it('refuses a prompt matching svc.llm.deny-input-patterns as bad input, without calling the model', async () => {
    const { baseUrl, received } = await startModel();
    const ctx = createTestContext();
    const failing = processAll(
      llm(
        { provider: 'local', baseUrl, model: 'm', prompt: 'card {{card}}' },
        { llmDenyInputPatterns: [/password/i, /\d{4}-\d{4}-\d{4}-\d{4}/] },
      ),
      [message({ card: '4111-1111-1111-1111' })],
      ctx,
    );
    await expect(failing).rejects.toThrow('LLM_CALL prompt matches svc.llm.deny-input-patterns[1]');
    await expect(failing).rejects.toHaveProperty('retryable', false);
    expect(received).toEqual([]);
    expect(ctx.reports).toEqual(['llm.call:refused']);
  });

  it('refuses a prompt over svc.llm.max-input-chars and counts llm.budget.exceeded; 0 means no limit', async () => {
    const { baseUrl, received } = await startModel();
    const ctx = createTestContext();
    const failing = processAll(
      llm({ provider: 'local', baseUrl, model: 'm', system: 'abc' }, { llmMaxInputChars: 10 }),
      [message('12345678')],
      ctx,
    );
    await expect(failing).rejects.toThrow(
      'LLM_CALL prompt has 11 characters, over svc.llm.max-input-chars (10)',
    );
    await expect(failing).rejects.toHaveProperty('retryable', false);
    expect(ctx.reports).toEqual(['llm.budget.exceeded:refused', 'llm.call:refused']);
    expect(received).toEqual([]);
    await processAll(llm({ provider: 'local', baseUrl, model: 'm' }, { llmMaxInputChars: 0 }), [
      message('x'.repeat(100_000)),
    ]);
    expect(received).toHaveLength(1);
  });

  it('refuses an answer or tool-call arguments matching svc.llm.deny-output-patterns, still counting the tokens', async () => {
    const { baseUrl } = await startModel(() => ({
      status: 200,
      body: {
        choices: [
          {
            finish_reason: 'tool_calls',
            message: {
              content: 'calling a tool',
              tool_calls: [{ function: { name: 'shell', arguments: '{"cmd":"rm -rf /"}' } }],
            },
          },
        ],
        usage: { prompt_tokens: 5, completion_tokens: 7 },
      },
    }));
    const ctx = createTestContext();
    const failing = processAll(
      llm(
        {
          provider: 'local',
          baseUrl,
          model: 'm',
          tools: [{ name: 'shell', inputSchema: { type: 'object' } }],
        },
        { llmDenyOutputPatterns: [/rm -rf/] },
      ),
      [message('clean up')],
      ctx,
    );
    await expect(failing).rejects.toThrow('LLM answer matches svc.llm.deny-output-patterns[0]');
    await expect(failing).rejects.toHaveProperty('retryable', false);
    expect(ctx.meterCalls.map((call) => call.name)).toEqual(['llm.tokens', 'llm.tokens']);
    // Without the filter the tool call comes out parsed.
    const [emit] = await processAll(llm({ provider: 'local', baseUrl, model: 'm' }), [
      message('clean up'),
    ]);
    expect(emit?.payload).toMatchObject({
      toolCalls: [{ name: 'shell', arguments: { cmd: 'rm -rf /' } }],
    });
  });

  it('retries throttling and server errors, not other refusals, and names the provider error', async () => {
    let status = 429;
    const { baseUrl } = await startModel(() => ({
      status,
      body: { error: { message: 'slow down' } },
    }));
    const call = () => processAll(llm({ provider: 'local', baseUrl, model: 'm' }), [message('x')]);
    await expect(call()).rejects.toThrow("LLM_CALL to 'local' answered HTTP 429: slow down");
    await expect(call()).rejects.toHaveProperty('retryable', true);
    status = 401;
    await expect(call()).rejects.toThrow("LLM_CALL to 'local' answered HTTP 401: slow down");
    await expect(call()).rejects.toHaveProperty('retryable', false);
    const unreachable = processAll(
      llm({ provider: 'local', baseUrl: 'http://127.0.0.1:1', model: 'm' }),
      [message('x')],
    );
    await expect(unreachable).rejects.toBeInstanceOf(StepFailure);
    await expect(unreachable).rejects.toHaveProperty('retryable', true);
  });

  it('fails without retry when a model or, for other providers, a baseUrl is missing', async () => {
    await expect(processAll(llm({ provider: 'openai' }), [message('x')])).rejects.toThrow(
      "LLM_CALL needs 'model'",
    );
    await expect(
      processAll(llm({ provider: 'local', model: 'm' }), [message('x')]),
    ).rejects.toThrow("LLM_CALL provider 'local' needs 'baseUrl'");
  });

  it('waits for svc.llm.rate-limit.<provider> before calling', async () => {
    const { baseUrl, received } = await startModel();
    let now = 1_000_000;
    const limiter = new LlmRateLimiter({ local: 2 }, () => now);
    const ctx = createTestContext({ instantSleep: false });
    const node = llm({ provider: 'local', baseUrl, model: 'm' }, { llmRequests: limiter });
    await processAll(node, [message('a'), message('b')], ctx);
    expect(received).toHaveLength(2);
    const third = processAll(node, [message('c')], ctx);
    await waitUntil(() => ctx.sleeps.length > 0, 'the call to wait for the rate limit');
    expect(received).toHaveLength(2);
    expect(ctx.sleeps).toEqual([RATE_WINDOW_MS]);
    now += RATE_WINDOW_MS;
    await ctx.advance(RATE_WINDOW_MS);
    await third;
    expect(received).toHaveLength(3);
  });
});

describe('LlmRateLimiter', () => {
  it('lets as many requests per minute as the provider allows, and any number to a provider without a limit', async () => {
    let now = 0;
    const waits: number[] = [];
    const limiter = new LlmRateLimiter({ slow: 3 }, () => now);
    const sleep = (ms: number): Promise<void> => {
      waits.push(ms);
      now += ms;
      return Promise.resolve();
    };
    for (let i = 0; i < 3; i++) await limiter.acquire('slow', sleep);
    now = 10_000;
    await limiter.acquire('slow', sleep);
    expect(waits).toEqual([50_000]);
    for (let i = 0; i < 100; i++) await limiter.acquire('fast', sleep);
    expect(waits).toHaveLength(1);
  });
});
