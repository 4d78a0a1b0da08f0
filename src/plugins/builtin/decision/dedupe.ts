// DEDUPE (optional plugin decision): drops messages whose key was seen recently.
import { definePlugin, z } from '../../../plugin-api/index.js';
import { jsonataExpression, positiveInt } from '../schemas.js';

export const dedupePlugin = definePlugin({
  type: 'DEDUPE',
  kind: 'processor',
  description:
    'Passes a message only when its key was not seen before, or not within ttlMs when set.',
  configSchema: z.looseObject({
    key: jsonataExpression().optional().describe('JSONata yielding the key of a message'),
    ttlMs: positiveInt().optional().describe('How long a key is remembered'),
  }),
  outputPorts: () => ['out'],
});
