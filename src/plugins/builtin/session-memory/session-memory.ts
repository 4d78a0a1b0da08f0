// SESSION_MEMORY (optional plugin session-memory): a history kept per session and key, shared
// by every run of the session: APPEND adds each payload to it and passes the payload on,
// READ emits `{ key, entries }`, CLEAR empties it and emits `{ key, cleared }`.
import { definePlugin, positiveInt, StepFailure, z } from '../../../plugin-api/index.js';
import type { MessageProcessor } from '../../../plugin-api/index.js';

export const SESSION_MEMORY_OPERATIONS = ['APPEND', 'READ', 'CLEAR'] as const;
/** The history a node names no `key` for. */
export const DEFAULT_MEMORY_KEY = 'default';

export const sessionMemoryPlugin = definePlugin({
  type: 'SESSION_MEMORY',
  kind: 'processor',
  description:
    "Appends each payload to the session's memory and passes it on, or emits the history ({ key, entries }), or clears it.",
  configSchema: z.looseObject({
    operation: z
      .enum(SESSION_MEMORY_OPERATIONS)
      .default('APPEND')
      .describe('What to do per message'),
    key: z
      .string()
      .min(1)
      .optional()
      .describe('Name of the history within the session; default "default"'),
    maxEntries: positiveInt()
      .optional()
      .describe('APPEND: most entries kept (the newest); READ: most entries read (the newest)'),
  }),
  outputPorts: () => ['out'],
  create: (config, setup): MessageProcessor => {
    const memory = setup.sessionMemory;
    if (memory === undefined) {
      return {
        process: () => {
          throw StepFailure.nonRetryable('SESSION_MEMORY needs a server with session memory');
        },
      };
    }
    const key = config.key ?? DEFAULT_MEMORY_KEY;
    const { maxEntries } = config;
    switch (config.operation) {
      case 'APPEND':
        return {
          async process(message, ctx) {
            await memory.append(ctx.sessionId, key, message.payload, maxEntries);
            return { payload: message.payload };
          },
        };
      case 'READ':
        return {
          async process(_message, ctx) {
            return { payload: { key, entries: await memory.read(ctx.sessionId, key, maxEntries) } };
          },
        };
      case 'CLEAR':
        return {
          async process(_message, ctx) {
            return { payload: { key, cleared: await memory.clear(ctx.sessionId, key) } };
          },
        };
    }
  },
});
