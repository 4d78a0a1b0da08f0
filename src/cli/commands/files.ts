// Workflows as code: validate files against a server, show what applying them would change,
// apply them, and export a session back to files that apply takes unchanged.
import { execFileSync } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { stringify } from 'yaml';
import { ApiError, dataOf } from '../../client/index.js';
import { CliError } from '../cli-error.js';
import type { CommandContext } from '../command-context.js';
import { planChanges } from '../plan.js';
import type { Change } from '../plan.js';
import { loadFiles } from '../workflow-files.js';
import type { FileProblem, LoadedFiles } from '../workflow-files.js';

export function registerFileCommands(program: Command, context: CommandContext): void {
  program
    .command('validate')
    .description(
      'Check workflow files against the server, naming the file, field and line of each problem',
    )
    .argument('<paths...>', 'workflow or session files, or directories holding them')
    .addHelpText('after', '\nExample:\n  svc validate workflows/\n')
    .action(async (paths: string[]) => {
      const files = await checked(context, loadFiles(paths));
      reportProblems(context, files.problems);
      if (files.problems.length > 0) {
        throw new CliError(`${String(files.problems.length)} problem(s) found`);
      }
      if (!context.output.json) {
        context.output.line(`${String(files.workflows.length)} workflow(s) valid`);
      }
    });

  program
    .command('diff')
    .description('Show what applying the files would change on the server')
    .argument('<paths...>', 'workflow or session files, or directories holding them')
    .addHelpText('after', '\nExample:\n  svc diff workflows/\n')
    .action(async (paths: string[]) => {
      const files = loadFiles(paths);
      stopOnProblems(context, files.problems);
      const changes = await planChanges(context.connection().api, files.workflows, files.sessions);
      printChanges(context, changes, false);
    });

  program
    .command('apply')
    .description(
      'Create missing sessions and save a new version of each workflow whose definition changed',
    )
    .argument('<paths...>', 'workflow or session files, or directories holding them')
    .option(
      '--note <text>',
      'the note of the versions saved (default: the git commit of the files)',
    )
    .addHelpText('after', '\nExample:\n  svc apply workflows/ --note "raise the retry count"\n')
    .action(async (paths: string[], options: { note?: string }) => {
      context.output.progress('Validating the files...');
      const files = await checked(context, loadFiles(paths));
      stopOnProblems(context, files.problems);
      const { api } = context.connection();
      context.output.progress('Comparing them with the server...');
      const changes = await planChanges(api, files.workflows, files.sessions);
      const note = options.note ?? gitCommitOf(paths[0] ?? '.');
      const applied: (Change & { version?: number })[] = [];
      for (const change of changes) {
        if (change.action !== 'unchanged') context.output.progress(`${progressOf(change)}...`);
        applied.push(await applyChange(context, change, note));
      }
      printChanges(context, applied, true);
    });

  program
    .command('export')
    .description("Write a session's workflows to files that apply takes back unchanged")
    .argument('<session>', 'the session id')
    .option('--dir <directory>', 'where to write (default: a directory named after the session)')
    .addHelpText('after', '\nExample:\n  svc export payments --dir workflows/payments\n')
    .action(async (sessionId: string, options: { dir?: string }) => {
      const { api } = context.connection();
      const path = { sessionId };
      const session = await dataOf(api.GET('/api/sessions/{sessionId}', { params: { path } }));
      const folder = resolve(options.dir ?? sessionId);
      mkdirSync(folder, { recursive: true });
      const written: string[] = [];
      const write = (name: string, value: unknown): void => {
        const file = join(folder, name);
        writeFileSync(file, stringify(value));
        written.push(relative(process.cwd(), file) || file);
      };
      write('session.yaml', {
        kind: 'session',
        sessionId: session.sessionId,
        name: session.name,
        initiator: session.initiator,
        ...(session.description === '' ? {} : { description: session.description }),
      });
      for (const workflowId of session.workflows) {
        const definition = await dataOf(
          api.GET('/api/sessions/{sessionId}/workflows/{workflowId}', {
            params: { path: { sessionId, workflowId } },
          }),
        );
        write(`${workflowId}.yaml`, { sessionId, ...definition });
      }
      if (context.output.json) context.output.value(written);
      else for (const file of written) context.output.line(`wrote ${file}`);
    });
}

/** Local problems, then the server's verdict on each workflow file. */
async function checked(context: CommandContext, files: LoadedFiles): Promise<LoadedFiles> {
  const { api } = context.connection();
  const problems: FileProblem[] = [...files.problems];
  for (const workflow of files.workflows) {
    try {
      const result = await dataOf(
        api.POST('/api/sessions/validate', { body: workflow.definition }),
      );
      for (const error of result.errors) {
        problems.push({
          file: workflow.file,
          path: error.field,
          line: workflow.lineOf(error.field),
          message: error.message,
        });
      }
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 400 || error.fields.length === 0) {
        throw error;
      }
      for (const field of error.fields) {
        problems.push({
          file: workflow.file,
          path: field.field,
          line: workflow.lineOf(field.field),
          message: field.message,
        });
      }
    }
  }
  return { ...files, problems };
}

export function stopOnProblems(context: CommandContext, problems: readonly FileProblem[]): void {
  if (problems.length === 0) return;
  reportProblems(context, problems);
  throw new CliError(`${String(problems.length)} problem(s) found; nothing was changed`);
}

function reportProblems(context: CommandContext, problems: readonly FileProblem[]): void {
  if (context.output.json) {
    context.output.value(problems.map((problem) => ({ ...problem, file: shown(problem.file) })));
    return;
  }
  for (const problem of problems) {
    const where = `${shown(problem.file)}${problem.line === null ? '' : `:${String(problem.line)}`}`;
    const field = problem.path === '' ? '' : `${problem.path}: `;
    context.output.line(
      `${where}: ${context.output.paint('red', 'error')} ${field}${problem.message}`,
    );
  }
}

async function applyChange(
  context: CommandContext,
  change: Change,
  note: string | null,
): Promise<Change & { version?: number }> {
  const { api } = context.connection();
  switch (change.action) {
    case 'create-session': {
      const { action: _action, ...body } = change;
      await dataOf(api.POST('/api/sessions', { body }));
      return change;
    }
    case 'create-workflow':
    case 'change-workflow': {
      const saved = await dataOf(
        api.PUT('/api/sessions/{sessionId}/workflows/{workflowId}', {
          params: {
            path: { sessionId: change.sessionId, workflowId: change.workflowId },
            query: note === null ? {} : { note },
          },
          body: change.definition,
        }),
      );
      return { ...change, version: saved.version };
    }
    case 'unchanged':
      return change;
  }
}

function printChanges(
  context: CommandContext,
  changes: readonly (Change & { version?: number })[],
  applied: boolean,
): void {
  const output = context.output;
  if (output.json) {
    output.value(
      changes.map((change) => {
        if (change.action === 'create-session') return change;
        const { definition: _definition, ...rest } = change as Change & { definition?: unknown };
        return { ...rest, file: shown(change.file) };
      }),
    );
    return;
  }
  const pending = changes.filter((change) => change.action !== 'unchanged');
  for (const change of changes) {
    switch (change.action) {
      case 'create-session':
        output.line(output.paint('green', `+ session ${change.sessionId}`) + ` (${change.name})`);
        break;
      case 'create-workflow':
        output.line(
          output.paint('green', `+ workflow ${change.sessionId}/${change.workflowId}`) +
            version(change),
        );
        break;
      case 'change-workflow':
        output.line(
          output.paint('yellow', `~ workflow ${change.sessionId}/${change.workflowId}`) +
            version(change),
        );
        for (const line of change.differences) output.line(`    ${line}`);
        break;
      case 'unchanged':
        output.line(output.paint('dim', `= workflow ${change.sessionId}/${change.workflowId}`));
        break;
    }
  }
  if (pending.length === 0) output.line('Nothing to change: the server has what the files say.');
  else if (!applied) output.line(`${String(pending.length)} change(s) to apply.`);
  else output.line(`Applied ${String(pending.length)} change(s).`);
}

function progressOf(change: Change): string {
  return change.action === 'create-session'
    ? `Creating session ${change.sessionId}`
    : `Saving ${change.sessionId}/${change.workflowId}`;
}

const version = (change: { version?: number }): string =>
  change.version === undefined ? '' : ` -> version ${String(change.version)}`;

function shown(file: string): string {
  const path = relative(process.cwd(), file);
  return path === '' || path.startsWith('..') ? file : path;
}

/** `<short hash> <subject>` of the last commit touching the files, when they are in git. */
function gitCommitOf(path: string): string | null {
  try {
    const text = execFileSync('git', ['log', '-1', '--format=%h %s', '--', '.'], {
      cwd: statSync(path).isDirectory() ? resolve(path) : dirname(resolve(path)),
      stdio: ['ignore', 'pipe', 'ignore'],
      encoding: 'utf8',
    }).trim();
    return text === '' ? null : text.slice(0, 1024);
  } catch {
    return null;
  }
}
