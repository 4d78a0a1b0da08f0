// SPLITTER: one message per item of an array (CONTRACT section 2).
import {
  compileExpression,
  definePlugin,
  jsonataExpression,
  z,
} from '../../../plugin-api/index.js';
import type { Emit } from '../../../plugin-api/index.js';

export const splitterPlugin = definePlugin({
  type: 'SPLITTER',
  kind: 'processor',
  description:
    'Emits one message per item of the array the expression yields (default: the payload).',
  configSchema: z.looseObject({
    expression: jsonataExpression()
      .optional()
      .describe('JSONata yielding the array to split; default: the payload itself'),
  }),
  outputPorts: () => ['out'],
  create: (config) => {
    if (config.expression === undefined) return { process: (message) => split(message.payload) };
    const expression = compileExpression(config.expression);
    return {
      async process(message, ctx) {
        return split(await expression.evaluate(message.payload, message, ctx));
      },
    };
  },
});

/** One emit per item; a value that is not an array is one item, undefined is none. */
function split(value: unknown): Emit[] {
  if (value === undefined) return [];
  const items = Array.isArray(value) ? (value as unknown[]) : [value];
  const count = items.length;
  return items.map((payload, index) => ({ payload, headers: { index, count } }));
}
