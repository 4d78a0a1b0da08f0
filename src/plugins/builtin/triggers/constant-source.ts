// CONSTANT_SOURCE trigger: the configured messages, one per item (CONTRACT section 2).
import { definePlugin, z } from '../../../plugin-api/index.js';

export const constantSourcePlugin = definePlugin({
  type: 'CONSTANT_SOURCE',
  kind: 'trigger',
  description: 'Emits each item of the configured messages list as one message payload.',
  configSchema: z.looseObject({
    messages: z.array(z.unknown()).optional().describe('Payloads to emit, one message per item'),
  }),
  outputPorts: () => ['out'],
});
