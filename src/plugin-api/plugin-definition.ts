// A plugin type: what it is, the configuration it accepts, the ports it emits on and the
// factory of its run-time part.
import type { z } from 'zod';
import type { NodeRuntime } from './node-runtime.js';
import type { NodeSetup } from './node-setup.js';
import type { PluginSettings } from './plugin-settings.js';

export type NodeKind = 'trigger' | 'processor' | 'terminal';

/**
 * A plugin type: what it is, the configuration it accepts and the ports it emits on.
 * Engine settings (`timeoutSeconds`, `onError`, `engine.*`) are the runtime's and are
 * checked by it; `configSchema` covers the plugin's own keys and may accept more keys.
 */
export interface PluginDefinition<Config, Settings = undefined> {
  readonly type: string;
  readonly kind: NodeKind;
  /** One sentence for plugin discovery and docs. */
  readonly description: string;
  readonly configSchema: z.ZodType<Config>;
  /** Output ports for a valid configuration; every node has `out`. */
  readonly outputPorts: (config: Config) => readonly string[];
  /** Idle timeout applied when the node sets no `timeoutSeconds`; none when absent. */
  readonly defaultTimeoutSeconds?: number;
  /**
   * True when the type reaches nothing outside the run: its output depends only on its input,
   * its configuration and the start payload. A replay check (docs/run-repair.md) runs pure
   * types for real and answers every other type from what the run recorded, so a check never
   * calls outside. Absent means not pure: a type that does not say is assumed to have effects.
   */
  readonly pure?: boolean;
  /**
   * True when the runtime takes the whole input stream (a `StreamNode`), not one message at a
   * time. Validation refuses to place such a processor on a remote worker, which runs messages
   * one by one. Absent means per message.
   */
  readonly wholeStream?: boolean;
  /** The server settings the type reads; without it, `setup.settings` is undefined. */
  readonly settings?: PluginSettings<Settings>;
  /** The run-time part; a type without one cannot run yet and fails to prepare. */
  readonly create?: NodeFactory<Config, Settings>;
}

/**
 * Declares a plugin type with its configuration type inferred from the schema, and the type
 * of its settings from `settings`.
 */
export function definePlugin<Schema extends z.ZodType, Settings = undefined>(
  definition: PluginDefinition<z.output<Schema>, Settings> & { readonly configSchema: Schema },
): PluginDefinition<z.output<Schema>, Settings> {
  return definition;
}

/** What a plugin's factory gets for one node: the run's setup and the type's own settings. */
export interface PluginSetup<Settings> extends NodeSetup {
  readonly settings: Settings;
}

/** Makes the run-time part of a plugin for one node and its parsed configuration. */
export type NodeFactory<Config, Settings = undefined> = (
  config: Config,
  setup: PluginSetup<Settings>,
) => NodeRuntime;
