export {
  DEFAULT_OPTIONAL_PLUGINS,
  OPTIONAL_PLUGIN_NAMES,
  createPluginRegistry,
  isOptionalPluginName,
} from './create-plugin-registry.js';
export type { PluginRegistryOptions } from './create-plugin-registry.js';
export type { OptionalPluginName, PluginEntry } from './builtin-plugins.js';
export { entry as pluginEntry } from './builtin-plugins.js';
export { CORE_PLUGIN, PluginRegistry } from './registry.js';
export { PLUGIN_API_SPECIFIER, loadPluginDirectory } from './plugin-directory.js';
export type { DirectoryPlugin } from './plugin-directory.js';
export type { PluginInfo, RegisteredPlugin } from './registry.js';
export {
  DEFAULT_SYNC_SECONDS,
  WEBHOOK_TRIGGER,
  webhookConfigSchema,
} from './builtin/triggers/webhook-trigger.js';
export type { WebhookConfig } from './builtin/triggers/webhook-trigger.js';
