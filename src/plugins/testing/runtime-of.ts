// The run-time part of a plugin for a configuration, as the host makes it when a node starts:
// the configuration parsed by the plugin's schema, the settings the plugin declares.
import type { Settings } from '../../config/index.js';
import type { NodeRuntime, PluginDefinition, PluginSetup } from '../../plugin-api/index.js';
import { TOOL_SETTINGS, settingsOf } from '../settings-of.js';

/** A node's setup with the plugin's settings made from the tools' defaults and `settings`. */
export function setupOf<Config, S>(
  plugin: PluginDefinition<Config, S>,
  settings: Partial<Settings> = {},
  nodeId = 'node',
): PluginSetup<S> {
  const server = { ...TOOL_SETTINGS, ...settings };
  return { nodeId, settings: settingsOf(plugin as PluginDefinition<unknown, S>, server) };
}

export function runtimeOf<Config, S>(
  plugin: PluginDefinition<Config, S>,
  config: unknown,
  settings: Partial<Settings> = {},
): NodeRuntime {
  if (plugin.create === undefined) throw new Error(`${plugin.type} cannot run`);
  return plugin.create(plugin.configSchema.parse(config), setupOf(plugin, settings));
}
