// Always-on workflows (docs/always-on.md): turn them on and off, and list a session's
// workflows with whether each is on.
import type { Command } from 'commander';
import { dataOf } from '../../client/index.js';
import type { ApiSchemas } from '../../client/index.js';
import type { CommandContext } from '../command-context.js';
import { workflowRefOf } from '../workflow-ref.js';

type Activation = ApiSchemas['Activation'];

export function registerActivationCommands(program: Command, context: CommandContext): void {
  const print = (activation: Activation): void => {
    if (context.output.json) context.output.value(activation);
    else if (activation.active) {
      context.output.line(`active; run ${activation.executionId ?? '(starting again)'}`);
    } else context.output.line('inactive');
  };
  for (const active of [true, false]) {
    const name = active ? 'activate' : 'deactivate';
    program
      .command(name)
      .description(
        active
          ? 'Keep a workflow always on: the server keeps one run of it going'
          : 'Stop keeping a workflow on, and stop its run',
      )
      .argument('<workflow>', 'SESSION/WORKFLOW')
      .addHelpText('after', `\nExample:\n  svc ${name} shop/orders\n`)
      .action(async (target: string) => {
        const path = workflowRefOf(target);
        const { api } = context.connection();
        const options = { params: { path } };
        print(
          await dataOf(
            active
              ? api.POST('/api/sessions/{sessionId}/workflows/{workflowId}/activate', options)
              : api.POST('/api/sessions/{sessionId}/workflows/{workflowId}/deactivate', options),
          ),
        );
      });
  }
  const list = program.commands.find((command) => command.name() === 'ls') ?? program;
  list
    .command('workflows')
    .description("List a session's workflows, with their current version and whether each is on")
    .argument('<session>', 'the session id')
    .addHelpText('after', '\nExample:\n  svc ls workflows shop\n')
    .action(async (sessionId: string) => {
      const { api } = context.connection();
      const workflows = await dataOf(
        api.GET('/api/sessions/{sessionId}/workflows', { params: { path: { sessionId } } }),
      );
      context.output.table(
        workflows,
        [
          { header: 'WORKFLOW', value: (workflow) => workflow.workflowId },
          { header: 'VERSION', value: (workflow) => String(workflow.version) },
          { header: 'ACTIVE', value: (workflow) => (workflow.active ? 'yes' : 'no') },
          { header: 'UPDATED', value: (workflow) => workflow.updatedAt },
        ],
        'No workflows.',
      );
    });
}
