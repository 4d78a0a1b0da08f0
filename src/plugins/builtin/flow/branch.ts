// BRANCH: one port per case, `default` when no case matches (CONTRACT section 2).
import {
  compileExpression,
  configuredPorts,
  definePlugin,
  isTruthy,
  namedExpressions,
  z,
} from '../../../plugin-api/index.js';

export const branchPlugin = definePlugin({
  type: 'BRANCH',
  kind: 'processor',
  pure: true,
  description:
    'Sends each message to the port of the first case whose expression is true, or to default.',
  configSchema: z.looseObject({
    cases: namedExpressions('case').describe(
      'Cases tried in order; each case name is an output port',
    ),
  }),
  outputPorts: (config) => ['out', ...configuredPorts(config.cases), 'default'],
  create: (config) => {
    const cases = config.cases.map(({ name, expression }) => ({
      port: name,
      predicate: compileExpression(expression),
    }));
    return {
      async process(message, ctx) {
        // First match wins: later cases are not evaluated.
        for (const { port, predicate } of cases) {
          if (isTruthy(await predicate.evaluate(message.payload, message, ctx))) {
            return { payload: message.payload, port };
          }
        }
        return { payload: message.payload, port: 'default' };
      },
    };
  },
});
