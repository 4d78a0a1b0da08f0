// The run-time part of a plugin for a configuration, as the engine makes it when a node
// starts: the configuration parsed by the plugin's schema, the server's safeguards.
import { DEFAULT_SAFEGUARDS } from '../../plugin-api/index.js';
import type { NodeRuntime, PluginDefinition, Safeguards } from '../../plugin-api/index.js';

export function runtimeOf<Config>(
  plugin: PluginDefinition<Config>,
  config: unknown,
  safeguards: Partial<Safeguards> = {},
): NodeRuntime {
  if (plugin.create === undefined) throw new Error(`${plugin.type} cannot run`);
  return plugin.create(plugin.configSchema.parse(config), {
    nodeId: 'node',
    safeguards: { ...DEFAULT_SAFEGUARDS, ...safeguards },
  });
}
