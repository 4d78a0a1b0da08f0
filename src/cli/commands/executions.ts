// Everyday commands on runs: start one (and follow it), read its status, list runs, read its
// results and log lines, stop, restart and recover it.
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { dataOf, isTerminalStatus } from '../../client/index.js';
import type { ApiSchemas } from '../../client/index.js';
import { CliError, EXIT } from '../cli-error.js';
import type { CommandContext } from '../command-context.js';
import { FOLLOW_INTERVAL_MS, followRun, pause, printRun } from '../run-view.js';
import { workflowRefOf } from '../workflow-ref.js';
import { loadFiles } from '../workflow-files.js';
import { stopOnProblems } from './files.js';

type ExecutionStatus = ApiSchemas['ExecutionStatus'];

export function registerExecutionCommands(program: Command, context: CommandContext): void {
  program
    .command('run')
    .description('Start a saved workflow; with --follow, watch it to its end')
    .argument('<workflow>', 'SESSION/WORKFLOW')
    .option('--payload <json>', 'the start payload: JSON, or @file to read it from a file')
    .option('--priority <n>', 'a priority for the admission queue (higher first)')
    .option(
      '-f, --follow',
      'show node statuses and counts until the run ends; exit 0 only on COMPLETED',
    )
    .addHelpText(
      'after',
      '\nExample:\n  svc run shop/orders --payload \'{"orderId": 7}\' --follow\n  svc run shop/orders --payload @order.json\n',
    )
    .action(
      async (
        target: string,
        options: { payload?: string; priority?: string; follow?: boolean },
      ) => {
        const { sessionId, workflowId } = workflowRefOf(target);
        const { api } = context.connection();
        const started = await dataOf(
          api.POST('/api/workflow/{sessionId}/start', {
            params: { path: { sessionId } },
            body: {
              workflowId,
              ...(options.payload === undefined ? {} : { payload: payloadOf(options.payload) }),
              ...(options.priority === undefined
                ? {}
                : { priority: integer(options.priority, '--priority') }),
            },
          }),
        );
        if (options.follow !== true) {
          if (context.output.json) context.output.value(started);
          else context.output.line(started.executionId);
          return;
        }
        context.output.note(`Started ${started.executionId}`);
        const ended = await followRun(context, started.executionId);
        if (ended.status !== 'COMPLETED') {
          throw new CliError(
            `The run ended ${ended.status}${ended.error === null ? '' : `: ${ended.error}`}`,
          );
        }
      },
    );

  program
    .command('status')
    .description('Show a run: its status and each node with its counts')
    .argument('<id>', 'the execution id')
    .addHelpText('after', '\nExample:\n  svc status 6f1c2e0a-...\n')
    .action(async (id: string) => {
      const { api } = context.connection();
      printRun(
        context,
        await dataOf(api.GET('/api/executions/{id}', { params: { path: { id } } })),
      );
    });

  const list = program.command('ls').description('List things on the server');
  list
    .command('executions')
    .description('List runs, newest first')
    .option('--session <id>', 'only runs of this session')
    .option('--workflow <id>', 'only runs of this workflow')
    .option('--status <status>', 'only runs with this status, e.g. FAILED')
    .option('--since <time>', 'only runs created at or after this ISO time')
    .option('--limit <n>', 'at most this many (1-1000)', '50')
    .addHelpText('after', '\nExample:\n  svc ls executions --session shop --status FAILED\n')
    .action(
      async (options: {
        session?: string;
        workflow?: string;
        status?: string;
        since?: string;
        limit: string;
      }) => {
        const { api } = context.connection();
        const page = await dataOf(
          api.GET('/api/executions', {
            params: {
              query: {
                limit: integer(options.limit, '--limit'),
                ...(options.session === undefined ? {} : { sessionId: options.session }),
                ...(options.workflow === undefined ? {} : { workflowId: options.workflow }),
                ...(options.status === undefined
                  ? {}
                  : { status: options.status.toUpperCase() as ExecutionStatus }),
                ...(options.since === undefined ? {} : { since: options.since }),
              },
            },
          }),
        );
        context.output.table(
          page.items,
          [
            { header: 'EXECUTION', value: (run) => run.executionId },
            { header: 'WORKFLOW', value: (run) => `${run.sessionId}/${run.workflowId}` },
            { header: 'VERSION', value: (run) => String(run.workflowVersion) },
            { header: 'STATUS', value: (run) => run.status },
            { header: 'CREATED', value: (run) => run.createdAt },
          ],
          'No executions.',
        );
      },
    );

  program
    .command('results')
    .description('Print the messages that reached the terminal nodes of a run')
    .argument('<id>', 'the execution id')
    .addHelpText('after', '\nExample:\n  svc results 6f1c2e0a-... --output json\n')
    .action(async (id: string) => {
      const { api } = context.connection();
      const results = await dataOf(
        api.GET('/api/executions/{id}/results', { params: { path: { id } } }),
      );
      context.output.table(
        results,
        [
          { header: 'SEQ', value: (result) => String(result.seq) },
          { header: 'NODE', value: (result) => result.nodeId },
          { header: 'PAYLOAD', value: (result) => JSON.stringify(result.payload) },
        ],
        'No results.',
      );
    });

  program
    .command('logs')
    .description('Print the log lines of a run; with -f, keep printing until the run ends')
    .argument('<id>', 'the execution id')
    .option('--node <id>', 'only the lines of this node')
    .option('-f, --follow', 'keep printing new lines until the run has ended')
    .addHelpText('after', '\nExample:\n  svc logs 6f1c2e0a-... -f\n')
    .action(async (id: string, options: { node?: string; follow?: boolean }) => {
      const { api } = context.connection();
      let after: number | undefined;
      for (;;) {
        // Whether the run had ended before this read: then the read holds every line.
        const ended =
          options.follow !== true ||
          isTerminalStatus(
            (await dataOf(api.GET('/api/executions/{id}', { params: { path: { id } } }))).status,
          );
        const lines = await dataOf(
          api.GET('/api/executions/{id}/logs', {
            params: {
              path: { id },
              query: {
                ...(after === undefined ? {} : { after }),
                ...(options.node === undefined ? {} : { nodeId: options.node }),
              },
            },
          }),
        );
        for (const line of lines) {
          if (context.output.json) context.output.line(JSON.stringify(line));
          else
            context.output.line(
              `${line.timestamp} ${line.level.padEnd(5)} [${line.nodeId}] ${line.message}`,
            );
          after = line.seq;
        }
        if (ended) return;
        await pause(FOLLOW_INTERVAL_MS);
      }
    });

  program
    .command('messages')
    .description(
      'Print what a node of a run sent, or with --in what it received (from the checkpoints)',
    )
    .argument('<id>', 'the execution id')
    .argument('<node>', 'the node id')
    .option('--in', 'what the node received instead of what it sent')
    .option('--limit <n>', 'at most this many (1-1000)', '100')
    .option('--cursor <cursor>', 'where to go on: the next cursor a page before printed')
    .addHelpText('after', '\nExample:\n  svc messages 6f1c2e0a-... shape --in --output json\n')
    .action(
      async (
        id: string,
        nodeId: string,
        options: { in?: boolean; limit: string; cursor?: string },
      ) => {
        const { api } = context.connection();
        const page = await dataOf(
          api.GET('/api/executions/{id}/nodes/{nodeId}/messages', {
            params: {
              path: { id, nodeId },
              query: {
                direction: options.in === true ? 'in' : 'out',
                limit: integer(options.limit, '--limit'),
                ...(options.cursor === undefined ? {} : { cursor: options.cursor }),
              },
            },
          }),
        );
        context.output.page(
          page,
          [
            { header: 'MESSAGE', value: (message) => message.messageId },
            { header: 'PORT', value: (message) => message.port },
            { header: 'PAYLOAD', value: (message) => JSON.stringify(message.payload) },
          ],
          'No messages.',
        );
      },
    );

  program
    .command('stop')
    .description('Stop a run')
    .argument('<id>', 'the execution id')
    .addHelpText('after', '\nExample:\n  svc stop 6f1c2e0a-...\n')
    .action(async (id: string) => {
      const { api } = context.connection();
      const state = await dataOf(
        api.POST('/api/executions/{id}/stop', { params: { path: { id } } }),
      );
      printState(context, state, 'stopping');
    });

  program
    .command('restart')
    .description(
      'Start a new run of the same workflow and payload, or from a node on its checkpoints',
    )
    .argument('<id>', 'the execution id')
    .option(
      '--from <node>',
      'run this node and those after it again; the rest replays from checkpoints',
    )
    .option(
      '--input-file <file>',
      'with --from: a JSON file of edits of what the node received, [{"messageId": ..., "payload": ...}] (no messageId: an added message)',
    )
    // Not --version: the program's own --version is recognised after a command too.
    .option(
      '--workflow-version <n>',
      'run this saved version of the workflow; the graph above the restart must be unchanged',
    )
    .addHelpText(
      'after',
      '\nExample:\n  svc restart 6f1c2e0a-... --from shape\n  svc messages 6f1c2e0a-... shape --in --output json\n  svc restart 6f1c2e0a-... --from shape --input-file edits.json --workflow-version 3\n',
    )
    .action(
      async (
        id: string,
        options: { from?: string; inputFile?: string; workflowVersion?: string },
      ) => {
        const { api } = context.connection();
        const version =
          options.workflowVersion === undefined
            ? {}
            : { version: integer(options.workflowVersion, '--workflow-version') };
        if (options.inputFile !== undefined && options.from === undefined) {
          throw new CliError('--input-file needs --from: edits are of what a node received', {
            exitCode: EXIT.usage,
          });
        }
        const state =
          options.from === undefined
            ? await dataOf(
                api.POST('/api/executions/{id}/restart', {
                  params: { path: { id } },
                  body: version,
                }),
              )
            : await dataOf(
                api.POST('/api/executions/{id}/restart/{nodeId}', {
                  params: { path: { id, nodeId: options.from } },
                  body: {
                    ...version,
                    ...(options.inputFile === undefined
                      ? {}
                      : { inputs: inputEditsOf(options.inputFile) }),
                  },
                }),
              );
        printState(context, state, 'started');
      },
    );

  program
    .command('replay-check')
    .description(
      "Run a run's recorded inputs through a saved version or a draft file, calling nothing outside and saving nothing, and compare each node's output with the run's",
    )
    .argument('<id>', 'the execution id')
    .option('--workflow-version <n>', 'check this saved version of the workflow')
    .option('--file <file>', 'check the unsaved draft in this workflow file (YAML or JSON)')
    .addHelpText(
      'after',
      '\nExit status 0 when every node sent the same as in the run, 1 when one differs.\nExample:\n  svc replay-check 6f1c2e0a-... --workflow-version 3\n  svc replay-check 6f1c2e0a-... --file shop/orders.yaml --output json\n',
    )
    .action(async (id: string, options: { workflowVersion?: string; file?: string }) => {
      if ((options.workflowVersion === undefined) === (options.file === undefined)) {
        throw new CliError('Give one of --workflow-version and --file', { exitCode: EXIT.usage });
      }
      const { api } = context.connection();
      const result = await dataOf(
        api.POST('/api/executions/{id}/replay-check', {
          params: { path: { id } },
          body:
            options.file === undefined
              ? { version: integer(options.workflowVersion ?? '', '--workflow-version') }
              : { definition: draftOf(context, options.file) },
        }),
      );
      if (context.output.json) context.output.value(result);
      else {
        context.output.table(
          result.nodes,
          [
            { header: 'NODE', value: (node) => node.nodeId },
            { header: 'SAME', value: (node) => (node.same ? 'yes' : 'no') },
            { header: 'RECORDED', value: (node) => String(node.recorded) },
            { header: 'REPLAYED', value: (node) => String(node.replayed) },
            { header: 'FIRST DIFFERENCE', value: (node) => firstDifference(node) },
          ],
          'No nodes.',
        );
      }
      const differing = result.nodes.filter((node) => !node.same).length;
      if (result.status !== 'COMPLETED') {
        throw new CliError(`The check's run ended ${result.status}: ${result.error ?? ''}`);
      }
      if (differing > 0) throw new CliError(`${String(differing)} node(s) differ`);
    });

  program
    .command('recover')
    .description('Continue an aborted run from its checkpoints')
    .argument('<id>', 'the execution id')
    .addHelpText('after', '\nExample:\n  svc recover 6f1c2e0a-...\n')
    .action(async (id: string) => {
      const { api } = context.connection();
      const state = await dataOf(
        api.POST('/api/executions/{id}/recover', { params: { path: { id } } }),
      );
      printState(context, state, 'started');
    });
}

function printState(
  context: CommandContext,
  state: ApiSchemas['ExecutionState'],
  what: string,
): void {
  if (context.output.json) context.output.value(state);
  else context.output.line(`${state.executionId} ${what} (${state.status})`);
}

export function payloadOf(text: string, what = 'The payload'): unknown {
  const source = text.startsWith('@') ? readFileSync(text.slice(1), 'utf8') : text;
  try {
    return JSON.parse(source) as unknown;
  } catch (error) {
    throw new CliError(`${what} is not JSON: ${(error as Error).message}`, {
      exitCode: EXIT.usage,
    });
  }
}

/** The edits of `--input-file`: a JSON array of `{ messageId?, payload }`; the server checks each. */
function inputEditsOf(file: string): ApiSchemas['InputEditInput'][] {
  const edits = payloadOf(`@${file}`, file);
  if (!Array.isArray(edits)) {
    throw new CliError(`${file} must hold a JSON array of edits`, { exitCode: EXIT.usage });
  }
  return edits as ApiSchemas['InputEditInput'][];
}

/** The one workflow definition a draft file holds; a file with problems is refused. */
function draftOf(context: CommandContext, file: string): ApiSchemas['WorkflowDefinitionInput'] {
  const files = loadFiles([file]);
  stopOnProblems(context, files.problems);
  const [workflow, ...more] = files.workflows;
  if (workflow === undefined || more.length > 0) {
    throw new CliError(`${file} must hold one workflow`, { exitCode: EXIT.usage });
  }
  return workflow.definition;
}

/** A node's first difference in one line: the note, or the two payloads. */
function firstDifference(node: ApiSchemas['NodeComparison']): string {
  const [first] = node.differences;
  if (first === undefined) return '';
  if (first.note !== undefined) return `${first.messageId}: ${first.note}`;
  const side = (has: boolean, payload: unknown) => (has ? JSON.stringify(payload) : 'none');
  return `${first.messageId}: ${side('recorded' in first, first.recorded)} -> ${side('replayed' in first, first.replayed)}`;
}

export function integer(text: string, option: string): number {
  const value = Number(text);
  if (!Number.isInteger(value)) {
    throw new CliError(`${option} must be an integer, not '${text}'`, { exitCode: EXIT.usage });
  }
  return value;
}
