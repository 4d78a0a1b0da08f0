// The `svc` command line: global options, the commands, and how an ending maps to an exit code.
import { readFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import { EXIT, explain } from './cli-error.js';
import { commandContext } from './command-context.js';
import type { CommandContext } from './command-context.js';
import { registerActivationCommands } from './commands/activation.js';
import { registerContextCommands } from './commands/context.js';
import { registerControlCommands } from './commands/controls.js';
import { registerDeadLetterCommands } from './commands/dead-letters.js';
import { registerExecutionCommands } from './commands/executions.js';
import { registerFileCommands } from './commands/files.js';
import { registerPluginCommands } from './commands/plugins.js';
import { registerSchedulerCommands } from './commands/scheduler.js';
import { DEFAULT_SERVER } from './connection.js';
import { Output, useColour } from './output.js';
import type { OutputFormat, Streams } from './output.js';

interface GlobalOptions {
  readonly server?: string;
  readonly key?: string;
  readonly context?: string;
  readonly output: OutputFormat;
  readonly color: boolean;
}

const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

/** The command line with every command, writing to `streams`. */
export function createProgram(
  streams: Streams,
  env: Readonly<Record<string, string | undefined>>,
): { readonly program: Command; readonly context: CommandContext } {
  const program = new Command('svc')
    .description('Command-line client of the workflow execution service')
    .version(VERSION)
    .option('--server <url>', `the server (SVCCLI_SERVER, a context, or ${DEFAULT_SERVER})`)
    .option('--key <key>', 'the API key (SVCCLI_KEY or a context)')
    .option('--context <name>', 'a saved context (SVCCLI_CONTEXT, or the current one)')
    .addOption(
      new Option('-o, --output <format>', 'table for people, json for scripts')
        .choices(['table', 'json'])
        .default('table'),
    )
    .option('--no-color', 'no colours, even on a terminal')
    .showHelpAfterError('(svc --help lists the commands)')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => streams.stdout.write(text),
      writeErr: (text) => streams.stderr.write(text),
    });
  const options = (): GlobalOptions => program.opts<GlobalOptions>();
  // Made once the options are parsed: the format and colours are global options.
  let output: Output | undefined;
  const out = (): Output =>
    (output ??= new Output(streams, options().output, useColour(streams, env, options().color)));
  const context = commandContext(out, env, () => options());
  registerFileCommands(program, context);
  registerContextCommands(program, context);
  registerExecutionCommands(program, context);
  registerActivationCommands(program, context);
  registerControlCommands(program, context);
  registerDeadLetterCommands(program, context);
  registerPluginCommands(program, context);
  registerSchedulerCommands(program, context);
  return { program, context };
}

/** Runs one command line; answers the exit code. */
export async function runCli(
  argv: readonly string[],
  streams: Streams,
  env: Readonly<Record<string, string | undefined>>,
): Promise<number> {
  const { program, context } = createProgram(streams, env);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version end with code 0; a wrong command line with 2.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    const failure = explain(
      error,
      safeServer(() => context.connection().server),
    );
    context.output.error(failure.message);
    for (const line of failure.details) streams.stderr.write(`  ${line}\n`);
    return failure.exitCode;
  }
}

function safeServer(read: () => string): string {
  try {
    return read();
  } catch {
    return 'the server';
  }
}
