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
import type { CompiledExpression, Emit, Message, NodeContext } from '../../../plugin-api/index.js';

const loopConfig = z.looseObject({
  condition: jsonataExpression().describe('JSONata predicate; the loop goes on while it is true'),
  expression: jsonataExpression()
    .optional()
    .describe('JSONata step applied to the payload each iteration'),
  maxIterations: positiveInt().default(100).describe('Most iterations per message'),
});

type LoopConfig = z.output<typeof loopConfig>;

/** What a loop evaluates, compiled once per node. */
interface CompiledLoop {
  readonly type: string;
  readonly condition: CompiledExpression;
  readonly step: CompiledExpression | undefined;
  readonly maxIterations: number;
}

/**
 * The loop over one message: the value after each step, in order. Pulled, so LOOP_STREAM
 * makes the next iteration only once the one before has gone on. At module level: a
 * generator function made per node would be a new function per run, and V8 gives each its
 * own prototype and map (docs/performance.md, "A run makes no function of its own").
 */
async function* iterate(
  loop: CompiledLoop,
  message: Message,
  ctx: NodeContext,
): AsyncGenerator<unknown, void, undefined> {
  const { type, condition, step, maxIterations } = loop;
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
    yield value;
  }
}

/** Each iteration as a message of its own, numbered. */
async function* iterationsOf(values: AsyncIterable<unknown>): AsyncGenerator<Emit> {
  let iteration = 0;
  for await (const payload of values) {
    iteration += 1;
    yield { payload, headers: { iteration } };
  }
}

function compileLoop(type: string, config: LoopConfig): CompiledLoop {
  return {
    type,
    condition: compileExpression(config.condition),
    step: config.expression === undefined ? undefined : compileExpression(config.expression),
    maxIterations: config.maxIterations,
  };
}

export const loopPredicatePlugin = definePlugin({
  type: 'LOOP_PREDICATE',
  kind: 'processor',
  pure: true,
  description:
    'Applies the step while the condition holds, then emits the final payload of each message.',
  configSchema: loopConfig,
  create: (config) => {
    const loop = compileLoop('LOOP_PREDICATE', config);
    return {
      async process(message, ctx) {
        let value = message.payload;
        let iterations = 0;
        for await (const next of iterate(loop, message, ctx)) {
          value = next;
          iterations += 1;
        }
        return { payload: value, headers: { iterations } };
      },
    };
  },
  outputPorts: () => ['out'],
});

export const loopStreamPlugin = definePlugin({
  type: 'LOOP_STREAM',
  kind: 'processor',
  pure: true,
  description:
    'Applies the step while the condition holds, emitting the payload of every iteration.',
  configSchema: loopConfig,
  create: (config) => {
    const loop = compileLoop('LOOP_STREAM', config);
    return {
      // Each iteration goes on as it is made; a message that fails part-way has emitted the
      // iterations before the failure, and an error message follows them.
      process: (message, ctx) => iterationsOf(iterate(loop, message, ctx)),
    };
  },
  outputPorts: () => ['out'],
});
