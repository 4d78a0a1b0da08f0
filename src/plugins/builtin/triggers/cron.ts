// CRON trigger: emits on a schedule while the run lasts (CONTRACT section 1).
import { definePlugin, z } from '../../../plugin-api/index.js';
import { cronSchedule, positiveInt } from '../schemas.js';

export const cronPlugin = definePlugin({
  type: 'CRON',
  kind: 'trigger',
  description: 'Emits a message on each tick of a cron schedule while the run lasts.',
  configSchema: z.looseObject({
    schedule: cronSchedule().describe(
      'Cron expression with 5, 6 or 7 fields, or a nickname such as @hourly',
    ),
    payload: z.unknown().optional().describe('Payload of each emitted message'),
    maxRuns: positiveInt().optional().describe('Stop after this many ticks'),
  }),
  outputPorts: () => ['out'],
});
