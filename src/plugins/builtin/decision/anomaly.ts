// ANOMALY (optional plugin decision): flags values far from what the stream has seen: a value
// whose distance from the mean of the earlier values is more than `threshold` standard
// deviations (a z-score) is an anomaly. The mean and deviation run over the node's whole
// input (Welford's method), so memory stays constant however long the stream.
import {
  compileExpression,
  definePlugin,
  jsonataExpression,
  positiveInt,
  requireOneOf,
  StepFailure,
  z,
} from '../../../plugin-api/index.js';
import type { Message, MessageProcessor, NodeContext } from '../../../plugin-api/index.js';
import { jsonOf, withDecision } from './decision-output.js';

/** Standard deviations from the mean when the node sets no threshold. */
export const DEFAULT_THRESHOLD = 3;
/** Values seen before a deviation counts, when the node sets no `minSamples`. */
export const DEFAULT_MIN_SAMPLES = 5;

export const anomalyPlugin = definePlugin({
  type: 'ANOMALY',
  kind: 'processor',
  pure: true,
  description:
    'Flags messages whose value deviates from the stream by more than the threshold (in standard deviations): adds anomaly and zScore to the payload.',
  configSchema: z
    .looseObject({
      field: z.string().min(1).optional().describe('Payload field holding the value'),
      expression: jsonataExpression().optional().describe('JSONata yielding the value'),
      threshold: z
        .number()
        .optional()
        .describe('Standard deviations from the mean above which a value is an anomaly; default 3'),
      minSamples: positiveInt()
        .optional()
        .describe('Values seen before any is judged; default 5 (at least 2 count)'),
    })
    .superRefine((config, ctx) => {
      requireOneOf(config, ['field', 'expression'], ctx, 'ANOMALY needs field or expression');
    }),
  outputPorts: () => ['out'],
  create: (config) => {
    const valueOf =
      config.expression !== undefined
        ? compiledValue(config.expression)
        : (message: Message) => Promise.resolve(fieldValue(message.payload, config.field ?? ''));
    const minSamples = Math.max(2, config.minSamples ?? DEFAULT_MIN_SAMPLES);
    return new Anomaly(valueOf, config.threshold ?? DEFAULT_THRESHOLD, minSamples);
  },
});

class Anomaly implements MessageProcessor {
  readonly #valueOf: (message: Message, ctx: NodeContext) => Promise<unknown>;
  readonly #threshold: number;
  /** A spread needs two values; fewer would flag the second value of any stream. */
  readonly #minSamples: number;
  #count = 0;
  #mean = 0;
  /** Sum of squared distances from the mean (Welford's M2). */
  #squares = 0;

  constructor(
    valueOf: (message: Message, ctx: NodeContext) => Promise<unknown>,
    threshold: number,
    minSamples: number,
  ) {
    this.#valueOf = valueOf;
    this.#threshold = threshold;
    this.#minSamples = minSamples;
  }

  async process(message: Message, ctx: NodeContext) {
    const value = await this.#valueOf(message, ctx);
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw StepFailure.nonRetryable(
        `ANOMALY value of message '${message.id}' is ${jsonOf(value) ?? 'missing'}, not a number`,
      );
    }
    const zScore = this.#zScore(value);
    const anomaly =
      this.#count >= this.#minSamples &&
      (zScore === null ? value !== this.#mean : Math.abs(zScore) > this.#threshold);
    this.#add(value);
    return { payload: withDecision(message.payload, { anomaly, zScore }) };
  }

  /** Distance from the mean in standard deviations; null before `minSamples` or without spread. */
  #zScore(value: number): number | null {
    if (this.#count < this.#minSamples) return null;
    const deviation = Math.sqrt(this.#squares / this.#count);
    return deviation === 0 ? null : (value - this.#mean) / deviation;
  }

  #add(value: number): void {
    this.#count++;
    const delta = value - this.#mean;
    this.#mean += delta / this.#count;
    this.#squares += delta * (value - this.#mean);
  }
}

function compiledValue(text: string): (message: Message, ctx: NodeContext) => Promise<unknown> {
  const expression = compileExpression(text);
  return (message, ctx) => expression.evaluate(message.payload, message, ctx);
}

/** A member of the payload; dots reach into nested objects (`reading.value`). */
function fieldValue(payload: unknown, field: string): unknown {
  let value = payload;
  for (const key of field.split('.')) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
  }
  return value;
}
