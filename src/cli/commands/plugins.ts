// `svc plugins [TYPE]`: the plugin types of the server, or one type in full.
import type { Command } from 'commander';
import { dataOf } from '../../client/index.js';
import type { CommandContext } from '../command-context.js';

export function registerPluginCommands(program: Command, context: CommandContext): void {
  program
    .command('plugins')
    .description('List the plugin types of the server, or describe one')
    .argument('[type]', 'a plugin type, e.g. MAPPER')
    .addHelpText('after', '\nExample:\n  svc plugins\n  svc plugins HTTP_REQUEST --output json\n')
    .action(async (type: string | undefined) => {
      const { api } = context.connection();
      const output = context.output;
      if (type === undefined) {
        const plugins = await dataOf(api.GET('/api/plugins'));
        output.table(plugins, [
          { header: 'TYPE', value: (plugin) => plugin.type },
          { header: 'KIND', value: (plugin) => plugin.kind },
          { header: 'PORTS', value: (plugin) => plugin.ports.join(',') },
          { header: 'DESCRIPTION', value: (plugin) => plugin.description },
        ]);
        return;
      }
      const plugin = await dataOf(api.GET('/api/plugins/{type}', { params: { path: { type } } }));
      if (output.json) {
        output.value(plugin);
        return;
      }
      output.line(`${plugin.type} (${plugin.kind}) from ${plugin.plugin}`);
      output.line(plugin.description);
      output.line(`ports: ${plugin.ports.join(', ')}`);
      output.line('configuration schema:');
      output.line(JSON.stringify(plugin.configSchema, null, 2));
    });
}
