// CRON trigger: emits on a schedule while the run lasts (CONTRACT section 1). Every wait is
// a sleep on the run's clock, never a timer of croner's, so a paused run stops the schedule.
import { Cron } from 'croner';
import { cronSchedule, definePlugin, positiveInt, z } from '../../../plugin-api/index.js';
import type { Emit } from '../../../plugin-api/index.js';

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
  create: ({ schedule, payload = {}, maxRuns = Infinity }) => {
    // UTC, so a schedule means the same on every host; without a callback croner arms no timer.
    const cron = new Cron(schedule, { paused: true, timezone: 'UTC' });
    return {
      async *run(_input, ctx): AsyncGenerator<Emit> {
        for (let runs = 0; runs < maxRuns; runs++) {
          // From the current time, not the last tick: ticks missed while the children were
          // busy are skipped rather than emitted in a burst.
          const next = cron.nextRun(new Date(ctx.now()));
          if (next === null) return;
          try {
            await ctx.sleep(next.getTime() - ctx.now());
          } catch (error) {
            // The run or the node ended (stopped, timed out, cancelled): so does the schedule.
            if (ctx.signal.aborted) return;
            throw error;
          }
          yield { payload, headers: { firedAt: next.toISOString() } };
        }
      },
    };
  },
});
