// A plugin type: what it is, the configuration it accepts, the ports it emits on and the
// factory of its run-time part.
import type { z } from 'zod';
import type { NodeRuntime } from './node-runtime.js';
import type { NodeSetup } from './node-setup.js';

export type NodeKind = 'trigger' | 'processor' | 'terminal';

/**
 * A plugin type: what it is, the configuration it accepts and the ports it emits on.
 * Engine settings (`timeoutSeconds`, `onError`, `engine.*`) are the runtime's and are
 * checked by it; `configSchema` covers the plugin's own keys and may accept more keys.
 */
export interface PluginDefinition<Config> {
  readonly type: string;
  readonly kind: NodeKind;
  /** One sentence for plugin discovery and docs. */
  readonly description: string;
  readonly configSchema: z.ZodType<Config>;
  /** Output ports for a valid configuration; every node has `out`. */
  readonly outputPorts: (config: Config) => readonly string[];
  /** Idle timeout applied when the node sets no `timeoutSeconds`; none when absent. */
  readonly defaultTimeoutSeconds?: number;
  /** The run-time part; a type without one cannot run yet and fails to prepare. */
  readonly create?: NodeFactory<Config>;
}

/** Declares a plugin type with its configuration type inferred from the schema. */
export function definePlugin<Schema extends z.ZodType>(
  definition: PluginDefinition<z.output<Schema>> & { readonly configSchema: Schema },
): PluginDefinition<z.output<Schema>> {
  return definition;
}

/** Makes the run-time part of a plugin for one node and its parsed configuration. */
export type NodeFactory<Config> = (config: Config, setup: NodeSetup) => NodeRuntime;
