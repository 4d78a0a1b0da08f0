// CONTENT_FILTER: keeps only part of each payload, by field list or projection.
import { definePlugin, z } from '../../../plugin-api/index.js';
import { jsonataExpression, requireOneOf } from '../schemas.js';

export const contentFilterPlugin = definePlugin({
  type: 'CONTENT_FILTER',
  kind: 'processor',
  description:
    'Keeps only the listed top-level fields of each payload, or what the expression yields.',
  configSchema: z
    .looseObject({
      fields: z.array(z.string().min(1)).optional().describe('Payload fields to keep'),
      expression: jsonataExpression().optional().describe('JSONata yielding the filtered payload'),
    })
    .superRefine((config, ctx) => {
      requireOneOf(
        config,
        ['fields', 'expression'],
        ctx,
        'CONTENT_FILTER needs fields or expression',
      );
    }),
  outputPorts: () => ['out'],
});
