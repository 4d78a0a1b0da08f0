// ANOMALY (optional plugin decision): flags values far from what the stream has seen.
import { definePlugin, z } from '../../../plugin-api/index.js';
import { jsonataExpression, requireOneOf } from '../schemas.js';

export const anomalyPlugin = definePlugin({
  type: 'ANOMALY',
  kind: 'processor',
  description: 'Flags messages whose value deviates from the stream by more than the threshold.',
  configSchema: z
    .looseObject({
      field: z.string().min(1).optional().describe('Payload field holding the value'),
      expression: jsonataExpression().optional().describe('JSONata yielding the value'),
      threshold: z.number().optional().describe('Deviation above which a value is an anomaly'),
    })
    .superRefine((config, ctx) => {
      requireOneOf(config, ['field', 'expression'], ctx, 'ANOMALY needs field or expression');
    }),
  outputPorts: () => ['out'],
});
