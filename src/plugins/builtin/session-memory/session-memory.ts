// SESSION_MEMORY (optional plugin session-memory): a history kept per session and key.
import { definePlugin, z } from '../../../plugin-api/index.js';
import { positiveInt } from '../schemas.js';

export const SESSION_MEMORY_OPERATIONS = ['APPEND', 'READ', 'CLEAR'] as const;

export const sessionMemoryPlugin = definePlugin({
  type: 'SESSION_MEMORY',
  kind: 'processor',
  description: "Appends each payload to the session's memory, or reads or clears it.",
  configSchema: z.looseObject({
    operation: z
      .enum(SESSION_MEMORY_OPERATIONS)
      .default('APPEND')
      .describe('What to do per message'),
    key: z.string().min(1).optional().describe('Name of the history within the session'),
    maxEntries: positiveInt().optional().describe('Most entries kept or read'),
  }),
  outputPorts: () => ['out'],
});
