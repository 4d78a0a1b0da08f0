import type { IncomingHttpHeaders, Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { MessageProcessor } from '../../../plugin-api/index.js';
import { StepFailure } from '../../../plugin-api/index.js';
import {
  closeServer,
  createTestContext,
  listenForBodies,
  message,
  processAll,
} from '../../testing/index.js';
import { notifyTerminalPlugin } from './notify-terminal.js';

interface Received {
  readonly method: string | undefined;
  readonly headers: IncomingHttpHeaders;
  readonly body: unknown;
}

let server: Server | undefined;

/** A webhook receiver on a free local port answering every request with `status`. */
async function startWebhook(status: number): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const listening = await listenForBodies((request, response) => {
    received.push({
      method: request.method,
      headers: request.headers,
      body: JSON.parse(request.body),
    });
    response.statusCode = status;
    response.end('answer');
  });
  server = listening.server;
  return { url: `${listening.origin}/hook`, received };
}

afterEach(async () => {
  await closeServer(server);
  server = undefined;
});

function runtimeOf(config: unknown): MessageProcessor {
  return notifyTerminalPlugin.create!(notifyTerminalPlugin.configSchema.parse(config), {
    nodeId: 'n',
    settings: undefined,
  }) as MessageProcessor;
}

describe('NOTIFY_TERMINAL', () => {
  it('passes each message on unchanged on out, without waiting, when no webhook is set', () => {
    const payload = { done: true };
    const result = runtimeOf({}).process(message(payload), createTestContext());
    expect(result).toEqual({ payload });
  });

  it('POSTs the execution, node, message id and payload as JSON to the webhook (CONTRACT 1: NOTIFY_TERMINAL)', async () => {
    const { url, received } = await startWebhook(204);
    const input = message({ order: 7 });
    const ctx = createTestContext({ nodeId: 'notify' });
    expect(await processAll(runtimeOf({ webhookUrl: url }), [input], ctx)).toEqual([
      { payload: { order: 7 } },
    ]);
    expect(received).toEqual([
      {
        method: 'POST',
        headers: expect.objectContaining({
          'content-type': 'application/json',
          'idempotency-key': input.id,
        }),
        body: {
          executionId: 'exec-1',
          nodeId: 'notify',
          messageId: input.id,
          payload: { order: 7 },
        },
      },
    ]);
  });

  it('fails the message as retryable, naming the status, when the webhook answers 500', async () => {
    const { url } = await startWebhook(500);
    const failing = processAll(runtimeOf({ webhookUrl: url }), [message({})]);
    await expect(failing).rejects.toThrow('Webhook answered HTTP 500 Internal Server Error');
    await expect(failing).rejects.toBeInstanceOf(StepFailure);
    await expect(failing).rejects.toHaveProperty('retryable', true);
  });

  it('fails the message as retryable when the webhook cannot be reached', async () => {
    const { url } = await startWebhook(200);
    await new Promise((resolve) => server?.close(resolve));
    const failing = processAll(runtimeOf({ webhookUrl: url }), [message({})]);
    await expect(failing).rejects.toThrow(/^Webhook POST failed: fetch failed \(.*ECONNREFUSED/);
    await expect(failing).rejects.toHaveProperty('retryable', true);
  });
});
