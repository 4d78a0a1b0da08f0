// NOTIFY_TERMINAL: records each message as a result event, optionally POSTing it to a webhook.
import { definePlugin, z } from '../../../plugin-api/index.js';
import { httpUrl } from '../schemas.js';

export const notifyTerminalPlugin = definePlugin({
  type: 'NOTIFY_TERMINAL',
  kind: 'terminal',
  description:
    'Records each message as a result event on the event stream, and optionally POSTs it to a webhook.',
  configSchema: z.looseObject({
    webhookUrl: httpUrl().optional().describe('http(s) URL each message is POSTed to'),
  }),
  outputPorts: () => ['out'],
});
