// SQL_QUERY (optional plugin sql-query): one parameterised query per message.
import { definePlugin, z } from '../../../plugin-api/index.js';

export const sqlQueryPlugin = definePlugin({
  type: 'SQL_QUERY',
  kind: 'processor',
  description: 'Runs a parameterised SQL query per message and emits the rows.',
  configSchema: z.looseObject({
    url: z.string().min(1).optional().describe('Database URL'),
    query: z.string().min(1).describe('SQL text with positional parameters'),
    params: z.array(z.unknown()).optional().describe('Values of the positional parameters'),
  }),
  outputPorts: () => ['out'],
  defaultTimeoutSeconds: 30,
});
