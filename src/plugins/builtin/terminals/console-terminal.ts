// CONSOLE_TERMINAL: logs each message it receives; each one is a result.
import { definePlugin, z } from '../../../plugin-api/index.js';

export const consoleTerminalPlugin = definePlugin({
  type: 'CONSOLE_TERMINAL',
  kind: 'terminal',
  description: 'Logs each message it receives; every message is a result of the run.',
  configSchema: z.looseObject({}),
  outputPorts: () => ['out'],
  create: () => ({
    process(message, ctx) {
      ctx.log.info('message', { messageId: message.id, payload: message.payload });
      return { payload: message.payload };
    },
  }),
});
