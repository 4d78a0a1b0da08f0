// WAIT_FOR_SIGNAL: holds each message until an approval signal arrives (SPEC Events 9).
import { definePlugin, z } from '../../../plugin-api/index.js';

export const waitForSignalPlugin = definePlugin({
  type: 'WAIT_FOR_SIGNAL',
  kind: 'processor',
  description: 'Holds each message until an approval signal answers it: approved or rejected.',
  configSchema: z.looseObject({
    // The same key as the engine's idle timeout: for this type it is the signal wait.
    timeoutSeconds: z.number().positive().optional().describe('Seconds to wait for the signal'),
    prompt: z.string().optional().describe('Question shown to whoever answers the approval'),
  }),
  outputPorts: () => ['out', 'approved', 'rejected'],
  defaultTimeoutSeconds: 3600,
});
