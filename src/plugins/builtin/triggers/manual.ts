// MANUAL trigger: one empty message per start (CONTRACT section 1).
import { definePlugin, z } from '../../../plugin-api/index.js';
import { emitEach } from './constant-source.js';

export const manualPlugin = definePlugin({
  type: 'MANUAL',
  kind: 'trigger',
  pure: true,
  description: 'Emits one empty message when the workflow starts.',
  configSchema: z.looseObject({}),
  outputPorts: () => ['out'],
  create: () => emitEach(() => [{}]),
});
