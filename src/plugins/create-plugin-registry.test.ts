import { describe, expect, it } from 'vitest';
import { AppError } from '../core/index.js';
import { definePlugin, z } from '../plugin-api/index.js';
import { entry } from './builtin-plugins.js';
import {
  DEFAULT_OPTIONAL_PLUGINS,
  OPTIONAL_PLUGIN_NAMES,
  createPluginRegistry,
} from './create-plugin-registry.js';

const CORE_TYPES = [
  'AGGREGATOR',
  'API_TRIGGER',
  'BRANCH',
  'CONSOLE_TERMINAL',
  'CONSTANT_SOURCE',
  'CONTENT_FILTER',
  'CRON',
  'DELAY',
  'FILTER',
  'LOOP_PREDICATE',
  'LOOP_STREAM',
  'MANUAL',
  'MAPPER',
  'NOTIFY_TERMINAL',
  'RECIPIENT_LIST',
  'SPLITTER',
  'SUB_WORKFLOW',
  'WAIT_FOR_SIGNAL',
];

/** SPEC Build-time choices, table of optional plugins. */
const OPTIONAL_TYPES: Readonly<Record<string, readonly string[]>> = {
  'process-executor': ['PROCESS_EXECUTOR'],
  'http-request': ['HTTP_REQUEST'],
  'file-io': ['FILE_READ', 'FILE_WRITE'],
  'sql-query': ['SQL_QUERY'],
  'llm-call': ['LLM_CALL'],
  'session-memory': ['SESSION_MEMORY'],
  decision: ['SCORE', 'ANOMALY', 'GATE', 'CLASSIFY', 'ASK', 'DEDUPE'],
  'mcp-tool-call': ['MCP_TOOL_CALL', 'MCP_LIST_TOOLS'],
  webhook: ['WEBHOOK_TRIGGER'],
  nats: ['NATS_SUBSCRIBE', 'NATS_PUBLISH'],
  amqp: ['AMQP_CONSUME', 'AMQP_PUBLISH'],
  'redis-streams': ['REDIS_STREAM_READ', 'REDIS_STREAM_ADD'],
  mqtt: ['MQTT_SUBSCRIBE', 'MQTT_PUBLISH'],
  'script-js': [],
};

function typesOf(optionalPlugins: readonly string[]): string[] {
  return createPluginRegistry({ optionalPlugins })
    .list()
    .map((info) => info.type);
}

describe('createPluginRegistry', () => {
  it('knows exactly the optional plugins of SPEC Build-time choices', () => {
    expect([...OPTIONAL_PLUGIN_NAMES].sort()).toEqual(Object.keys(OPTIONAL_TYPES).sort());
    expect(DEFAULT_OPTIONAL_PLUGINS).not.toContain('script-js');
    expect(DEFAULT_OPTIONAL_PLUGINS).toHaveLength(OPTIONAL_PLUGIN_NAMES.length - 1);
  });

  it('always includes triggers, terminals and flow and transform processors (SPEC Build-time choices)', () => {
    expect(typesOf([])).toEqual(CORE_TYPES);
  });

  it.each(Object.entries(OPTIONAL_TYPES))(
    'adds the types of %s and names it as their plugin (SPEC Build-time choices)',
    (name, types) => {
      const registry = createPluginRegistry({ optionalPlugins: [name] });
      expect(registry.list().map((info) => info.type)).toEqual([...CORE_TYPES, ...types].sort());
      for (const type of types) expect(registry.describe(type)?.plugin).toBe(name);
      expect(registry.describe('MANUAL')?.plugin).toBe('core');
    },
  );

  it('explains every optional type the build leaves out (SPEC Build-time choices)', () => {
    const registry = createPluginRegistry({ optionalPlugins: ['decision'] });
    expect(registry.excludedReason('GATE')).toBeUndefined();
    expect(registry.excludedReason('HTTP_REQUEST')).toBe(
      "Plugin type 'HTTP_REQUEST' is provided by the optional plugin 'http-request', which this build does not include",
    );
    for (const [name, types] of Object.entries(OPTIONAL_TYPES)) {
      if (name === 'decision') continue;
      for (const type of types) expect(registry.excludedReason(type)).toContain(`'${name}'`);
    }
    expect(registry.excludedReason('TELEPORT')).toBeUndefined();
  });

  it('returns a frozen registry', () => {
    expect(createPluginRegistry({ optionalPlugins: DEFAULT_OPTIONAL_PLUGINS }).frozen).toBe(true);
  });

  it('refuses an unknown optional plugin name, as the build does (SPEC Build-time choices)', () => {
    expect(() => createPluginRegistry({ optionalPlugins: ['http-request', 'teleport'] })).toThrow(
      AppError,
    );
    expect(() => createPluginRegistry({ optionalPlugins: ['teleport'] })).toThrow(
      "Unknown optional plugin 'teleport'",
    );
  });

  describe('directory plugins (svc.plugins.dir)', () => {
    const fromDirectory = (type: string, name: string) => ({
      entry: entry(
        definePlugin({
          type,
          kind: 'processor',
          description: 'A directory plugin.',
          configSchema: z.object({}),
          outputPorts: () => ['out'],
        }),
      ),
      source: `/plugins/${name}`,
      origin: `dir:${name}`,
    });

    it('registers each under its file name', () => {
      const registry = createPluginRegistry({
        optionalPlugins: [],
        directoryPlugins: [fromDirectory('SHOUT', 'shout.mjs')],
      });
      expect(registry.describe('SHOUT')?.plugin).toBe('dir:shout.mjs');
    });

    it('refuses a built-in type, even one of an optional plugin the build leaves out', () => {
      for (const type of ['FILTER', 'HTTP_REQUEST']) {
        expect(() =>
          createPluginRegistry({
            optionalPlugins: [],
            directoryPlugins: [fromDirectory(type, 'mine.mjs')],
          }),
        ).toThrow(`plugin '/plugins/mine.mjs' defines type '${type}', a built-in type`);
      }
    });

    it('refuses a type two of them define', () => {
      expect(() =>
        createPluginRegistry({
          optionalPlugins: [],
          directoryPlugins: [fromDirectory('SHOUT', 'a.mjs'), fromDirectory('SHOUT', 'b.mjs')],
        }),
      ).toThrow("plugin '/plugins/b.mjs' defines type 'SHOUT', defined by '/plugins/a.mjs' too");
    });
  });
});
