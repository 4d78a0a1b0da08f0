// `svc context`: named servers (and their keys) saved in the user's config file.
import type { Command } from 'commander';
import { CliError } from '../cli-error.js';
import type { CommandContext } from '../command-context.js';
import { configPath, readConfig, writeConfig } from '../contexts.js';

export function registerContextCommands(program: Command, context: CommandContext): void {
  const contexts = program
    .command('context')
    .description('Save named servers so commands need no --server and --key')
    .addHelpText(
      'after',
      '\nExample:\n  svc context add prod https://svc.example.org --key "$KEY"\n  svc context use prod\n',
    );
  const file = (): string => configPath(context.env);

  contexts
    .command('add')
    .description(
      'Save a server under a name, with the key given by --key (the first one saved is current)',
    )
    .argument('<name>', 'the name of the context')
    .argument('<server>', 'the server address')
    .addHelpText(
      'after',
      '\nExample:\n  svc context add prod https://svc.example.org --key "$PROD_KEY"\n',
    )
    .action((name: string, server: string, _options: unknown, command: Command) => {
      const { key } = command.optsWithGlobals<{ key?: string }>();
      const config = readConfig(file());
      const saved = { server, ...(key === undefined ? {} : { key }) };
      writeConfig(file(), {
        current: config.current ?? name,
        contexts: { ...config.contexts, [name]: saved },
      });
      context.output.line(`Saved context ${name} in ${file()}`);
    });

  contexts
    .command('use')
    .description('Make a saved context the current one')
    .argument('<name>', 'the name of the context')
    .addHelpText('after', '\nExample:\n  svc context use prod\n')
    .action((name: string) => {
      const config = readConfig(file());
      if (config.contexts[name] === undefined) {
        throw new CliError(`No context named '${name}' (svc context ls lists them)`);
      }
      writeConfig(file(), { ...config, current: name });
      context.output.line(`Using context ${name}`);
    });

  contexts
    .command('ls')
    .description('List the saved contexts; * marks the current one')
    .addHelpText('after', '\nExample:\n  svc context ls --output json\n')
    .action(() => {
      const config = readConfig(file());
      const rows = Object.entries(config.contexts).map(([name, saved]) => ({
        current: name === config.current,
        name,
        server: saved.server,
        key: saved.key === undefined ? 'none' : 'saved',
      }));
      context.output.table(
        rows,
        [
          { header: '', value: (row) => (row.current ? '*' : '') },
          { header: 'NAME', value: (row) => row.name },
          { header: 'SERVER', value: (row) => row.server },
          { header: 'KEY', value: (row) => row.key },
        ],
        'No contexts saved (svc context add NAME --server URL).',
      );
    });

  contexts
    .command('rm')
    .description('Forget a saved context')
    .argument('<name>', 'the name of the context')
    .addHelpText('after', '\nExample:\n  svc context rm prod\n')
    .action((name: string) => {
      const config = readConfig(file());
      if (config.contexts[name] === undefined) throw new CliError(`No context named '${name}'`);
      const { [name]: _removed, ...rest } = config.contexts;
      writeConfig(file(), {
        current: config.current === name ? null : config.current,
        contexts: rest,
      });
      context.output.line(`Removed context ${name}`);
    });
}
