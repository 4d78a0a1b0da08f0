// WEBHOOK_TRIGGER (optional plugin webhook): a saved workflow with it answers
// `POST /api/hooks/{sessionId}/{workflowId}`, and the call's JSON body is the run's first
// message. The call itself (secret, signature, waiting for the answer) is the hook service's;
// in the run the node emits the start payload, as API_TRIGGER does, so a hook run and a start
// over the API run alike.
import { definePlugin, z } from '../../../plugin-api/index.js';
import { emitEach } from './constant-source.js';

export const WEBHOOK_TRIGGER = 'WEBHOOK_TRIGGER';

export const HOOK_RESPONSES = ['async', 'sync'] as const;

/** How long a `sync` call waits for the run's first terminal message by default. */
export const DEFAULT_SYNC_SECONDS = 30;

export const webhookConfigSchema = z.looseObject({
  secret: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Shared secret: callers send it as X-Hook-Secret, or sign the body with it (X-Hook-Signature: sha256=<hex HMAC-SHA256>); best given as a secret (decrypted:name)',
    ),
  respond: z
    .enum(HOOK_RESPONSES)
    .optional()
    .describe(
      'async (default): answer 202 with the execution id at once; sync: answer 200 with the payload of the first terminal message',
    ),
  timeoutSeconds: z
    .number()
    .positive()
    .max(3600)
    .optional()
    .describe(
      `For respond sync: how long the call waits for the first terminal message (default ${DEFAULT_SYNC_SECONDS}); the run goes on after`,
    ),
});

export type WebhookConfig = z.output<typeof webhookConfigSchema>;

export const webhookTriggerPlugin = definePlugin({
  type: WEBHOOK_TRIGGER,
  kind: 'trigger',
  description:
    'Starts the workflow on POST /api/hooks/{sessionId}/{workflowId} and emits the JSON body as one message; optionally checks a shared secret or HMAC signature and answers with the first terminal message.',
  configSchema: webhookConfigSchema,
  outputPorts: () => ['out'],
  create: () => emitEach(({ startPayload = {} }) => [startPayload]),
});
