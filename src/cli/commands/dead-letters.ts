// `svc dead-letters`: messages nodes with onError DEAD_LETTER gave up on (docs/dead-letters.md),
// listed, shown, redriven through their node and deleted.
import type { Command } from 'commander';
import { dataOf } from '../../client/index.js';
import type { CommandContext } from '../command-context.js';
import { integer, payloadOf } from './executions.js';

export function registerDeadLetterCommands(program: Command, context: CommandContext): void {
  const letters = program
    .command('dead-letters')
    .description('Messages nodes with onError DEAD_LETTER gave up on: list, show, redrive, delete');

  letters
    .command('list')
    .description('List dead letters, newest first')
    .option('--session <id>', 'only letters of this session')
    .option('--workflow <id>', 'only letters of this workflow')
    .option('--node <id>', 'only letters of this node')
    .option('--execution <id>', 'only letters of this execution')
    .option('--limit <n>', 'at most this many (1-1000)', '100')
    .option('--cursor <cursor>', 'where to go on: the next cursor a page before printed')
    .addHelpText('after', '\nExample:\n  svc dead-letters list --session shop --node charge\n')
    .action(
      async (options: {
        session?: string;
        workflow?: string;
        node?: string;
        execution?: string;
        limit: string;
        cursor?: string;
      }) => {
        const { api } = context.connection();
        const page = await dataOf(
          api.GET('/api/dead-letters', {
            params: {
              query: {
                limit: integer(options.limit, '--limit'),
                ...(options.session === undefined ? {} : { sessionId: options.session }),
                ...(options.workflow === undefined ? {} : { workflowId: options.workflow }),
                ...(options.node === undefined ? {} : { nodeId: options.node }),
                ...(options.execution === undefined ? {} : { executionId: options.execution }),
                ...(options.cursor === undefined ? {} : { cursor: options.cursor }),
              },
            },
          }),
        );
        context.output.page(
          page,
          [
            { header: 'ID', value: (letter) => letter.id },
            { header: 'CREATED', value: (letter) => letter.createdAt },
            { header: 'EXECUTION', value: (letter) => letter.executionId },
            { header: 'NODE', value: (letter) => letter.nodeId },
            { header: 'ERROR', value: (letter) => letter.error },
            { header: 'REDRIVEN AS', value: (letter) => letter.redrivenAs ?? '' },
          ],
          'No dead letters.',
        );
      },
    );

  letters
    .command('show')
    .description('Show a dead letter: its message, error and attempts')
    .argument('<id>', 'the dead letter id')
    .addHelpText('after', '\nExample:\n  svc dead-letters show 6b1f0c2e-...\n')
    .action(async (id: string) => {
      const { api } = context.connection();
      const letter = await dataOf(api.GET('/api/dead-letters/{id}', { params: { path: { id } } }));
      if (context.output.json) {
        context.output.value(letter);
        return;
      }
      context.output.line(`${letter.id}: node ${letter.nodeId} of ${letter.executionId}`);
      context.output.line(`message ${letter.messageId}: ${JSON.stringify(letter.payload)}`);
      for (const attempt of letter.attempts) {
        context.output.line(`attempt ${String(attempt.attempt)}: ${attempt.error}`);
      }
      if (letter.redrivenAs !== null) context.output.line(`redriven as ${letter.redrivenAs}`);
    });

  letters
    .command('redrive')
    .description("Run the letter's node and what follows it again on its message")
    .argument('<id>', 'the dead letter id')
    .option('--payload <json>', "a payload in place of the letter's own: JSON, or @file")
    .addHelpText(
      'after',
      '\nExample:\n  svc dead-letters redrive 6b1f0c2e-... --payload \'{"amount": 5}\'\n',
    )
    .action(async (id: string, options: { payload?: string }) => {
      const { api } = context.connection();
      const answer = await dataOf(
        api.POST('/api/dead-letters/{id}/redrive', {
          params: { path: { id } },
          body: options.payload === undefined ? {} : { payload: payloadOf(options.payload) },
        }),
      );
      if (context.output.json) context.output.value(answer);
      else context.output.line(`${answer.executionId} started (${answer.status})`);
    });

  letters
    .command('delete')
    .description('Delete a dead letter')
    .argument('<id>', 'the dead letter id')
    .addHelpText('after', '\nExample:\n  svc dead-letters delete 6b1f0c2e-...\n')
    .action(async (id: string) => {
      const { api } = context.connection();
      const deleted = await dataOf(
        api.DELETE('/api/dead-letters/{id}', { params: { path: { id } } }),
      );
      if (context.output.json) context.output.value(deleted);
      else context.output.line(`${deleted.id} deleted`);
    });
}
