// Builds the frozen registry of one build: the core plugins plus the chosen optional ones.
import type { Settings } from '../config/index.js';
import { AppError } from '../core/index.js';
import { setEvaluationTimeLimit } from '../plugin-api/index.js';
import { OPTIONAL_PLUGINS, corePlugins } from './builtin-plugins.js';
import type { OptionalPluginName, PluginEntry } from './builtin-plugins.js';
import type { DirectoryPlugin } from './plugin-directory.js';
import { CORE_PLUGIN, PluginRegistry } from './registry.js';

export const OPTIONAL_PLUGIN_NAMES = Object.keys(OPTIONAL_PLUGINS) as OptionalPluginName[];

/** `svc.plugins=default`: every optional plugin except script-js. */
export const DEFAULT_OPTIONAL_PLUGINS: readonly OptionalPluginName[] = OPTIONAL_PLUGIN_NAMES.filter(
  (name) => name !== 'script-js',
);

export function isOptionalPluginName(name: string): name is OptionalPluginName {
  return Object.hasOwn(OPTIONAL_PLUGINS, name);
}

export interface PluginRegistryOptions {
  /** The server's settings; each type gets the keys it declares. Defaults for tools and tests. */
  readonly settings?: Settings;
  /** Names of the optional plugins in this build; an unknown name is refused. */
  readonly optionalPlugins: readonly string[];
  /** Plugins of an application that embeds the server (benchmarks, tests), registered last. */
  readonly extraPlugins?: readonly PluginEntry[];
  /** Plugins loaded from `svc.plugins.dir`; a type a built-in or another one has is refused. */
  readonly directoryPlugins?: readonly DirectoryPlugin[];
}

export function createPluginRegistry(options: PluginRegistryOptions): PluginRegistry {
  const unknown = options.optionalPlugins.filter((name) => !isOptionalPluginName(name));
  if (unknown.length > 0) {
    throw new AppError('SETTINGS_INVALID', {
      params: {
        detail: `Unknown optional plugin ${unknown.map((name) => `'${name}'`).join(', ')}; known: ${OPTIONAL_PLUGIN_NAMES.join(', ')}`,
      },
    });
  }
  const chosen = new Set(options.optionalPlugins);
  // Expressions are compiled once for the whole process, and so is their time limit.
  if (options.settings !== undefined) {
    setEvaluationTimeLimit(options.settings['svc.expressions.timeout-ms']);
  }
  const registry = new PluginRegistry(options.settings);
  for (const plugin of corePlugins({ scripts: chosen.has('script-js') })) {
    plugin.register(registry, CORE_PLUGIN);
  }
  for (const name of OPTIONAL_PLUGIN_NAMES) {
    for (const plugin of OPTIONAL_PLUGINS[name]) {
      if (chosen.has(name)) plugin.register(registry, name);
      else registry.exclude(plugin.type, name);
    }
  }
  for (const plugin of options.extraPlugins ?? []) plugin.register(registry, 'embedded');
  registerDirectoryPlugins(registry, options.directoryPlugins ?? []);
  return registry.freeze();
}

/**
 * A directory plugin may not take a built-in type, even one of an optional plugin this build
 * leaves out: a type means the same thing in every build.
 */
function registerDirectoryPlugins(
  registry: PluginRegistry,
  plugins: readonly DirectoryPlugin[],
): void {
  const sources = new Map<string, string>();
  for (const { entry, source, origin } of plugins) {
    const builtin =
      registry.find(entry.type) !== undefined || registry.excludedReason(entry.type) !== undefined;
    const earlier = sources.get(entry.type);
    if (builtin || earlier !== undefined) {
      const owner = earlier === undefined ? 'a built-in type' : `defined by '${earlier}' too`;
      throw new AppError('SETTINGS_INVALID', {
        params: {
          detail: `svc.plugins.dir: plugin '${source}' defines type '${entry.type}', ${owner}`,
        },
      });
    }
    sources.set(entry.type, source);
    entry.register(registry, origin);
  }
}
