// CLASSIFY (optional plugin decision): one port per class, `default` when none matches.
import {
  compileExpression,
  configuredPorts,
  definePlugin,
  isTruthy,
  namedExpressions,
  z,
} from '../../../plugin-api/index.js';
import { withDecision } from './decision-output.js';

export const classifyPlugin = definePlugin({
  type: 'CLASSIFY',
  kind: 'processor',
  pure: true,
  description:
    'Labels each message with the first class whose expression is true (payload member class) and sends it to that port, or to default.',
  configSchema: z.looseObject({
    classes: namedExpressions('class').describe(
      'Classes tried in order; each class name is an output port',
    ),
  }),
  outputPorts: (config) => ['out', ...configuredPorts(config.classes), 'default'],
  create: (config) => {
    const classes = config.classes.map(({ name, expression }) => ({
      name,
      predicate: compileExpression(expression),
    }));
    return {
      async process(message, ctx) {
        // First match wins: later classes are not evaluated.
        for (const { name, predicate } of classes) {
          if (isTruthy(await predicate.evaluate(message.payload, message, ctx))) {
            return { payload: withDecision(message.payload, { class: name }), port: name };
          }
        }
        return { payload: withDecision(message.payload, { class: 'default' }), port: 'default' };
      },
    };
  },
});
