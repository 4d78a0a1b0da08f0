// A small PluginCatalog made from plain data, so engine tests need no real plugins.
import type { FieldError } from '../../core/index.js';
import type { NodeRuntime } from '../../plugin-api/index.js';
import type { NodeKind, PluginCatalog, PluginDescriptor } from '../ports.js';

export interface TestPluginType {
  readonly kind: NodeKind;
  /** Keys whose absence is a configuration error. */
  readonly required?: readonly string[];
  /** Extra ports named by the string array under this configuration key. */
  readonly portsFrom?: string;
  /** The run-time part, for engine tests that run workflows. */
  readonly runtime?: (config: Readonly<Record<string, unknown>>) => NodeRuntime;
  readonly defaultTimeoutSeconds?: number;
  /** Reaches nothing outside the run (`PluginDescriptor.pure`). */
  readonly pure?: boolean;
}

export function createTestCatalog(
  types: Readonly<Record<string, TestPluginType>>,
  excluded: Readonly<Record<string, string>> = {},
): PluginCatalog {
  const descriptors = new Map<string, PluginDescriptor>(
    Object.entries(types).map(([type, spec]) => [
      type,
      {
        type,
        kind: spec.kind,
        validateConfig: (config): FieldError[] =>
          (spec.required ?? [])
            .filter((key) => config[key] === undefined)
            .map((key) => ({ field: key, message: `Missing required key '${key}'` })),
        outputPorts: (config) => {
          const extra = spec.portsFrom === undefined ? undefined : config[spec.portsFrom];
          return ['out', ...(Array.isArray(extra) ? extra.map(String) : [])];
        },
        ...(spec.defaultTimeoutSeconds === undefined
          ? {}
          : { defaultTimeoutSeconds: spec.defaultTimeoutSeconds }),
        ...(spec.pure === true ? { pure: true } : {}),
        createRuntime: (config) => {
          if (spec.runtime === undefined) throw new Error(`Type '${type}' cannot run`);
          return spec.runtime(config);
        },
      },
    ]),
  );
  return {
    find: (type) => descriptors.get(type),
    excludedReason: (type) => {
      const plugin = excluded[type];
      return plugin === undefined
        ? undefined
        : `Plugin type '${type}' is provided by the optional plugin '${plugin}', which this build does not include`;
    },
  };
}

/** Triggers, a configurable processor with ports from `routes`, and a terminal. */
export const testCatalog = createTestCatalog(
  {
    START: { kind: 'trigger' },
    STEP: { kind: 'processor', required: ['expression'] },
    ROUTE: { kind: 'processor', portsFrom: 'routes' },
    END: { kind: 'terminal' },
  },
  { REMOTE_CALL: 'remote-calls' },
);
