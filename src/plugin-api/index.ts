// The only surface a plugin compiles against. Built-in plugins import nothing else.
import { z } from 'zod';

export { z };

export type NodeKind = 'trigger' | 'processor' | 'terminal';

export interface MessageHeaders {
  /** 1 on the first attempt, incremented by each retry of the same message. */
  readonly attempt: number;
  readonly [name: string]: unknown;
}

/** CONTRACT section 1: a message; `id` is stable across replays and resumes. */
export interface Message {
  readonly id: string;
  readonly payload: unknown;
  readonly headers: MessageHeaders;
}

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
}

/** Declares a plugin type with its configuration type inferred from the schema. */
export function definePlugin<Schema extends z.ZodType>(
  definition: PluginDefinition<z.output<Schema>> & { readonly configSchema: Schema },
): PluginDefinition<z.output<Schema>> {
  return definition;
}
