// API_TRIGGER: the start request's payload as the first message (CONTRACT section 1).
import { definePlugin, z } from '../../../plugin-api/index.js';
import { emitEach } from './constant-source.js';

export const apiTriggerPlugin = definePlugin({
  type: 'API_TRIGGER',
  kind: 'trigger',
  pure: true,
  description:
    "Emits the start request's payload as one message, or one message per item when splitArray is set.",
  configSchema: z.looseObject({
    splitArray: z
      .boolean()
      .optional()
      .describe('When the payload is an array, emit one message per item'),
  }),
  outputPorts: () => ['out'],
  create: ({ splitArray = false }) =>
    emitEach(({ startPayload = {} }) =>
      splitArray && Array.isArray(startPayload) ? (startPayload as unknown[]) : [startPayload],
    ),
});
