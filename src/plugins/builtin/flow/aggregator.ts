// AGGREGATOR: groups messages by count or time into one message (CONTRACT section 2).
import { definePlugin, z } from '../../../plugin-api/index.js';
import { jsonataExpression, positiveInt, requireOneOf } from '../schemas.js';

export const aggregatorPlugin = definePlugin({
  type: 'AGGREGATOR',
  kind: 'processor',
  description:
    'Collects messages into an array, emitted when size messages arrived or timeoutMs passed.',
  configSchema: z
    .looseObject({
      size: positiveInt().optional().describe('Emit once this many messages are collected'),
      timeoutMs: positiveInt().optional().describe('Emit what was collected after this time'),
      expression: jsonataExpression()
        .optional()
        .describe('JSONata reduction applied to the collected array'),
    })
    .superRefine((config, ctx) => {
      requireOneOf(config, ['size', 'timeoutMs'], ctx, 'AGGREGATOR needs size, timeoutMs or both');
    }),
  outputPorts: () => ['out'],
});
