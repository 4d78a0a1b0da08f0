// ASK (optional plugin decision): puts a question about each message.
import { definePlugin, z } from '../../../plugin-api/index.js';
import { requireOneOf } from '../schemas.js';

export const askPlugin = definePlugin({
  type: 'ASK',
  kind: 'processor',
  description: 'Asks a question about each message and emits the answer.',
  configSchema: z
    .looseObject({
      question: z.string().min(1).optional().describe('The question to ask'),
      prompt: z.string().min(1).optional().describe('Another name for question'),
    })
    .superRefine((config, ctx) => {
      requireOneOf(config, ['question', 'prompt'], ctx, 'ASK needs question or prompt');
    }),
  outputPorts: () => ['out'],
});
