// DEDUPE (optional plugin decision): drops messages whose key was seen recently. Keys are
// remembered per node and run, at most MAX_KEYS of them (the oldest are forgotten first), and
// a key's time runs on the run's clock, so a pause does not make old keys expire.
import {
  compileExpression,
  definePlugin,
  jsonataExpression,
  positiveInt,
  z,
} from '../../../plugin-api/index.js';
import type { Message, MessageProcessor, NodeContext } from '../../../plugin-api/index.js';
import { jsonOf } from './decision-output.js';

/** Keys remembered per node at most; beyond it the oldest are forgotten. */
export const MAX_KEYS = 100_000;

export const dedupePlugin = definePlugin({
  type: 'DEDUPE',
  kind: 'processor',
  pure: true,
  description:
    'Passes a message only when its key was not seen before, or not within ttlMs when set.',
  configSchema: z.looseObject({
    key: jsonataExpression()
      .optional()
      .describe('JSONata yielding the key of a message; default: the whole payload'),
    ttlMs: positiveInt().optional().describe('How long a key is remembered'),
  }),
  outputPorts: () => ['out'],
  create: (config) => {
    const expression = config.key === undefined ? undefined : compileExpression(config.key);
    const keyOf = async (message: Message, ctx: NodeContext): Promise<string> => {
      const key =
        expression === undefined
          ? message.payload
          : await expression.evaluate(message.payload, message, ctx);
      return typeof key === 'string' ? `s:${key}` : `j:${jsonOf(key) ?? 'undefined'}`;
    };
    return new Dedupe(keyOf, config.ttlMs);
  },
});

class Dedupe implements MessageProcessor {
  readonly #keyOf: (message: Message, ctx: NodeContext) => Promise<string>;
  readonly #ttlMs: number | undefined;
  /** Key to the time it was last passed; insertion order is age order. */
  readonly #seen = new Map<string, number>();

  constructor(
    keyOf: (message: Message, ctx: NodeContext) => Promise<string>,
    ttlMs: number | undefined,
  ) {
    this.#keyOf = keyOf;
    this.#ttlMs = ttlMs;
  }

  async process(message: Message, ctx: NodeContext) {
    const key = await this.#keyOf(message, ctx);
    const now = ctx.now();
    const seenAt = this.#seen.get(key);
    if (seenAt !== undefined && (this.#ttlMs === undefined || now - seenAt < this.#ttlMs)) {
      return undefined;
    }
    // Re-inserted, the key moves to the young end.
    this.#seen.delete(key);
    this.#seen.set(key, now);
    if (this.#seen.size > MAX_KEYS) {
      const oldest = this.#seen.keys().next();
      if (oldest.done !== true) this.#seen.delete(oldest.value);
    }
    return { payload: message.payload };
  }
}
