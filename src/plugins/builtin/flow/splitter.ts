// SPLITTER: one message per item of an array (CONTRACT section 2).
import { definePlugin, z } from '../../../plugin-api/index.js';
import { jsonataExpression } from '../schemas.js';

export const splitterPlugin = definePlugin({
  type: 'SPLITTER',
  kind: 'processor',
  description:
    'Emits one message per item of the array the expression yields (default: the payload).',
  configSchema: z.looseObject({
    expression: jsonataExpression()
      .optional()
      .describe('JSONata yielding the array to split; default: the payload itself'),
  }),
  outputPorts: () => ['out'],
});
