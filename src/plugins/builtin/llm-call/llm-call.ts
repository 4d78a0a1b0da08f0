// LLM_CALL (optional plugin llm-call): one model call per message, under the server's
// input and output filters (SPEC Workflow-author safeguards).
import { definePlugin, z } from '../../../plugin-api/index.js';
import { positiveInt } from '../schemas.js';

export const llmCallPlugin = definePlugin({
  type: 'LLM_CALL',
  kind: 'processor',
  description: 'Sends a prompt built from each message to a language model and emits the answer.',
  configSchema: z.looseObject({
    provider: z.string().min(1).describe('Model provider name'),
    model: z.string().min(1).optional().describe('Model name'),
    prompt: z.string().optional().describe('Prompt text'),
    system: z.string().optional().describe('System instruction'),
    maxTokens: positiveInt().optional().describe('Most tokens in the answer'),
  }),
  outputPorts: () => ['out'],
  defaultTimeoutSeconds: 30,
});
