// `svc queue` and `svc priority`: the starts waiting for a slot, in the order the queue takes
// them and with what holds each back (docs/scheduler-queue.md), and moving one up or down.
import type { Command } from 'commander';
import { dataOf } from '../../client/index.js';
import type { CommandContext } from '../command-context.js';
import { integer } from './executions.js';

export function registerSchedulerCommands(program: Command, context: CommandContext): void {
  program
    .command('queue')
    .description('List the starts waiting for a slot, in queue order, with what holds each back')
    .addHelpText('after', '\nExample:\n  svc queue\n')
    .action(async () => {
      const { api } = context.connection();
      const queue = await dataOf(api.GET('/api/scheduler/queue'));
      if (context.output.json) {
        context.output.value(queue);
        return;
      }
      context.output.note(`${String(queue.running)} running, ${String(queue.queued)} waiting`);
      context.output.table(
        queue.items,
        [
          { header: '#', value: (start) => String(start.position) },
          { header: 'EXECUTION', value: (start) => start.executionId },
          { header: 'WORKFLOW', value: (start) => `${start.sessionId}/${start.workflowId}` },
          { header: 'PRIORITY', value: (start) => String(start.priority) },
          { header: 'QUEUED', value: (start) => start.queuedAt },
          {
            header: 'WAITING FOR',
            value: (start) =>
              [
                ...(start.paused ? ['paused'] : []),
                ...start.waitingFor.map((hold) => hold.message),
              ].join('; '),
          },
        ],
        'No start is waiting.',
      );
    });

  program
    .command('priority')
    .description("Change a waiting start's priority: higher goes first")
    .argument('<execution>', 'the id of a start waiting for a slot')
    .argument('<priority>', 'the new priority, an integer')
    .addHelpText('after', '\nExample:\n  svc priority 3f2c9a70-... 10\n')
    .action(async (executionId: string, priority: string) => {
      const { api } = context.connection();
      const changed = await dataOf(
        api.POST('/api/executions/{id}/priority', {
          params: {
            path: { id: executionId },
            query: { priority: integer(priority, '<priority>') },
          },
        }),
      );
      if (context.output.json) context.output.value(changed);
      else
        context.output.line(`${changed.executionId} now has priority ${String(changed.priority)}`);
    });
}
