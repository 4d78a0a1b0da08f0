// LOOP_PREDICATE and LOOP_STREAM: apply a step while a condition holds; they share keys.
import { definePlugin, z } from '../../../plugin-api/index.js';
import { jsonataExpression, positiveInt } from '../schemas.js';

const loopConfig = z.looseObject({
  condition: jsonataExpression().describe('JSONata predicate; the loop goes on while it is true'),
  expression: jsonataExpression()
    .optional()
    .describe('JSONata step applied to the payload each iteration'),
  maxIterations: positiveInt().default(100).describe('Most iterations per message'),
});

export const loopPredicatePlugin = definePlugin({
  type: 'LOOP_PREDICATE',
  kind: 'processor',
  description:
    'Applies the step while the condition holds, then emits the final payload of each message.',
  configSchema: loopConfig,
  outputPorts: () => ['out'],
});

export const loopStreamPlugin = definePlugin({
  type: 'LOOP_STREAM',
  kind: 'processor',
  description:
    'Applies the step while the condition holds, emitting the payload of every iteration.',
  configSchema: loopConfig,
  outputPorts: () => ['out'],
});
