// Steering a run: answer its pending approvals, and pause, resume or step it.
import type { Command } from 'commander';
import { dataOf } from '../../client/index.js';
import type { ApiSchemas } from '../../client/index.js';
import { CliError } from '../cli-error.js';
import type { CommandContext } from '../command-context.js';

type Approval = ApiSchemas['Approval'];

const RUN_CONTROLS = [
  ['pause', 'Pause a run: nodes finish the message in hand and take no new one'],
  ['resume', 'Resume a paused run'],
  ['step', 'Let a paused run take one more message, then pause again'],
] as const;

export function registerControlCommands(program: Command, context: CommandContext): void {
  program
    .command('approve')
    .description('Answer a pending approval of a run (approve it, or reject it with --reject)')
    .argument('<id>', 'the execution id')
    .option('--reject', 'reject instead of approve')
    .option('--comment <text>', 'a comment kept with the answer')
    .option('--node <id>', 'the approval of this node')
    .option('--message <id>', 'the approval of this message')
    .option('--all', 'answer every pending approval that matches')
    .addHelpText(
      'after',
      '\nExample:\n  svc approve 6f1c2e0a-... --comment "checked the amount"\n  svc approve 6f1c2e0a-... --node review --reject\n',
    )
    .action(
      async (
        id: string,
        options: {
          reject?: boolean;
          comment?: string;
          node?: string;
          message?: string;
          all?: boolean;
        },
      ) => {
        const { api } = context.connection();
        const pending = await dataOf(
          api.GET('/api/executions/{id}/approvals', { params: { path: { id } } }),
        );
        const chosen = pending.filter(
          (approval) =>
            (options.node === undefined || approval.nodeId === options.node) &&
            (options.message === undefined || approval.messageId === options.message),
        );
        if (chosen.length === 0) throw new CliError(`No pending approval matches in ${id}`);
        if (chosen.length > 1 && options.all !== true) {
          throw new CliError(
            `${String(chosen.length)} approvals are pending; pick one with --node or --message, or answer them all with --all`,
            {
              details: chosen.map(describe),
            },
          );
        }
        const approved = options.reject !== true;
        const answers: ApiSchemas['SignalAnswer'][] = [];
        for (const approval of chosen) {
          answers.push(
            await dataOf(
              api.POST('/api/executions/{id}/nodes/{nodeId}/signal', {
                params: { path: { id, nodeId: approval.nodeId } },
                body: {
                  approved,
                  messageId: approval.messageId,
                  ...(options.comment === undefined ? {} : { comment: options.comment }),
                },
              }),
            ),
          );
        }
        if (context.output.json) context.output.value(answers);
        else {
          for (const answer of answers) {
            context.output.line(
              `${answer.approved ? 'Approved' : 'Rejected'} ${answer.nodeId} ${answer.messageId}`,
            );
          }
        }
      },
    );

  for (const [control, description] of RUN_CONTROLS) {
    program
      .command(control)
      .description(description)
      .argument('<id>', 'the execution id')
      .addHelpText('after', `\nExample:\n  svc ${control} 6f1c2e0a-...\n`)
      .action(async (id: string) => {
        const { api } = context.connection();
        const state = await dataOf(
          api.POST(`/api/executions/{id}/${control}`, { params: { path: { id } } }),
        );
        if (context.output.json) context.output.value(state);
        else context.output.line(`${state.executionId} ${control} applied (${state.status})`);
      });
  }
}

function describe(approval: Approval): string {
  return `${approval.nodeId} ${approval.messageId}${approval.prompt === null ? '' : `: ${approval.prompt}`}`;
}
