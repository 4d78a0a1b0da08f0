// The plugin host: the plugin types of this build, frozen after boot, as the engine's
// PluginCatalog and as discovery records (CONTRACT section 4, plugin discovery).
import type { Settings } from '../config/index.js';
import { parseFields } from '../engine/index.js';
import type { PluginCatalog, PluginDescriptor } from '../engine/index.js';
import { z } from '../plugin-api/index.js';
import type { NodeKind, PluginDefinition } from '../plugin-api/index.js';
import { TOOL_SETTINGS, settingsOf } from './settings-of.js';

/** Origin of the plugin types every build includes. */
export const CORE_PLUGIN = 'core';

export interface RegisteredPlugin extends PluginDescriptor {
  readonly description: string;
  /** The optional plugin that provides the type, or `core`. */
  readonly plugin: string;
  /** Idle timeout when a node sets no `timeoutSeconds`; absent when there is none. */
  readonly defaultTimeoutSeconds?: number;
}

/** What plugin discovery shows of one type. */
export interface PluginInfo {
  readonly type: string;
  readonly kind: NodeKind;
  readonly description: string;
  readonly plugin: string;
  /** Ports of an empty configuration; for a type that needs configuration, its fixed ports. */
  readonly ports: readonly string[];
  /** JSON Schema of the configuration as a user writes it. */
  readonly configSchema: Record<string, unknown>;
  readonly defaultTimeoutSeconds: number | null;
}

interface Entry {
  readonly plugin: RegisteredPlugin;
  readonly info: () => PluginInfo;
  /** Releases the type's settings, if they were made. */
  readonly close: () => Promise<void>;
}

/**
 * Ports when no valid configuration is at hand. The built-in `outputPorts` tolerate a
 * missing list of names, so an empty configuration yields the ports every node of the
 * type has; any other plugin falls back to `out`.
 */
function fixedPorts<Config, S>(definition: PluginDefinition<Config, S>): readonly string[] {
  const empty = parseFields(definition.configSchema, {});
  if (empty.ok) return definition.outputPorts(empty.value);
  // Deliberately called with what is not a Config: a plugin whose ports need the configuration
  // throws, and gets the fallback below.
  const portsOfAnything = definition.outputPorts as (config: unknown) => readonly string[];
  try {
    return portsOfAnything({});
  } catch {
    return ['out'];
  }
}

interface Once<T> {
  (): T;
  /** The value, if it was made. */
  readonly made: () => { readonly value: T } | undefined;
}

function once<T>(make: () => T): Once<T> {
  let made: { readonly value: T } | undefined;
  return Object.assign(() => (made ??= { value: make() }).value, { made: () => made });
}

function toEntry<Config, S>(
  definition: PluginDefinition<Config, S>,
  origin: string,
  server: Settings,
): Entry {
  // Validation asks for the ports of each configuration right after checking it; keeping
  // the parsed value spares a second parse. Configurations are read-only by contract.
  const parsedConfigs = new WeakMap<object, Config>();
  const parse = (config: Readonly<Record<string, unknown>>) => {
    const parsed = parseFields(definition.configSchema, config);
    if (parsed.ok) parsedConfigs.set(config, parsed.value);
    return parsed;
  };
  // Made once for the server, when a node of the type first runs.
  const settings = once(() => settingsOf(definition as PluginDefinition<unknown, S>, server));
  const plugin: RegisteredPlugin = {
    type: definition.type,
    kind: definition.kind,
    description: definition.description,
    plugin: origin,
    ...(definition.defaultTimeoutSeconds === undefined
      ? {}
      : { defaultTimeoutSeconds: definition.defaultTimeoutSeconds }),
    ...(definition.pure === true ? { pure: true } : {}),
    ...(definition.wholeStream === true ? { wholeStream: true } : {}),
    validateConfig: (config) => {
      const parsed = parse(config);
      return parsed.ok ? [] : parsed.errors;
    },
    outputPorts: (config) => {
      const known = parsedConfigs.get(config);
      if (known !== undefined) return definition.outputPorts(known);
      const parsed = parse(config);
      return parsed.ok ? definition.outputPorts(parsed.value) : fixedPorts(definition);
    },
    createRuntime: (config, setup) => {
      if (definition.create === undefined) {
        throw new Error(`Plugin type '${definition.type}' cannot run in this version`);
      }
      let value = parsedConfigs.get(config);
      if (value === undefined) {
        const parsed = parse(config);
        if (!parsed.ok) {
          throw new Error(`Configuration of plugin type '${definition.type}' is invalid`);
        }
        value = parsed.value;
      }
      return definition.create(value, { ...setup, settings: settings() });
    },
  };
  // Discovery is rare and JSON Schema generation is not free: made on first request.
  const info = once((): PluginInfo => ({
    type: definition.type,
    kind: definition.kind,
    description: definition.description,
    plugin: origin,
    ports: fixedPorts(definition),
    configSchema: z.toJSONSchema(definition.configSchema, {
      io: 'input',
      unrepresentable: 'any',
    }),
    defaultTimeoutSeconds: definition.defaultTimeoutSeconds ?? null,
  }));
  const close = async () => {
    const made = settings.made();
    if (made !== undefined) await definition.settings?.close?.(made.value);
  };
  return { plugin, info, close };
}

export class PluginRegistry implements PluginCatalog {
  readonly #entries = new Map<string, Entry>();
  /** Types of optional plugins this build leaves out, with the plugin that provides them. */
  readonly #excluded = new Map<string, string>();
  /** The server's settings, of which each type gets the keys it declares. */
  readonly #settings: Settings;
  #frozen = false;

  constructor(settings: Settings = TOOL_SETTINGS) {
    this.#settings = settings;
  }

  /** Adds a type; `origin` names its optional plugin, or `core`. */
  register<Config, S>(definition: PluginDefinition<Config, S>, origin: string): void {
    this.#assertOpen(definition.type);
    if (this.#entries.has(definition.type)) {
      throw new Error(`Plugin type '${definition.type}' is already registered`);
    }
    this.#entries.set(definition.type, toEntry(definition, origin, this.#settings));
  }

  /** Records a type of an optional plugin left out of this build, so it is not "unknown". */
  exclude(type: string, origin: string): void {
    this.#assertOpen(type);
    this.#excluded.set(type, origin);
  }

  /** After boot the set of types never changes (SPEC Build-time choices). */
  freeze(): this {
    this.#frozen = true;
    return this;
  }

  get frozen(): boolean {
    return this.#frozen;
  }

  find(type: string): RegisteredPlugin | undefined {
    return this.#entries.get(type)?.plugin;
  }

  excludedReason(type: string): string | undefined {
    if (this.#entries.has(type)) return undefined;
    const origin = this.#excluded.get(type);
    return origin === undefined
      ? undefined
      : `Plugin type '${type}' is provided by the optional plugin '${origin}', which this build does not include`;
  }

  /** Discovery records of every type, sorted by type. */
  list(): PluginInfo[] {
    return [...this.#entries.keys()]
      .sort()
      .map((type) => this.describe(type))
      .filter((info) => info !== undefined);
  }

  describe(type: string): PluginInfo | undefined {
    return this.#entries.get(type)?.info();
  }

  /** Releases what the types' settings opened (SCRIPT's worker threads): the server closes. */
  async close(): Promise<void> {
    await Promise.all([...this.#entries.values()].map((entry) => entry.close()));
  }

  #assertOpen(type: string): void {
    if (this.#frozen) {
      throw new Error(`Cannot add plugin type '${type}': the plugin registry is frozen`);
    }
  }
}
