import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ApiKeyEntry, SupervisorEntry } from './list-entries.js';
import { defaultSettings } from './load.js';
import { POSTGRES_OVERRIDES, PROFILE_NAMES, SETTINGS, SETTING_KEYS, isMapKey } from './schema.js';
import type { LogLevel, SettingSpec, Settings } from './schema.js';
import { settingEnvName } from './setting-names.js';

// Read through the widest spec type, so each codec can take any of the values under test.
function specOf(key: (typeof SETTING_KEYS)[number]): SettingSpec<unknown> {
  return SETTINGS[key];
}

describe('settings schema', () => {
  it('gives every default a value its own setting accepts, in every profile', () => {
    for (const profile of PROFILE_NAMES) {
      const settings = defaultSettings(profile);
      for (const key of SETTING_KEYS) {
        const parsed = specOf(key).codec.parse(settings[key], key);
        expect(parsed, `${key} in ${profile}`).toEqual({ ok: true, value: settings[key] });
      }
    }
  });

  it('writes every scalar and list default in a form the loader reads back unchanged', () => {
    for (const key of SETTING_KEYS) {
      const spec = specOf(key);
      if (spec.codec.kind === 'map' || spec.codec.kind === 'object-list') continue;
      for (const value of [spec.dev, spec.prod]) {
        const written = value === null ? '' : spec.codec.format(value);
        expect(spec.codec.parse(written, key), key).toEqual({ ok: true, value });
      }
    }
  });

  it('gives every setting its own environment variable name', () => {
    const names = SETTING_KEYS.map(settingEnvName);
    expect(new Set(names).size).toBe(names.length);
    expect(settingEnvName('svc.server.port')).toBe('SVC_SERVER_PORT');
    expect(settingEnvName('svc.api-keys')).toBe('SVC_API_KEYS');
    expect(settingEnvName('svc.mcp-client.max-argument-bytes')).toBe(
      'SVC_MCP_CLIENT_MAX_ARGUMENT_BYTES',
    );
    expect(settingEnvName('svc.llm.rate-limit.*')).toBe('SVC_LLM_RATE_LIMIT_*');
  });

  it('never makes one key a dotted prefix of another, so every dotted name has one meaning', () => {
    const names = SETTING_KEYS.map((key) => (isMapKey(key) ? key.slice(0, -2) : key));
    for (const name of names) {
      for (const other of names) {
        expect(other.startsWith(`${name}.`), `${name} / ${other}`).toBe(false);
      }
    }
  });

  it('documents every setting in one line', () => {
    for (const key of SETTING_KEYS) {
      expect(specOf(key).doc, key).toMatch(/^[^\n]{10,}$/);
    }
  });

  it('types each value as its consumers read it', () => {
    const settings = defaultSettings('dev');
    expectTypeOf(settings['svc.server.port']).toEqualTypeOf<number>();
    expectTypeOf(settings['svc.api-key']).toEqualTypeOf<string | null>();
    expectTypeOf(settings['svc.api-keys']).toEqualTypeOf<readonly ApiKeyEntry[]>();
    expectTypeOf(settings['svc.supervisors']).toEqualTypeOf<readonly SupervisorEntry[]>();
    expectTypeOf(settings['svc.logging.level.root']).toEqualTypeOf<LogLevel>();
    expectTypeOf(settings['svc.execution.queue-timeout']).toEqualTypeOf<number | null>();
    expectTypeOf(settings['svc.allowed-hosts']).toEqualTypeOf<readonly string[]>();
    expectTypeOf(settings['svc.var.*']).toEqualTypeOf<Readonly<Record<string, string>>>();
    expectTypeOf(settings['svc.session.store-type']).toEqualTypeOf<
      'memory' | 'file' | 'postgres'
    >();
    expect(settings['svc.server.port']).toBe(8080);
  });
});

describe('profile defaults (SPEC Runtime profiles)', () => {
  const dev = defaultSettings('dev');
  const prod = defaultSettings('prod');

  it('listens on 127.0.0.1:8080 in both profiles', () => {
    for (const settings of [dev, prod]) {
      expect(settings['svc.server.address']).toBe('127.0.0.1');
      expect(settings['svc.server.port']).toBe(8080);
    }
  });

  it('exposes health, info, metrics, loggers, mappings and threaddump in dev, and health, info, metrics in prod', () => {
    expect(dev['svc.management.exposure.include']).toEqual([
      'health',
      'info',
      'metrics',
      'loggers',
      'mappings',
      'threaddump',
    ]);
    expect(prod['svc.management.exposure.include']).toEqual(['health', 'info', 'metrics']);
  });

  it('logs the application at DEBUG in dev and INFO in prod', () => {
    expect([dev['svc.logging.level.app'], prod['svc.logging.level.app']]).toEqual([
      'DEBUG',
      'INFO',
    ]);
  });

  it('logs the stream engine at TRACE in dev and INFO in prod', () => {
    expect([dev['svc.logging.level.engine'], prod['svc.logging.level.engine']]).toEqual([
      'TRACE',
      'INFO',
    ]);
  });

  it('logs the root at INFO in dev and WARN in prod', () => {
    expect([dev['svc.logging.level.root'], prod['svc.logging.level.root']]).toEqual([
      'INFO',
      'WARN',
    ]);
  });

  it('compresses responses over 1 KB in prod only', () => {
    expect(dev['svc.server.compression.enabled']).toBe(false);
    expect(prod['svc.server.compression.enabled']).toBe(true);
    expect(prod['svc.server.compression.min-response-size']).toBe(1024);
  });

  it('prints the banner to the console in dev and not in prod', () => {
    expect([dev['svc.main.banner-mode'], prod['svc.main.banner-mode']]).toEqual(['console', 'off']);
  });

  it('enables the tool endpoint, keeps sessions in memory and sets no key in both profiles', () => {
    for (const settings of [dev, prod]) {
      expect(settings['svc.mcp.enabled']).toBe(true);
      expect(settings['svc.session.store-type']).toBe('memory');
      expect(settings['svc.api-key']).toBeNull();
      expect(settings['svc.api-keys']).toEqual([]);
      expect(settings['svc.mcp.api-key']).toBeNull();
    }
  });

  it('makes postgres the dev defaults with relational session, checkpoint and execution log stores', () => {
    const postgres = defaultSettings('postgres');
    expect(postgres).toEqual({ ...dev, ...POSTGRES_OVERRIDES });
    expect(postgres['svc.session.store-type']).toBe('postgres');
    expect(postgres['svc.restart.store-type']).toBe('postgres');
    expect(postgres['svc.execution-log.store-type']).toBe('postgres');
  });

  it('uses the SPEC limits as defaults', () => {
    const expected: Partial<Settings> = {
      'svc.limits.max-body': 1_048_576,
      'svc.execution.queue-capacity': 100,
      'svc.execution.queue-capacity-per-workflow': 0,
      'svc.execution.shutdown-timeout': 30_000,
      'svc.session.execution-timeout-seconds': 3600,
      'svc.execution.on-limit': 'REJECT',
      'svc.execution.max-concurrent': null,
      'svc.tracker.cleanup-ttl': 600_000,
      'svc.start.idempotency-max-keys': 100_000,
      'svc.start.idempotency-ttl': 600_000,
      'svc.restart.retained-executions': 10,
      'svc.restart.messages-per-node': 200,
      'svc.restart.bytes-per-node': 4_194_304,
      'svc.execution-log.retained-runs': 500,
      'svc.execution-log.compact-after': 10_000,
      'svc.results.max-per-execution': 1000,
      'svc.results.max-executions': 200,
      'svc.results.ttl': 3_600_000,
      'svc.logs.store.retention.default-period-minutes': 30,
      'svc.logs.max-per-execution': 10_000,
      'svc.workflow.cache-ttl': 600_000,
      'svc.script.timeout-ms': 10_000,
      'svc.script.max-statements': 50_000_000,
      'svc.script.max-memory': 67_108_864,
      'svc.script.workers': 2,
      'svc.mcp-client.max-argument-bytes': 65_536,
    };
    expect(dev).toMatchObject(expected);
  });

  it('hands out defaults that cannot be changed by a consumer', () => {
    expect(Object.isFrozen(dev)).toBe(true);
    expect(Object.isFrozen(dev['svc.management.exposure.include'])).toBe(true);
  });
});
