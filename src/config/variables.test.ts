import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { defaultSettings } from './load.js';
import type { Settings } from './schema.js';
import { createConfigResolver, secretEnvName } from './variables.js';
import type { ConfigResolution, ConfigResolverOptions } from './variables.js';

type Env = ConfigResolverOptions['env'];

function settingsWith(overrides: Partial<Pick<Settings, 'svc.variables.allowed' | 'svc.var.*'>>) {
  return { ...defaultSettings('dev'), ...overrides };
}

function resolve(
  config: Record<string, unknown>,
  env: Env = {},
  settings: Pick<Settings, 'svc.variables.allowed' | 'svc.var.*'> = settingsWith({}),
): ConfigResolution {
  return createConfigResolver({ env, settings })(config);
}

function resolved(config: Record<string, unknown>, env: Env = {}, settings = settingsWith({})) {
  const result = resolve(config, env, settings);
  if (!result.ok) throw new Error(`expected success, got: ${result.error}`);
  return result.config;
}

function failure(config: Record<string, unknown>, env: Env = {}, settings = settingsWith({})) {
  const result = resolve(config, env, settings);
  if (result.ok) throw new Error('expected a failure');
  return result.error;
}

describe('createConfigResolver: ${env.NAME}', () => {
  it('reads environment variables starting SVC_VAR_ (SPEC Variables and secrets 1)', () => {
    expect(resolved({ url: '${env.SVC_VAR_HOST}' }, { SVC_VAR_HOST: 'db1' })).toEqual({
      url: 'db1',
    });
  });

  it.each(['HOME', 'USER', 'LANG', 'TZ', 'HOSTNAME', 'PWD', 'PATH'])(
    'reads the always-allowed variable %s (SPEC Variables and secrets 1)',
    (name) => {
      expect(resolved({ value: `\${env.${name}}` }, { [name]: 'v' })).toEqual({ value: 'v' });
    },
  );

  it('refuses an unlisted variable, naming the rule and the listed names (SPEC Variables and secrets 2)', () => {
    expect(failure({ value: '${env.REGION}' }, { REGION: 'eu' })).toBe(
      "Variable '${env.REGION}' is not allowed: environment variables must start with SVC_VAR_, be one of HOME, USER, LANG, TZ, HOSTNAME, PWD, PATH, or be listed in SVC_VARIABLES_ALLOWED or svc.variables.allowed (none listed)",
    );
    expect(
      failure({ value: '${env.REGION}' }, { REGION: 'eu', SVC_VARIABLES_ALLOWED: 'STAGE' }),
    ).toContain('(listed: STAGE)');
  });

  it('reads a name listed in SVC_VARIABLES_ALLOWED (SPEC Variables and secrets 1)', () => {
    const env = { REGION: 'eu', STAGE: 'test', SVC_VARIABLES_ALLOWED: ' REGION , STAGE,' };
    expect(resolved({ value: '${env.REGION}-${env.STAGE}' }, env)).toEqual({ value: 'eu-test' });
  });

  it('reads a name listed in svc.variables.allowed (SPEC Variables and secrets 1)', () => {
    const settings = settingsWith({ 'svc.variables.allowed': ['REGION'] });
    expect(resolved({ value: '${env.REGION}' }, { REGION: 'eu' }, settings)).toEqual({
      value: 'eu',
    });
  });

  it('matches listed names exactly, case included', () => {
    const settings = settingsWith({ 'svc.variables.allowed': ['REGION'] });
    expect(failure({ value: '${env.region}' }, { region: 'eu' }, settings)).toContain(
      'is not allowed',
    );
  });

  it.each(['PASSWORD', 'PASSWD', 'SECRET', 'TOKEN', 'CREDENTIAL', 'PRIVATE', 'KEY'])(
    'blocks a name containing %s even when listed or prefixed (SPEC Variables and secrets 2)',
    (word) => {
      const name = `SVC_VAR_DB_${word.toLowerCase()}`;
      const env = { [name]: 'hunter2', SVC_VARIABLES_ALLOWED: name };
      const settings = settingsWith({ 'svc.variables.allowed': [name] });
      expect(failure({ value: `\${env.${name}}` }, env, settings)).toBe(
        `Variable '\${env.${name}}' is blocked: its name contains ${word}`,
      );
    },
  );

  it('blocks a listed name without the prefix too', () => {
    const env = { DB_PASSWORD: 'hunter2', SVC_VARIABLES_ALLOWED: 'DB_PASSWORD' };
    expect(failure({ value: '${env.DB_PASSWORD}' }, env)).toBe(
      "Variable '${env.DB_PASSWORD}' is blocked: its name contains PASSWORD",
    );
  });

  it('fails on an allowed variable that is not set', () => {
    expect(failure({ value: '${env.SVC_VAR_X}' })).toBe("Variable '${env.SVC_VAR_X}' is not set");
  });

  it('reads an empty variable as the empty string', () => {
    expect(resolved({ value: '[${env.SVC_VAR_X}]' }, { SVC_VAR_X: '' })).toEqual({ value: '[]' });
  });

  it('does not read inherited properties of the environment object as variables', () => {
    const settings = settingsWith({ 'svc.variables.allowed': ['constructor'] });
    expect(failure({ value: '${env.constructor}' }, {}, settings)).toBe(
      "Variable '${env.constructor}' is not set",
    );
  });
});

describe('createConfigResolver: ${sys.name}', () => {
  it('reads svc.var.* settings as system properties starting svc.var. (SPEC Variables and secrets 1)', () => {
    const settings = settingsWith({ 'svc.var.*': { region: 'eu', 'db.host': 'db1' } });
    expect(
      resolved({ value: '${sys.svc.var.region}/${sys.svc.var.db.host}' }, {}, settings),
    ).toEqual({ value: 'eu/db1' });
  });

  it('fails on a svc.var. property that is not configured', () => {
    expect(failure({ value: '${sys.svc.var.region}' })).toBe(
      "Variable '${sys.svc.var.region}' is not set",
    );
  });

  it('reads the built-in properties (SPEC Variables and secrets 1)', () => {
    const config = {
      name: '${sys.os.name}',
      arch: '${sys.os.arch}',
      user: '${sys.user.name}',
      home: '${sys.user.home}',
      dir: '${sys.user.dir}',
    };
    expect(resolved(config)).toEqual({
      name: os.type(),
      arch: os.arch(),
      user: os.userInfo().username,
      home: os.homedir(),
      dir: process.cwd(),
    });
  });

  it('refuses an unlisted property, naming the rule', () => {
    expect(failure({ value: '${sys.region}' })).toBe(
      "Variable '${sys.region}' is not allowed: system properties must start with svc.var., be one of user.name, user.home, user.dir, os.name, os.arch, os.version, file.separator, path.separator, line.separator, or be listed in SVC_VARIABLES_ALLOWED or svc.variables.allowed (none listed)",
    );
  });

  it('reports a listed property that has no value as not set', () => {
    const settings = settingsWith({ 'svc.variables.allowed': ['region'] });
    expect(failure({ value: '${sys.region}' }, {}, settings)).toBe(
      "Variable '${sys.region}' is not set",
    );
  });

  it('blocks a property whose name holds a blocked word, even below svc.var. and listed (SPEC Variables and secrets 2)', () => {
    const settings = settingsWith({
      'svc.var.*': { 'api-key': 'k-123' },
      'svc.variables.allowed': ['svc.var.api-key'],
    });
    expect(failure({ value: '${sys.svc.var.api-key}' }, {}, settings)).toBe(
      "Variable '${sys.svc.var.api-key}' is blocked: its name contains KEY",
    );
  });
});

describe('createConfigResolver: decrypted:<name>', () => {
  it.each([
    ['db', 'SVC_SECRET_DB'],
    ['db.password', 'SVC_SECRET_DB_PASSWORD'],
    ['my-api/key 2', 'SVC_SECRET_MY_API_KEY_2'],
    ['Mixed.Case', 'SVC_SECRET_MIXED_CASE'],
  ])('reads decrypted:%s from %s (SPEC Variables and secrets 3)', (name, variable) => {
    expect(secretEnvName(name)).toBe(variable);
    expect(resolved({ password: `decrypted:${name}` }, { [variable]: 's3cr3t' })).toEqual({
      password: 's3cr3t',
    });
  });

  it('fails on a secret that is not set, naming the variable but no value', () => {
    expect(failure({ password: 'decrypted:db' })).toBe("Secret 'db' is not set (SVC_SECRET_DB)");
  });

  it('fails on a reference that names no secret', () => {
    expect(failure({ password: 'decrypted:' })).toBe(
      "Secret reference 'decrypted:' names no secret",
    );
  });

  it('replaces only a whole string, and never resolves placeholders inside the name or value', () => {
    const env = { SVC_SECRET_DB: '${env.SVC_VAR_X}', SVC_VAR_X: 'x' };
    expect(
      resolved({ a: 'decrypted:db', b: 'value decrypted:db', c: 'Decrypted:db' }, env),
    ).toEqual({ a: '${env.SVC_VAR_X}', b: 'value decrypted:db', c: 'Decrypted:db' });
  });
});

describe('createConfigResolver: walking the configuration', () => {
  it('resolves several placeholders in one string and keeps the text around them', () => {
    const env = { SVC_VAR_HOST: 'db1', SVC_VAR_PORT: '5432' };
    expect(resolved({ url: 'http://${env.SVC_VAR_HOST}:${env.SVC_VAR_PORT}/x' }, env)).toEqual({
      url: 'http://db1:5432/x',
    });
  });

  it('leaves unknown namespaces and unfinished placeholders as literal text', () => {
    const config = { a: '${foo.bar}', b: '${env.SVC_VAR_X', c: '$env.SVC_VAR_X', d: '${env}' };
    expect(resolved(config, { SVC_VAR_X: 'x' })).toEqual(config);
  });

  it('does not rescan a value that looks like a placeholder', () => {
    const env = { SVC_VAR_A: '${env.SVC_VAR_B}', SVC_VAR_B: 'b' };
    expect(resolved({ value: '${env.SVC_VAR_A}' }, env)).toEqual({ value: '${env.SVC_VAR_B}' });
  });

  it('resolves strings nested in objects and arrays, leaving other values and keys as they are', () => {
    const config = {
      command: 'run',
      args: ['--host', '${env.SVC_VAR_HOST}', 7, null, true],
      nested: { deep: [{ url: '${env.SVC_VAR_HOST}', '${env.SVC_VAR_HOST}': 'key' }] },
      count: 3,
    };
    const env = { SVC_VAR_HOST: 'db1', SVC_SECRET_DB: 'pw' };
    expect(resolved(config, env)).toEqual({
      command: 'run',
      args: ['--host', 'db1', 7, null, true],
      nested: { deep: [{ url: 'db1', '${env.SVC_VAR_HOST}': 'key' }] },
      count: 3,
    });
  });

  it('never mutates the input and shares the parts that did not change', () => {
    const unchanged = { keep: ['a', { b: 'c' }] };
    const config = { value: '${env.SVC_VAR_X}', list: ['decrypted:db', 'plain'], unchanged };
    const copy = structuredClone(config);
    const result = resolved(config, { SVC_VAR_X: 'x', SVC_SECRET_DB: 'pw' });
    expect(config).toEqual(copy);
    expect(result).toEqual({ value: 'x', list: ['pw', 'plain'], unchanged });
    expect(result['unchanged']).toBe(unchanged);
  });

  it('returns the same object when there is nothing to resolve', () => {
    const config = Object.freeze({ url: 'http://x/$', list: ['a', { b: 1 }], n: null });
    expect(resolved(config)).toBe(config);
  });

  it('keeps a __proto__ key an own key of the copy', () => {
    const config = JSON.parse('{"__proto__": {"v": "${env.SVC_VAR_X}"}}') as Record<
      string,
      unknown
    >;
    const result = resolved(config, { SVC_VAR_X: 'x' });
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(result, '__proto__')?.value).toEqual({ v: 'x' });
  });

  it('reports the first failure found', () => {
    const error = failure({ a: '${env.SVC_VAR_A}', b: '${env.DB_TOKEN}' });
    expect(error).toBe("Variable '${env.SVC_VAR_A}' is not set");
  });

  it('never puts a value of a variable or secret into a failure message', () => {
    const values = ['v-host-1', 'v-secret-2', 'v-listed-3', 'v-blocked-4', 'v-prop-5'];
    const env = {
      SVC_VAR_HOST: values[0],
      SVC_SECRET_DB: values[1],
      REGION: values[2],
      DB_PASSWORD: values[3],
      SVC_VARIABLES_ALLOWED: 'REGION,DB_PASSWORD',
    };
    const settings = settingsWith({ 'svc.var.*': { region: values[4]! } });
    const failing = [
      { a: '${env.SVC_VAR_HOST}', b: 'decrypted:db', c: '${env.REGION}', d: '${env.DB_PASSWORD}' },
      { a: '${env.SVC_VAR_HOST}', b: '${sys.svc.var.region}', c: '${env.OTHER}' },
      { a: 'decrypted:db', b: '${env.SVC_VAR_MISSING}' },
      { a: '${sys.svc.var.region}', b: 'decrypted:other' },
    ];
    for (const config of failing) {
      const error = failure(config, env, settings);
      for (const value of values) expect(error).not.toContain(value);
    }
  });
});
