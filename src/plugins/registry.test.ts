import { describe, expect, it } from 'vitest';
import { definePlugin, pluginSettings, z } from '../plugin-api/index.js';
import { OPTIONAL_PLUGIN_NAMES, createPluginRegistry } from './create-plugin-registry.js';
import { PluginRegistry } from './registry.js';

const echo = definePlugin({
  type: 'ECHO',
  kind: 'processor',
  description: 'Echoes.',
  configSchema: z.looseObject({
    times: z.number().int().positive().default(1),
    routes: z
      .array(z.object({ name: z.string() }))
      .min(1)
      .optional(),
  }),
  outputPorts: (config) => ['out', ...(config.routes ?? []).map((route) => route.name)],
  defaultTimeoutSeconds: 5,
});

const needy = definePlugin({
  type: 'NEEDY',
  kind: 'trigger',
  description: 'Needs a target.',
  configSchema: z.looseObject({ target: z.string() }),
  outputPorts: () => {
    throw new Error('not for an empty configuration');
  },
});

describe('PluginRegistry', () => {
  it('releases on close only the settings a node made, once each', async () => {
    const closed: string[] = [];
    const opening = (type: string) =>
      definePlugin({
        type,
        kind: 'processor',
        description: 'Opens something its nodes share.',
        configSchema: z.looseObject({}),
        outputPorts: () => ['out'],
        settings: pluginSettings(['svc.script.workers'], () => ({ type }), {
          close: (shared) => {
            closed.push(shared.type);
          },
        }),
        create: () => ({ process: (message) => ({ payload: message.payload }) }),
      });
    const registry = new PluginRegistry();
    registry.register(opening('USED'), 'core');
    registry.register(opening('UNUSED'), 'core');
    registry.find('USED')?.createRuntime({}, { nodeId: 'a' });
    registry.find('USED')?.createRuntime({}, { nodeId: 'b' });
    await registry.close();
    expect(closed).toEqual(['USED']);
  });

  it('takes a type as pure only when it says so: a type that does not may reach outside', () => {
    const registry = new PluginRegistry();
    registry.register(echo, 'core');
    registry.register(definePlugin({ ...echo, type: 'PURE_ECHO', pure: true }), 'core');
    expect(registry.find('ECHO')?.pure).toBeUndefined();
    expect(registry.find('PURE_ECHO')?.pure).toBe(true);
    const builtins = createPluginRegistry({ optionalPlugins: OPTIONAL_PLUGIN_NAMES });
    expect(builtins.find('MAPPER')?.pure).toBe(true);
    expect(builtins.find('HTTP_REQUEST')?.pure).toBeUndefined();
  });

  it('refuses a second registration of the same type', () => {
    const registry = new PluginRegistry();
    registry.register(echo, 'core');
    expect(() => {
      registry.register(echo, 'other');
    }).toThrow("Plugin type 'ECHO' is already registered");
  });

  it('refuses any registration once frozen: the plugin set is fixed at build time (SPEC Build-time choices)', () => {
    const registry = new PluginRegistry().freeze();
    expect(registry.frozen).toBe(true);
    expect(() => {
      registry.register(echo, 'core');
    }).toThrow(/frozen/);
    expect(() => {
      registry.exclude('HTTP_REQUEST', 'http-request');
    }).toThrow(/frozen/);
  });

  it('maps schema problems to FieldErrors relative to config (SPEC FieldError)', () => {
    const registry = new PluginRegistry();
    registry.register(echo, 'core');
    expect(registry.find('ECHO')?.validateConfig({ times: 0, routes: [{ name: 1 }] })).toEqual([
      { field: 'times', message: 'Must be greater than 0' },
      { field: 'routes[0].name', message: 'Expected a string, got an integer' },
    ]);
  });

  it('computes output ports from the parsed configuration, defaults applied', () => {
    const registry = new PluginRegistry();
    registry.register(echo, 'core');
    const descriptor = registry.find('ECHO');
    const config = { routes: [{ name: 'left' }] };
    expect(descriptor?.validateConfig(config)).toEqual([]);
    expect(descriptor?.outputPorts(config)).toEqual(['out', 'left']);
    expect(descriptor?.outputPorts({ routes: [{ name: 'right' }] })).toEqual(['out', 'right']);
  });

  it('knows nothing of an unregistered type and gives no reason for it', () => {
    const registry = new PluginRegistry();
    expect(registry.find('ECHO')).toBeUndefined();
    expect(registry.excludedReason('ECHO')).toBeUndefined();
    expect(registry.describe('ECHO')).toBeUndefined();
  });

  it('explains a type whose optional plugin the build leaves out (SPEC Build-time choices)', () => {
    const registry = new PluginRegistry();
    registry.exclude('HTTP_REQUEST', 'http-request');
    expect(registry.excludedReason('HTTP_REQUEST')).toBe(
      "Plugin type 'HTTP_REQUEST' is provided by the optional plugin 'http-request', which this build does not include",
    );
  });

  it('describes a type for discovery with its JSON Schema, ports and timeout (CONTRACT section 4)', () => {
    const registry = new PluginRegistry();
    registry.register(echo, 'extras');
    expect(registry.describe('ECHO')).toEqual({
      type: 'ECHO',
      kind: 'processor',
      description: 'Echoes.',
      plugin: 'extras',
      ports: ['out'],
      configSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: {
          times: {
            type: 'integer',
            exclusiveMinimum: 0,
            maximum: Number.MAX_SAFE_INTEGER,
            default: 1,
          },
          routes: {
            type: 'array',
            minItems: 1,
            items: {
              type: 'object',
              properties: { name: { type: 'string' } },
              required: ['name'],
            },
          },
        },
        additionalProperties: {},
      },
      defaultTimeoutSeconds: 5,
    });
  });

  it('falls back to out for the ports of a type whose empty configuration is invalid', () => {
    const registry = new PluginRegistry();
    registry.register(needy, 'core');
    expect(registry.describe('NEEDY')?.ports).toEqual(['out']);
    expect(registry.describe('NEEDY')?.defaultTimeoutSeconds).toBeNull();
  });

  it('lists discovery records sorted by type', () => {
    const registry = new PluginRegistry();
    registry.register(needy, 'core');
    registry.register(echo, 'core');
    expect(registry.list().map((info) => info.type)).toEqual(['ECHO', 'NEEDY']);
  });
});

describe('discovery of the built-in types (CONTRACT section 4)', () => {
  const registry = createPluginRegistry({ optionalPlugins: OPTIONAL_PLUGIN_NAMES });

  it.each(registry.list().map((info) => [info.type, info] as const))(
    '%s has an object JSON Schema of its input configuration',
    (_type, info) => {
      expect(info.configSchema).toMatchObject({ type: 'object', additionalProperties: {} });
      expect(JSON.parse(JSON.stringify(info.configSchema))).toEqual(info.configSchema);
      expect(info.ports[0]).toBe('out');
    },
  );

  it('shows defaults as optional with their default value', () => {
    const schema = registry.describe('HTTP_REQUEST')?.configSchema;
    expect(schema?.['required']).toEqual(['url']);
    expect(schema?.['properties']).toMatchObject({ method: { default: 'GET' } });
  });

  it('lists the fixed ports of a type whose ports come from configuration', () => {
    expect(registry.describe('BRANCH')?.ports).toEqual(['out', 'default']);
    expect(registry.describe('CLASSIFY')?.ports).toEqual(['out', 'default']);
    expect(registry.describe('RECIPIENT_LIST')?.ports).toEqual(['out']);
    expect(registry.describe('FILTER')?.ports).toEqual(['out', 'rejected']);
  });
});
