// NOTIFY_TERMINAL: records each message as a result event, optionally POSTing it to a webhook.
// The engine records the result; this plugin only adds the webhook.
import {
  definePlugin,
  describeFetchError as describe,
  httpUrl,
  StepFailure,
  z,
} from '../../../plugin-api/index.js';
import type { Message, NodeContext } from '../../../plugin-api/index.js';

export const notifyTerminalPlugin = definePlugin({
  type: 'NOTIFY_TERMINAL',
  kind: 'terminal',
  description:
    'Records each message as a result event on the event stream, and optionally POSTs it to a webhook.',
  configSchema: z.looseObject({
    webhookUrl: httpUrl().optional().describe('http(s) URL each message is POSTed to'),
  }),
  outputPorts: () => ['out'],
  create: ({ webhookUrl }) => ({
    // Without a webhook nothing is awaited, so the message takes the engine's fast path.
    process:
      webhookUrl === undefined
        ? (message) => ({ payload: message.payload })
        : async (message, ctx) => {
            await notify(webhookUrl, message, ctx);
            return { payload: message.payload };
          },
  }),
});

/**
 * POSTs one message. Delivery is at-least-once (retries, resumes), so the stable message id
 * goes along as `Idempotency-Key` for the receiver to drop repeats. The URL stays out of
 * error messages: webhook URLs often carry a secret.
 */
async function notify(url: string, message: Message, ctx: NodeContext): Promise<void> {
  const { executionId, nodeId, signal } = ctx;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': message.id },
      body: JSON.stringify({
        executionId,
        nodeId,
        messageId: message.id,
        payload: message.payload,
      }),
      signal,
    });
    // Read to the end so the connection can be reused; the answer's content is not used.
    await response.arrayBuffer();
  } catch (error) {
    throw StepFailure.retryable(`Webhook POST failed: ${describe(error)}`, error);
  }
  if (!response.ok) {
    throw StepFailure.retryable(
      `Webhook answered HTTP ${response.status} ${response.statusText}`.trimEnd(),
    );
  }
}
