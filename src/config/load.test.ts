import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isAppError } from '../core/index.js';
import type { AppError } from '../core/index.js';
import { defaultSettings, loadSettings } from './load.js';
import type { LoadSettingsOptions, LoadedSettings } from './load.js';

const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-config-'));
afterAll(() => {
  fs.rmSync(directory, { recursive: true, force: true });
});

let fileCount = 0;
function yamlFile(text: string): string {
  fileCount += 1;
  const file = path.join(directory, `settings-${fileCount}.yaml`);
  fs.writeFileSync(file, text);
  return file;
}

type Env = Record<string, string | undefined>;

function load(
  argv: readonly string[] = [],
  env: Env = {},
  extra: Partial<LoadSettingsOptions> = {},
): LoadedSettings {
  return loadSettings({ argv, env, ...extra });
}

function failure(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (isAppError(error)) return error;
    throw error;
  }
  throw new Error('expected loading to fail');
}

function failureMessage(run: () => unknown): string {
  const error = failure(run);
  expect(error.code).toBe('SETTINGS_INVALID');
  return error.message;
}

describe('where settings come from (CONTRACT 5)', () => {
  it('reads SVC_SERVER_PORT over the YAML file and --svc.server.port over both (CONTRACT 5)', () => {
    const file = yamlFile('svc:\n  server:\n    port: 9001\n');
    const config = `--config=${file}`;
    expect(load([]).settings['svc.server.port']).toBe(8080);
    expect(load([config]).settings['svc.server.port']).toBe(9001);
    expect(load([config], { SVC_SERVER_PORT: '9002' }).settings['svc.server.port']).toBe(9002);
    expect(
      load([config, '--svc.server.port=9003'], { SVC_SERVER_PORT: '9002' }).settings[
        'svc.server.port'
      ],
    ).toBe(9003);
  });

  it('keeps the profile default for every setting no source names', () => {
    const file = yamlFile('svc:\n  server.port: 9001\n');
    const { settings } = load(['prod', '--config', file], { SVC_SERVER_ADDRESS: '0.0.0.0' });
    expect(settings).toEqual({
      ...defaultSettings('prod'),
      'svc.server.port': 9001,
      'svc.server.address': '0.0.0.0',
    });
  });

  it('reads --svc.a.b value as well as --svc.a.b=value, the later argument winning', () => {
    expect(load(['--svc.server.port', '7000']).settings['svc.server.port']).toBe(7000);
    expect(
      load(['--svc.server.port=7000', '--svc.server.port=7001']).settings['svc.server.port'],
    ).toBe(7001);
  });

  it('replaces a list from a lower source as a whole instead of merging its items', () => {
    const file = yamlFile('svc:\n  allowed-hosts: [a.example, b.example]\n');
    const { settings } = load([`--config=${file}`], { SVC_ALLOWED_HOSTS: 'c.example' });
    expect(settings['svc.allowed-hosts']).toEqual(['c.example']);
  });

  it('gathers the names of a free-form map from every source', () => {
    const file = yamlFile('svc:\n  var:\n    region: eu\n    db:\n      host: db1\n');
    const { settings } = load(
      [`--config=${file}`, '--svc.var.region=us', '--svc.llm.rate-limit.local=5'],
      { SVC_LLM_RATE_LIMIT_OPENAI: '60', SVC_LLM_RATE_LIMIT_AZURE_OPENAI: '30' },
    );
    expect({ ...settings['svc.var.*'] }).toEqual({ region: 'us', 'db.host': 'db1' });
    expect({ ...settings['svc.llm.rate-limit.*'] }).toEqual({
      openai: 60,
      'azure-openai': 30,
      local: 5,
    });
  });

  it('reads the file named by SVC_CONFIG_FILE relative to cwd, and --config over it', () => {
    const fromEnv = yamlFile('svc:\n  server.port: 9101\n');
    const fromArgs = yamlFile('svc:\n  server.port: 9102\n');
    const env = { SVC_CONFIG_FILE: path.basename(fromEnv) };
    const viaEnv = load([], env, { cwd: directory });
    expect(viaEnv.configFile).toBe(fromEnv);
    expect(viaEnv.settings['svc.server.port']).toBe(9101);
    const viaArgs = load(['--config', fromArgs], env, { cwd: directory });
    expect(viaArgs.configFile).toBe(fromArgs);
    expect(viaArgs.settings['svc.server.port']).toBe(9102);
    expect(load([]).configFile).toBeNull();
  });

  it('reads dotted and nested keys under svc: in the YAML file alike', () => {
    const file = yamlFile(
      [
        'svc:',
        '  server.address: 0.0.0.0',
        '  server:',
        '    compression.enabled: true',
        '  logging.level:',
        '    root: error',
        'svc.mcp.enabled: false',
      ].join('\n'),
    );
    const { settings } = load([`--config=${file}`]);
    expect(settings['svc.server.address']).toBe('0.0.0.0');
    expect(settings['svc.server.compression.enabled']).toBe(true);
    expect(settings['svc.logging.level.root']).toBe('ERROR');
    expect(settings['svc.mcp.enabled']).toBe(false);
  });

  it('turns an optional setting off again with an empty variable or YAML null', () => {
    const file = yamlFile('svc:\n  api-key: one\n  execution:\n    max-concurrent: 4\n');
    const fromFile = load([`--config=${file}`]).settings;
    expect(fromFile['svc.api-key']).toBe('one');
    expect(fromFile['svc.execution.max-concurrent']).toBe(4);
    const off = load([`--config=${file}`, '--svc.execution.max-concurrent='], { SVC_API_KEY: '' });
    expect(off.settings['svc.api-key']).toBeNull();
    expect(off.settings['svc.execution.max-concurrent']).toBeNull();
    const nulled = yamlFile('svc:\n  execution.queue-timeout: ~\n');
    expect(load([`--config=${nulled}`]).settings['svc.execution.queue-timeout']).toBeNull();
  });

  it('hands out settings that cannot be changed by a consumer', () => {
    const { settings } = load(['--svc.allowed-hosts=a,b']);
    expect(Object.isFrozen(settings)).toBe(true);
    expect(Object.isFrozen(settings['svc.allowed-hosts'])).toBe(true);
  });
});

describe('values (CONTRACT 5)', () => {
  it.each([
    ['30s', 30_000],
    ['5m', 300_000],
    ['1h', 3_600_000],
    ['250ms', 250],
    ['2d', 172_800_000],
    ['45000', 45_000],
  ])('reads the duration %s as %i ms', (raw, ms) => {
    const { settings } = load([], { SVC_EXECUTION_SHUTDOWN_TIMEOUT: raw });
    expect(settings['svc.execution.shutdown-timeout']).toBe(ms);
  });

  it('reads a YAML number given for a duration as milliseconds', () => {
    const file = yamlFile('svc:\n  results.ttl: 1500\n  execution.queue-timeout: 2m\n');
    const { settings } = load([`--config=${file}`]);
    expect(settings['svc.results.ttl']).toBe(1500);
    expect(settings['svc.execution.queue-timeout']).toBe(120_000);
  });

  it.each([
    ['512KB', 524_288],
    ['4MB', 4_194_304],
    ['1GB', 1_073_741_824],
    ['1MiB', 1_048_576],
    ['2048', 2048],
  ])('reads SVC_LIMITS_MAX_BODY=%s as %i bytes', (raw, bytes) => {
    expect(load([], { SVC_LIMITS_MAX_BODY: raw }).settings['svc.limits.max-body']).toBe(bytes);
  });

  it('refuses a size it cannot read, naming the variable', () => {
    expect(failureMessage(() => load([], { SVC_LIMITS_MAX_BODY: 'lots' }))).toBe(
      "Invalid value 'lots' for setting 'svc.limits.max-body' (environment variable SVC_LIMITS_MAX_BODY): expected a size in bytes such as 1048576, 512KB, 4MB, 1GB or 1MiB",
    );
  });

  it('reads a string list comma separated or as indexed entries from the environment', () => {
    expect(
      load([], { SVC_ALLOWED_HOSTS: 'a.example, b.example' }).settings['svc.allowed-hosts'],
    ).toEqual(['a.example', 'b.example']);
    expect(
      load([], { SVC_ALLOWED_HOSTS_1: 'b.example', SVC_ALLOWED_HOSTS_0: 'a.example' }).settings[
        'svc.allowed-hosts'
      ],
    ).toEqual(['a.example', 'b.example']);
  });

  it('reads a string list on the command line comma separated or indexed', () => {
    expect(load(['--svc.allowed-hosts=a,b']).settings['svc.allowed-hosts']).toEqual(['a', 'b']);
    expect(
      load(['--svc.allowed-hosts[0]=a', '--svc.allowed-hosts[1]', 'b']).settings[
        'svc.allowed-hosts'
      ],
    ).toEqual(['a', 'b']);
  });

  it('reads a string list in YAML as a list or a comma-separated string', () => {
    const asList = yamlFile('svc:\n  process:\n    allowed-commands: [echo, "ls"]\n');
    const asText = yamlFile('svc:\n  process:\n    allowed-commands: echo,ls\n');
    for (const file of [asList, asText]) {
      expect(load([`--config=${file}`]).settings['svc.process.allowed-commands']).toEqual([
        'echo',
        'ls',
      ]);
    }
  });

  it('maps SVC_VARIABLES_ALLOWED to svc.variables.allowed', () => {
    const loaded = load([], { SVC_VARIABLES_ALLOWED: 'REGION,STAGE' });
    expect(loaded.settings['svc.variables.allowed']).toEqual(['REGION', 'STAGE']);
    expect(loaded.warnings).toEqual([]);
  });

  it('keeps a pattern with a comma whole when given as an indexed entry, and splits only a plain string (SPEC Workflow-author safeguards)', () => {
    const indexed = load([
      '--svc.llm.deny-input-patterns[0]=a{1,3}',
      '--svc.llm.deny-input-patterns[1]=secret',
    ]);
    expect(indexed.settings['svc.llm.deny-input-patterns']).toEqual(['a{1,3}', 'secret']);
    const fromEnv = load([], { SVC_LLM_DENY_OUTPUT_PATTERNS_0: 'x{2,}' });
    expect(fromEnv.settings['svc.llm.deny-output-patterns']).toEqual(['x{2,}']);
    const plain = load(['--svc.mcp-client.deny-argument-patterns=password,token']);
    expect(plain.settings['svc.mcp-client.deny-argument-patterns']).toEqual(['password', 'token']);
  });

  it('refuses a pattern that does not compile, naming its index', () => {
    expect(failureMessage(() => load(['--svc.llm.deny-input-patterns=ok,(']))).toMatch(
      /^Invalid value '\(' for setting 'svc\.llm\.deny-input-patterns\[1\]' \(command line\): not a valid regular expression: /,
    );
  });

  it('refuses a list given both whole and indexed by one source', () => {
    expect(failureMessage(() => load(['--svc.allowed-hosts=a', '--svc.allowed-hosts[1]=b']))).toBe(
      "Setting 'svc.allowed-hosts' is given both as a whole and as indexed entries (command line); use one form",
    );
  });

  it('refuses indexed entries with a gap', () => {
    expect(failureMessage(() => load([], { SVC_ALLOWED_HOSTS_1: 'b' }))).toBe(
      "Invalid value for setting 'svc.allowed-hosts' (environment variable SVC_ALLOWED_HOSTS_1): entry svc.allowed-hosts[0] is missing; indexes count up from 0",
    );
  });

  it('accepts full origins, normalised as browsers send them, and refuses anything else (CONTRACT 5)', () => {
    const { settings } = load([
      '--svc.allowed-origins=https://app.example:8443,HTTP://Local.Example,https://x.example:443',
    ]);
    expect(settings['svc.allowed-origins']).toEqual([
      'https://app.example:8443',
      'http://local.example',
      'https://x.example',
    ]);
    for (const bad of [
      'app.example',
      'https://app.example/',
      'https://app.example/path',
      'ftp://a',
    ]) {
      expect(failureMessage(() => load([`--svc.allowed-origins[0]=${bad}`]))).toBe(
        `Invalid value '${bad}' for setting 'svc.allowed-origins[0]' (command line): expected an origin such as https://app.example:8443 (scheme, host, port)`,
      );
    }
  });

  it('accepts postgres:// and postgresql:// database URLs and refuses others without echoing them (CONTRACT 5)', () => {
    const { settings } = load([], {
      SVC_DB_URL: 'postgres://app@db:5432/svc',
      SVC_DB_MIGRATION_URL: 'postgresql://owner:pw@db/svc',
    });
    expect(settings['svc.db.url']).toBe('postgres://app@db:5432/svc');
    expect(settings['svc.db.migration-url']).toBe('postgresql://owner:pw@db/svc');
    const message = failureMessage(() => load([], { SVC_DB_URL: 'mysql://u:hunter2@db/svc' }));
    expect(message).toBe(
      "Invalid value for setting 'svc.db.url' (environment variable SVC_DB_URL): expected a postgres:// or postgresql:// URL",
    );
    expect(message).not.toContain('hunter2');
  });

  it('checks integer bounds, e.g. a port from 0 to 65535 and 0 picking a free port', () => {
    expect(load(['--svc.server.port=0']).settings['svc.server.port']).toBe(0);
    expect(failureMessage(() => load(['--svc.server.port=70000']))).toBe(
      "Invalid value '70000' for setting 'svc.server.port' (command line): expected an integer from 0 to 65535",
    );
    expect(
      failureMessage(() => load(['--svc.logs.store.retention.default-period-minutes=0'])),
    ).toContain('expected an integer from 1 to 1440');
  });

  it('bounds the script pool and the memory of a script sandbox', () => {
    const { settings } = load([], { SVC_SCRIPT_WORKERS: '4', SVC_SCRIPT_MAX_MEMORY: '16MB' });
    expect(settings['svc.script.workers']).toBe(4);
    expect(settings['svc.script.max-memory']).toBe(16 * 1024 * 1024);
    expect(failureMessage(() => load(['--svc.script.workers=0']))).toContain(
      'expected an integer from 1 to 64',
    );
    expect(failureMessage(() => load(['--svc.script.max-memory=512KB']))).toContain(
      'expected at least 1048576 bytes',
    );
  });

  it('checks the payload limit and the byte budgets of docs/limits.md', () => {
    const { settings } = load(['--svc.limits.max-payload=64MB', '--svc.results.max-bytes=0']);
    expect(settings['svc.limits.max-payload']).toBe(64 * 1024 * 1024);
    expect(settings['svc.results.max-bytes']).toBe(0);
    expect(failureMessage(() => load(['--svc.limits.max-payload=1GB']))).toBe(
      "Invalid value '1GB' for setting 'svc.limits.max-payload' (command line): expected at most 512MB (536870912 bytes)",
    );
    expect(failureMessage(() => load(['--svc.limits.max-payload=0']))).toContain(
      'expected at least 1 bytes',
    );
    expect(failureMessage(() => load(['--svc.restart.max-bytes=2000GB']))).toContain(
      'expected at most 1024GB',
    );
  });
});

describe('lists of entries (SPEC Authentication, CONTRACT 5)', () => {
  const digest = 'AB'.repeat(32);

  it('reads svc.api-keys from indexed environment variables with the entry defaults', () => {
    const { settings, warnings } = load([], {
      SVC_API_KEYS_0_NAME: 'ci',
      SVC_API_KEYS_0_KEY: 'secret-one',
      SVC_API_KEYS_0_ROLE: 'operator',
      SVC_API_KEYS_0_SESSIONS: 's1, s2',
      SVC_API_KEYS_1_KEY: `sha256:${digest}`,
      SVC_API_KEYS_1_SESSIONS_0: 'only,one',
    });
    expect(warnings).toEqual([]);
    expect(settings['svc.api-keys']).toEqual([
      { name: 'ci', key: 'secret-one', role: 'OPERATOR', sessions: ['s1', 's2'] },
      {
        name: 'unnamed',
        key: `sha256:${digest.toLowerCase()}`,
        role: 'VIEWER',
        sessions: ['only,one'],
      },
    ]);
  });

  it('reads svc.api-keys from a YAML list of mappings', () => {
    const file = yamlFile(
      [
        'svc:',
        '  api-keys:',
        '    - name: admin',
        '      key: k1',
        '      role: ADMIN',
        '    - key: 12345',
        '      sessions: [a, b]',
      ].join('\n'),
    );
    expect(load([`--config=${file}`]).settings['svc.api-keys']).toEqual([
      { name: 'admin', key: 'k1', role: 'ADMIN', sessions: null },
      { name: 'unnamed', key: '12345', role: 'VIEWER', sessions: ['a', 'b'] },
    ]);
  });

  it('reads svc.api-keys from indexed command-line arguments', () => {
    const { settings } = load([
      '--svc.api-keys[0].key=k0',
      '--svc.api-keys[0].sessions[0]=s',
      '--svc.api-keys[1].key',
      'k1',
      '--svc.api-keys[1].role=ADMIN',
    ]);
    expect(settings['svc.api-keys']).toEqual([
      { name: 'unnamed', key: 'k0', role: 'VIEWER', sessions: ['s'] },
      { name: 'unnamed', key: 'k1', role: 'ADMIN', sessions: null },
    ]);
  });

  it('refuses a sha256: key without exactly 64 hexadecimal digits, naming the entry', () => {
    for (const key of [
      `sha256:${'a'.repeat(63)}`,
      `sha256:${'g'.repeat(64)}`,
      `SHA256:${'a'.repeat(65)}`,
    ]) {
      expect(
        failureMessage(() => load([], { SVC_API_KEYS_0_KEY: 'fine', SVC_API_KEYS_1_KEY: key })),
      ).toBe(
        "Invalid value for setting 'svc.api-keys' (environment variables SVC_API_KEYS_0_KEY, SVC_API_KEYS_1_KEY): svc.api-keys[1].key: expected plain text, or 'sha256:' followed by exactly 64 hexadecimal digits",
      );
    }
  });

  it('refuses an entry without a key, an unknown role and an empty session list', () => {
    expect(failureMessage(() => load(['--svc.api-keys[0].name=x']))).toBe(
      "Invalid value for setting 'svc.api-keys' (command line): svc.api-keys[0].key: is required",
    );
    expect(
      failureMessage(() => load(['--svc.api-keys[0].key=k', '--svc.api-keys[0].role=root'])),
    ).toBe(
      "Invalid value for setting 'svc.api-keys' (command line): svc.api-keys[0].role: expected one of VIEWER, OPERATOR, ADMIN",
    );
    expect(
      failureMessage(() => load(['--svc.api-keys[0].key=k', '--svc.api-keys[0].sessions='])),
    ).toContain('svc.api-keys[0].sessions: must name at least one session');
  });

  it('refuses an unknown entry field: as an unknown setting on the command line, by name in YAML', () => {
    expect(failureMessage(() => load(['--svc.api-keys[0].owner=me']))).toBe(
      "Unknown setting 'svc.api-keys[0].owner' (command line)",
    );
    const file = yamlFile('svc:\n  api-keys:\n    - key: k\n      owner: me\n');
    expect(failureMessage(() => load([`--config=${file}`]))).toBe(
      `Invalid value for setting 'svc.api-keys' (configuration file ${file}): svc.api-keys[0]: unknown field 'owner'`,
    );
  });

  it('warns about an environment variable naming an unknown entry field', () => {
    const { settings, warnings } = load([], {
      SVC_API_KEYS_0_KEY: 'k',
      SVC_API_KEYS_0_OWNER: 'me',
    });
    expect(settings['svc.api-keys']).toHaveLength(1);
    expect(warnings).toEqual([
      'Ignoring environment variable SVC_API_KEYS_0_OWNER: it names no setting',
    ]);
  });

  it('reads review and rule supervisors from YAML (CONTRACT 5)', () => {
    const file = yamlFile(
      [
        'svc:',
        '  supervisors:',
        '    - id: guard',
        '      type: review',
        '      deny:',
        '        - command: stop',
        '          actor: key:ci',
        '        - sessionId: prod-1',
        '    - id: pager',
        '      type: RULE',
        '      rules:',
        '        - on: node.failed',
        "          when: nodeId = 'load'",
        '          command: pause',
        '          target: run',
      ].join('\n'),
    );
    expect(load([`--config=${file}`]).settings['svc.supervisors']).toEqual([
      {
        id: 'guard',
        type: 'review',
        deny: [
          { command: 'STOP', actor: 'key:ci', sessionId: null, nodeId: null },
          { command: null, actor: null, sessionId: 'prod-1', nodeId: null },
        ],
      },
      {
        id: 'pager',
        type: 'rule',
        rules: [{ on: 'node.failed', when: "nodeId = 'load'", command: 'PAUSE', target: 'run' }],
      },
    ]);
  });

  it('reads supervisors from nested indexed environment variables', () => {
    const { settings } = load([], {
      SVC_SUPERVISORS_0_ID: 'guard',
      SVC_SUPERVISORS_0_TYPE: 'review',
      SVC_SUPERVISORS_0_DENY_0_SESSIONID: 's1',
      SVC_SUPERVISORS_0_DENY_0_NODEID: 'n1',
    });
    expect(settings['svc.supervisors']).toEqual([
      {
        id: 'guard',
        type: 'review',
        deny: [{ command: null, actor: null, sessionId: 's1', nodeId: 'n1' }],
      },
    ]);
  });

  it('refuses a supervisor of an unknown type, a rule without its fields, and a repeated id', () => {
    expect(
      failureMessage(() => load(['--svc.supervisors[0].id=a', '--svc.supervisors[0].type=watch'])),
    ).toBe(
      "Invalid value for setting 'svc.supervisors' (command line): svc.supervisors[0].type: expected review or rule",
    );
    expect(
      failureMessage(() =>
        load([
          '--svc.supervisors[0].id=a',
          '--svc.supervisors[0].type=rule',
          '--svc.supervisors[0].rules[0].on=node.failed',
          '--svc.supervisors[0].rules[0].target=everything',
        ]),
      ),
    ).toBe(
      "Invalid value for setting 'svc.supervisors' (command line): svc.supervisors[0].rules[0].command: is required; svc.supervisors[0].rules[0].target: expected one of run, node",
    );
    expect(
      failureMessage(() =>
        load([
          '--svc.supervisors[0].id=a',
          '--svc.supervisors[0].type=review',
          '--svc.supervisors[1].id=a',
          '--svc.supervisors[1].type=rule',
        ]),
      ),
    ).toBe(
      "Invalid value for setting 'svc.supervisors' (command line): svc.supervisors[1].id: repeats the id of entry [0]",
    );
  });
});

describe('refusals (CONTRACT 5)', () => {
  it('refuses an unknown svc.* key on the command line, naming it', () => {
    expect(failureMessage(() => load(['--svc.foo.bar=1']))).toBe(
      "Unknown setting 'svc.foo.bar' (command line)",
    );
  });

  it('refuses an unknown svc.* key in the YAML file, naming it and the file', () => {
    const file = yamlFile('svc:\n  foo:\n    bar: 1\n');
    expect(failureMessage(() => load([`--config=${file}`]))).toBe(
      `Unknown setting 'svc.foo.bar' (configuration file ${file})`,
    );
    const indexed = yamlFile('svc:\n  server:\n    port[0]: 1\n');
    expect(failureMessage(() => load([`--config=${indexed}`]))).toBe(
      `Unknown setting 'svc.server.port[0]' (configuration file ${indexed})`,
    );
  });

  it('refuses a bad value naming the setting, its source and what was expected', () => {
    expect(failureMessage(() => load([], { SVC_SERVER_PORT: 'abc' }))).toBe(
      "Invalid value 'abc' for setting 'svc.server.port' (environment variable SVC_SERVER_PORT): expected an integer",
    );
    const file = yamlFile('svc:\n  mcp.enabled: maybe\n');
    expect(failureMessage(() => load([`--config=${file}`]))).toBe(
      `Invalid value 'maybe' for setting 'svc.mcp.enabled' (configuration file ${file}): expected true or false`,
    );
    expect(failureMessage(() => load(['--svc.execution.on-limit=WAIT']))).toBe(
      "Invalid value 'WAIT' for setting 'svc.execution.on-limit' (command line): expected one of REJECT, QUEUE",
    );
  });

  it('refuses an unknown command-line argument', () => {
    for (const arg of ['--verbose', 'start', '-x', '--svcfoo=1']) {
      expect(failureMessage(() => load([arg]))).toBe(`Unknown command-line argument '${arg}'`);
    }
  });

  it('refuses a setting, --profile or --config without a value', () => {
    expect(failureMessage(() => load(['--svc.server.port']))).toBe(
      "Missing value for '--svc.server.port' (command line)",
    );
    expect(failureMessage(() => load(['--profile', '--svc.server.port=1']))).toBe(
      "Missing value for '--profile' (command line)",
    );
    expect(failureMessage(() => load(['--config=']))).toBe(
      "Missing value for '--config' (command line)",
    );
  });

  it('keeps the value of a secret setting out of its message', () => {
    const message = failureMessage(() =>
      load([], { SVC_API_KEYS_0_KEY: 'sha256:short', SVC_WORKERS_TOKEN: 'fine' }),
    );
    expect(message).not.toContain('short');
  });

  it('warns, without failing, when svc.process.allow-any cannot take effect', () => {
    const { warnings } = load([
      '--svc.process.allow-any=true',
      '--svc.process.allowed-commands=ls',
    ]);
    expect(warnings).toEqual([
      'svc.process.allow-any has no effect while svc.process.allowed-commands is set',
    ]);
  });
});

describe('the YAML file (CONTRACT 5)', () => {
  it('refuses a missing file, naming it', () => {
    const file = path.join(directory, 'absent.yaml');
    expect(failureMessage(() => load(['--config', file]))).toBe(
      `Configuration file '${file}' does not exist`,
    );
    expect(failureMessage(() => load([], { SVC_CONFIG_FILE: file }))).toBe(
      `Configuration file '${file}' does not exist`,
    );
  });

  it('refuses a file that is not YAML, naming it', () => {
    const file = yamlFile('svc: [\n  server: {\n');
    expect(failureMessage(() => load([`--config=${file}`]))).toMatch(
      new RegExp(`^Configuration file '${file.replace(/[.\\]/g, '\\$&')}' is not valid YAML: .+`),
    );
  });

  it('refuses a file that is not a mapping, and a directory', () => {
    const file = yamlFile('- svc\n');
    expect(failureMessage(() => load([`--config=${file}`]))).toBe(
      `Configuration file '${file}' must hold a mapping with the settings under 'svc:'`,
    );
    expect(failureMessage(() => load([`--config=${directory}`]))).toMatch(
      /^Configuration file '.+' cannot be read: /,
    );
  });

  it('reads an empty file as no settings, and warns about top-level keys other than svc', () => {
    expect(load([`--config=${yamlFile('')}`]).settings).toEqual(defaultSettings('dev'));
    const file = yamlFile('svc:\n  server.port: 1\nlogging:\n  level: debug\n');
    expect(load([`--config=${file}`]).warnings).toEqual([
      `Ignoring key 'logging' in configuration file ${file}: settings live under 'svc:'`,
    ]);
  });

  it('refuses a structure given where a single value belongs', () => {
    const file = yamlFile('svc:\n  server:\n    port:\n      value: 1\n');
    expect(failureMessage(() => load([`--config=${file}`]))).toBe(
      `Invalid value '{"value":1}' for setting 'svc.server.port' (configuration file ${file}): expected an integer`,
    );
  });
});

describe('profiles (SPEC Runtime profiles, CONTRACT 5)', () => {
  it('runs as dev with no profile named, or as the given default profile', () => {
    expect(load().profile).toBe('dev');
    const prod = load([], {}, { defaultProfile: 'prod' });
    expect(prod.profile).toBe('prod');
    expect(prod.settings['svc.logging.level.root']).toBe('WARN');
  });

  it('takes the profile from SVC_PROFILES_ACTIVE over the default', () => {
    const loaded = load([], { SVC_PROFILES_ACTIVE: 'prod' }, { defaultProfile: 'dev' });
    expect(loaded.profile).toBe('prod');
    expect(loaded.warnings).toEqual([]);
  });

  it.each([[['--profile', 'prod']], [['--profile=prod']], [['prod']]])(
    'takes the profile from %j over SVC_PROFILES_ACTIVE',
    (argv) => {
      const loaded = load(argv, { SVC_PROFILES_ACTIVE: 'dev' });
      expect(loaded.profile).toBe('prod');
      expect(loaded.settings).toEqual(defaultSettings('prod'));
    },
  );

  it('refuses an unknown profile from the command line or the environment', () => {
    expect(failureMessage(() => load(['--profile=staging']))).toBe(
      "Unknown profile 'staging' (command line): expected dev, prod, postgres",
    );
    expect(failureMessage(() => load([], { SVC_PROFILES_ACTIVE: 'staging' }))).toBe(
      "Unknown profile 'staging' (environment variable SVC_PROFILES_ACTIVE): expected dev, prod, postgres",
    );
  });

  it('refuses two different profiles on one command line', () => {
    expect(failureMessage(() => load(['dev', '--profile=prod']))).toBe(
      "Two profiles on the command line: 'dev' and 'prod'; name one",
    );
  });

  it('refuses the postgres profile in a build without the relational-database stores', () => {
    const expected =
      "Profile 'postgres' needs the relational-database stores, which this build does not include (build with svc.persistence=postgres)";
    expect(failureMessage(() => load(['postgres']))).toBe(expected);
    expect(
      failureMessage(() =>
        load([], { SVC_PROFILES_ACTIVE: 'postgres' }, { features: { postgres: false } }),
      ),
    ).toBe(expected);
  });

  const DATABASE = {
    SVC_DB_URL: 'postgres://app@db:5432/svc',
    SVC_DB_MIGRATION_URL: 'postgres://owner@db:5432/svc',
  };

  it('loads the postgres profile as dev with relational stores when the build has them', () => {
    const loaded = load(['postgres'], DATABASE, { features: { postgres: true } });
    expect(loaded.profile).toBe('postgres');
    expect(loaded.settings['svc.session.store-type']).toBe('postgres');
    expect(loaded.settings['svc.restart.store-type']).toBe('postgres');
    expect(loaded.settings['svc.execution-log.store-type']).toBe('postgres');
    expect(loaded.settings['svc.db.schema']).toBe('svc');
    expect(loaded.settings['svc.logging.level.engine']).toBe('TRACE');
    expect(loaded.warnings).toEqual([]);
  });

  it('refuses a postgres store type in a build without the relational-database stores', () => {
    expect(failureMessage(() => load([], { SVC_RESTART_STORE_TYPE: 'postgres' }))).toBe(
      "Setting 'svc.restart.store-type=postgres' needs the relational-database stores, which this build does not include (build with svc.persistence=postgres)",
    );
    expect(failureMessage(() => load([], { SVC_EXECUTION_LOG_STORE_TYPE: 'postgres' }))).toBe(
      "Setting 'svc.execution-log.store-type=postgres' needs the relational-database stores, which this build does not include (build with svc.persistence=postgres)",
    );
  });

  it('refuses the relational stores unless both database URLs are set, naming the missing ones (SPEC Errors)', () => {
    const postgres = { features: { postgres: true } };
    const hint =
      'The relational-database stores need svc.db.url (the run-time account) and svc.db.migration-url (the account that may change the schema); not set: ';
    expect(failureMessage(() => load(['postgres'], {}, postgres))).toBe(
      `${hint}svc.db.url (SVC_DB_URL) and svc.db.migration-url (SVC_DB_MIGRATION_URL)`,
    );
    expect(
      failureMessage(() => load(['postgres'], { SVC_DB_URL: DATABASE.SVC_DB_URL }, postgres)),
    ).toBe(`${hint}svc.db.migration-url (SVC_DB_MIGRATION_URL)`);
    expect(
      failureMessage(() =>
        load(
          ['--svc.session.store-type=postgres'],
          { SVC_DB_MIGRATION_URL: DATABASE.SVC_DB_MIGRATION_URL },
          postgres,
        ),
      ),
    ).toBe(`${hint}svc.db.url (SVC_DB_URL)`);
    expect(load([], {}, postgres).settings['svc.db.url']).toBeNull();
  });

  it('warns that a store directory has no effect while its store is relational', () => {
    const loaded = load(
      ['postgres', '--svc.restart.dir=/tmp/c', '--svc.execution-log.dir=/tmp/l'],
      DATABASE,
      { features: { postgres: true } },
    );
    expect(loaded.warnings).toEqual([
      'svc.restart.dir has no effect while svc.restart.store-type=postgres',
      'svc.execution-log.dir has no effect while svc.execution-log.store-type=postgres',
    ]);
  });

  it('takes a plain lower-case schema name only', () => {
    expect(load(['--svc.db.schema=svc_2']).settings['svc.db.schema']).toBe('svc_2');
    expect(failureMessage(() => load(['--svc.db.schema=Svc; drop']))).toBe(
      "Invalid value 'Svc; drop' for setting 'svc.db.schema' (command line): expected a schema name of lower-case letters, digits and _ (at most 63, not starting with a digit)",
    );
  });
});

describe('the environment (CONTRACT 5)', () => {
  it('warns about an unknown SVC_* variable, naming it, and carries on', () => {
    const loaded = load([], { SVC_SERVER_PROT: '1', SVC_SERVER_PORT: '9000' });
    expect(loaded.settings['svc.server.port']).toBe(9000);
    expect(loaded.warnings).toEqual([
      'Ignoring environment variable SVC_SERVER_PROT: it names no setting',
    ]);
  });

  it('silently ignores variables read elsewhere and variables of other programs', () => {
    const file = yamlFile('');
    const loaded = load([], {
      SVC_VAR_REGION: 'eu',
      SVC_SECRET_DB_PASSWORD: 'pw',
      SVC_TEST_DB_URL: 'postgres://localhost/test',
      SVC_CONFIG_FILE: file,
      SVC_PROFILES_ACTIVE: 'dev',
      SVC_PLUGINS: 'all',
      SVC_PERSISTENCE: 'postgres',
      SVC_WORKERS: 'true',
      SVC_WORKERS_NATIVE: 'worker',
      PATH: '/usr/bin',
      HOME: '/home/svc',
      UNSET: undefined,
    });
    expect(loaded.warnings).toEqual([]);
    expect(loaded.settings).toEqual(defaultSettings('dev'));
  });

  it('does not read svc.var.* from the environment, whose SVC_VAR_* names are placeholders', () => {
    expect({ ...load([], { SVC_VAR_REGION: 'eu' }).settings['svc.var.*'] }).toEqual({});
  });
});

describe('the profile of a native binary (SPEC Runtime profiles)', () => {
  const native = { role: 'control-plane' } as const;

  it('runs as prod unless a profile is passed on the command line', () => {
    expect(loadSettings({ argv: [], env: {}, native }).profile).toBe('prod');
    expect(loadSettings({ argv: ['dev'], env: {}, native }).profile).toBe('dev');
    expect(loadSettings({ argv: ['--profile', 'dev'], env: {}, native }).profile).toBe('dev');
  });

  it('keeps prod when SVC_PROFILES_ACTIVE names another profile', () => {
    expect(loadSettings({ argv: [], env: { SVC_PROFILES_ACTIVE: 'dev' }, native }).profile).toBe(
      'prod',
    );
    // Without a native binary the environment chooses, as before.
    expect(loadSettings({ argv: [], env: { SVC_PROFILES_ACTIVE: 'prod' } }).profile).toBe('prod');
  });

  it('starts in the role it was built with (svc.workers.native) unless a setting names another', () => {
    const worker = { role: 'worker' } as const;
    expect(loadSettings({ argv: [], env: {}, native: worker }).settings['svc.workers.role']).toBe(
      'worker',
    );
    expect(
      loadSettings({ argv: ['--svc.workers.role=control-plane'], env: {}, native: worker })
        .settings['svc.workers.role'],
    ).toBe('control-plane');
  });
});
