// SCORE (optional plugin decision): attaches a numeric score to each message.
import { definePlugin, z } from '../../../plugin-api/index.js';
import { jsonataExpression } from '../schemas.js';

export const scorePlugin = definePlugin({
  type: 'SCORE',
  kind: 'processor',
  description: 'Computes a score for each message with a JSONata expression.',
  configSchema: z.looseObject({
    expression: jsonataExpression().describe('JSONata yielding the score of the payload'),
  }),
  outputPorts: () => ['out'],
});
