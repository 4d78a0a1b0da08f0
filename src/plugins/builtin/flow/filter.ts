// FILTER: routes each message by a JSONata predicate (CONTRACT section 2).
import {
  compileExpression,
  definePlugin,
  isTruthy,
  jsonataExpression,
  z,
} from '../../../plugin-api/index.js';

export const filterPlugin = definePlugin({
  type: 'FILTER',
  kind: 'processor',
  pure: true,
  description: 'Sends a message to out when the expression is true, to rejected otherwise.',
  configSchema: z.looseObject({
    expression: jsonataExpression().describe('JSONata predicate over the payload'),
  }),
  outputPorts: () => ['out', 'rejected'],
  create: (config) => {
    const predicate = compileExpression(config.expression);
    return {
      async process(message, ctx) {
        const truthy = isTruthy(await predicate.evaluate(message.payload, message, ctx));
        return { payload: message.payload, port: truthy ? 'out' : 'rejected' };
      },
    };
  },
});
