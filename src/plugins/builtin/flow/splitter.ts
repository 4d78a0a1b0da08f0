// SPLITTER: one message per item of an array (CONTRACT section 2).
import {
  compileExpression,
  definePlugin,
  jsonataExpression,
  z,
} from '../../../plugin-api/index.js';
import type { Emit, ProcessResult } from '../../../plugin-api/index.js';

export const splitterPlugin = definePlugin({
  type: 'SPLITTER',
  kind: 'processor',
  pure: true,
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

/**
 * Arrays up to this length are split at once: a stream costs a little more per item, and
 * envelopes of a short array are cheap to hold.
 */
const SPLIT_AT_ONCE = 64;

/**
 * One emit per item; a value that is not an array is one item, undefined is none. A longer
 * array is split lazily: the array itself is held, but each item's message is made only when
 * the engine asks for it, so a split of millions holds no million envelopes.
 */
function split(value: unknown): ProcessResult {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) return { payload: value, headers: { index: 0, count: 1 } };
  const items = itemsOf(value as readonly unknown[]);
  return value.length > SPLIT_AT_ONCE ? items : [...items];
}

function* itemsOf(items: readonly unknown[]): Generator<Emit> {
  const count = items.length;
  for (let index = 0; index < count; index++) {
    yield { payload: items[index], headers: { index, count } };
  }
}
