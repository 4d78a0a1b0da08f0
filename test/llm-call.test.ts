// LLM_CALL through a real server against a local OpenAI-compatible endpoint: the key comes
// from a secret, the answer reaches the terminal, tokens are counted in llm.tokens, and
// svc.llm.deny-input-patterns refuses a prompt as bad input (SPEC Workflow-author safeguards,
// SPEC Meters).
import type { IncomingHttpHeaders, Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { closeServer, listenOnLoopback } from '../src/plugins/testing/index.js';
import { startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';
import { eventually } from './support/wait.js';

let model: Server | undefined;
let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
  await closeServer(model);
  model = undefined;
});

async function startModel(): Promise<{ baseUrl: string; headers: IncomingHttpHeaders[] }> {
  const headers: IncomingHttpHeaders[] = [];
  const listening = await listenOnLoopback((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      headers.push(request.headers);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        messages: { content: string }[];
      };
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          choices: [
            {
              finish_reason: 'stop',
              message: { content: body.messages.at(-1)?.content.toUpperCase() },
            },
          ],
          usage: { prompt_tokens: 9, completion_tokens: 2 },
        }),
      );
    });
  });
  model = listening.server;
  return { baseUrl: listening.origin, headers };
}

async function run(running: TestServer, baseUrl: string, payload: unknown) {
  await running.call('POST', '/api/sessions', {
    body: { sessionId: 's', name: 's', initiator: 'i' },
  });
  const saved = await running.call('PUT', '/api/sessions/s/workflows/ask', {
    body: {
      workflowId: 'ask',
      description: 'asks a model',
      nodes: [
        { nodeId: 'in', type: 'API_TRIGGER' },
        {
          nodeId: 'llm',
          type: 'LLM_CALL',
          config: {
            provider: 'local',
            baseUrl,
            model: 'tiny',
            apiKey: 'decrypted:model.key',
            prompt: 'say {{word}}',
          },
        },
        { nodeId: 'out', type: 'NOTIFY_TERMINAL' },
      ],
      edges: [
        { source: 'in', target: 'llm' },
        { source: 'llm', target: 'out' },
      ],
    },
  });
  expect(saved.status, saved.text).toBeLessThan(300);
  const start = await running.call('POST', '/api/workflow/start', {
    body: { sessionId: 's', workflowId: 'ask', payload },
  });
  const id = start.json.data.executionId as string;
  const ended = await eventually(
    () => running.call('GET', `/api/executions/${id}`),
    (answer) => !['QUEUED', 'RUNNING'].includes(answer.json.data.status as string),
  );
  return {
    id,
    record: ended.json.data as {
      status: string;
      nodes: Record<string, { status: string; retries: number; error: string | null }>;
    },
  };
}

describe('LLM_CALL in a workflow', () => {
  it('calls the model with the key of a secret, delivers the answer and counts tokens in llm.tokens', async () => {
    const { baseUrl, headers } = await startModel();
    server = await startTestServer({ env: { SVC_SECRET_MODEL_KEY: 'sk-test' } });
    const { id, record } = await run(server, baseUrl, { word: 'hello' });
    expect(record.status).toBe('COMPLETED');
    expect(headers[0]?.authorization).toBe('Bearer sk-test');
    const results = await server.call('GET', `/api/executions/${id}/results`);
    expect(results.json.data[0].payload).toMatchObject({ text: 'SAY HELLO', model: 'tiny' });
    const tokens = await server.call(
      'GET',
      '/actuator/metrics/llm.tokens?tag=provider:local&tag=direction:input',
    );
    expect(tokens.json.measurements).toEqual([{ statistic: 'COUNT', value: 9 }]);
  });

  it('fails the node without retry and without a call when the prompt matches svc.llm.deny-input-patterns', async () => {
    const { baseUrl, headers } = await startModel();
    server = await startTestServer({
      env: { SVC_SECRET_MODEL_KEY: 'sk-test', SVC_LLM_DENY_INPUT_PATTERNS: 'secret' },
    });
    const { record } = await run(server, baseUrl, { word: 'the secret plan' });
    expect(record.status).toBe('FAILED');
    expect(record.nodes.llm?.status).toBe('FAILURE');
    expect(record.nodes.llm?.retries).toBe(0);
    expect(record.nodes.llm?.error).toContain(
      'LLM_CALL prompt matches svc.llm.deny-input-patterns[0]',
    );
    expect(headers).toEqual([]);
  });
});
