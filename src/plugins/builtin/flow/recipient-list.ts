// RECIPIENT_LIST: sends each message to several named ports.
import { definePlugin, z } from '../../../plugin-api/index.js';
import { configuredPorts, jsonataExpression, portNameList } from '../schemas.js';

export const recipientListPlugin = definePlugin({
  type: 'RECIPIENT_LIST',
  kind: 'processor',
  description:
    'Sends each message to every recipient port, or to those the expression names for it.',
  configSchema: z.looseObject({
    recipients: portNameList(z.string().min(1), (name) => name, 'recipient', [
      'out',
      'error',
    ]).describe('Recipient names; each is an output port'),
    expression: jsonataExpression()
      .optional()
      .describe('JSONata yielding the recipient names for a message; default: all'),
  }),
  outputPorts: (config) => ['out', ...configuredPorts(config.recipients)],
});
