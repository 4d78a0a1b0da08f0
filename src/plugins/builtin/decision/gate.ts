// GATE (optional plugin decision): pass or block each message (CONTRACT section 2 ports).
import {
  compileExpression,
  definePlugin,
  isTruthy,
  jsonataExpression,
  z,
} from '../../../plugin-api/index.js';

export const gatePlugin = definePlugin({
  type: 'GATE',
  kind: 'processor',
  pure: true,
  description: 'Sends each message to pass when the expression is true, to block otherwise.',
  configSchema: z.looseObject({
    expression: jsonataExpression().describe('JSONata predicate over the payload'),
  }),
  outputPorts: () => ['out', 'pass', 'block'],
  create: (config) => {
    const predicate = compileExpression(config.expression);
    return {
      async process(message, ctx) {
        const open = isTruthy(await predicate.evaluate(message.payload, message, ctx));
        return { payload: message.payload, port: open ? 'pass' : 'block' };
      },
    };
  },
});
