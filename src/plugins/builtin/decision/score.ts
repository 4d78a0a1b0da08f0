// SCORE (optional plugin decision): attaches a numeric score to each message.
import {
  compileExpression,
  definePlugin,
  jsonataExpression,
  StepFailure,
  z,
} from '../../../plugin-api/index.js';
import { jsonOf, withDecision } from './decision-output.js';

export const scorePlugin = definePlugin({
  type: 'SCORE',
  kind: 'processor',
  pure: true,
  description:
    'Computes a score for each message with a JSONata expression and adds it to the payload as score.',
  configSchema: z.looseObject({
    expression: jsonataExpression().describe('JSONata yielding the score of the payload'),
  }),
  outputPorts: () => ['out'],
  create: (config) => {
    const expression = compileExpression(config.expression);
    return {
      async process(message, ctx) {
        const score = await expression.evaluate(message.payload, message, ctx);
        if (typeof score !== 'number' || !Number.isFinite(score)) {
          // The same payload gives the same value again: not retried.
          throw StepFailure.nonRetryable(
            `SCORE expression '${expression.text}' gave ${jsonOf(score) ?? 'nothing'}, not a number`,
          );
        }
        return { payload: withDecision(message.payload, { score }) };
      },
    };
  },
});
