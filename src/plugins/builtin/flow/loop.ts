// LOOP_PREDICATE and LOOP_STREAM: apply a step while a condition holds; they share keys.
import {
  compileExpression,
  definePlugin,
  isTruthy,
  jsonataExpression,
  positiveInt,
  StepFailure,
  z,
} from '../../../plugin-api/index.js';
import type { Emit, Message, NodeContext } from '../../../plugin-api/index.js';

const loopConfig = z.looseObject({
  condition: jsonataExpression().describe('JSONata predicate; the loop goes on while it is true'),
  expression: jsonataExpression()
    .optional()
    .describe('JSONata step applied to the payload each iteration'),
  maxIterations: positiveInt().default(100).describe('Most iterations per message'),
});

type LoopConfig = z.output<typeof loopConfig>;

/** Runs the loop over one message, passing each value after a step to `onStep`. */
type Loop = (
  message: Message,
  ctx: NodeContext,
  onStep?: (value: unknown, iteration: number) => void,
) => Promise<{ readonly value: unknown; readonly iterations: number }>;

function createLoop(type: string, config: LoopConfig): Loop {
  const condition = compileExpression(config.condition);
  const step = config.expression === undefined ? undefined : compileExpression(config.expression);
  const { maxIterations } = config;
  return async (message, ctx, onStep) => {
    let value = message.payload;
    let iterations = 0;
    while (isTruthy(await condition.evaluate(value, message, ctx))) {
      // Without a step the value never changes, so a true condition would hold forever.
      if (step === undefined) {
        throw StepFailure.nonRetryable(
          `${type} condition is true and no expression is set to change the payload`,
        );
      }
      if (iterations >= maxIterations) {
        throw StepFailure.nonRetryable(
          `${type} reached maxIterations (${maxIterations}) with the condition still true`,
        );
      }
      ctx.signal.throwIfAborted();
      value = (await step.evaluate(value, message, ctx)) ?? null;
      iterations += 1;
      onStep?.(value, iterations);
    }
    return { value, iterations };
  };
}

export const loopPredicatePlugin = definePlugin({
  type: 'LOOP_PREDICATE',
  kind: 'processor',
  description:
    'Applies the step while the condition holds, then emits the final payload of each message.',
  configSchema: loopConfig,
  create: (config) => {
    const loop = createLoop('LOOP_PREDICATE', config);
    return {
      async process(message, ctx) {
        const { value, iterations } = await loop(message, ctx);
        return { payload: value, headers: { iterations } };
      },
    };
  },
  outputPorts: () => ['out'],
});

export const loopStreamPlugin = definePlugin({
  type: 'LOOP_STREAM',
  kind: 'processor',
  description:
    'Applies the step while the condition holds, emitting the payload of every iteration.',
  configSchema: loopConfig,
  create: (config) => {
    const loop = createLoop('LOOP_STREAM', config);
    return {
      async process(message, ctx) {
        // All or nothing: a message that fails part-way emits none of its iterations.
        const emits: Emit[] = [];
        await loop(message, ctx, (payload, iteration) => {
          emits.push({ payload, headers: { iteration } });
        });
        return emits;
      },
    };
  },
  outputPorts: () => ['out'],
});
