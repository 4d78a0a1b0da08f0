// DELAY: holds each message for a fixed time (CONTRACT section 2).
import { definePlugin, nonNegativeInt, z } from '../../../plugin-api/index.js';

export const delayPlugin = definePlugin({
  type: 'DELAY',
  kind: 'processor',
  pure: true,
  description: 'Passes each message on after delayMs milliseconds.',
  configSchema: z.looseObject({
    delayMs: nonNegativeInt().describe('Milliseconds to hold each message'),
  }),
  outputPorts: () => ['out'],
  create: ({ delayMs }) => ({
    // On the run's clock: a pause stops the wait, and the next message waits its own turn.
    async process(message, ctx) {
      await ctx.sleep(delayMs);
      return { payload: message.payload };
    },
  }),
});
