import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isAppError } from '../core/index.js';
import {
  OPTIONAL_PLUGINS,
  readBuildInfo,
  resolvePersistence,
  resolvePluginSelection,
  resolveWorkers,
} from './build.js';

const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-build-info-'));
afterAll(() => {
  fs.rmSync(directory, { recursive: true, force: true });
});

function writeFile(name: string, text: string): string {
  const file = path.join(directory, name);
  fs.writeFileSync(file, text);
  return file;
}

function failureMessage(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (!isAppError(error)) throw error;
    expect(error.code).toBe('SETTINGS_INVALID');
    return error.message;
  }
  throw new Error('expected a failure');
}

const WITHOUT_SCRIPT = OPTIONAL_PLUGINS.filter((plugin) => plugin !== 'script-js');

describe('plugin selection (SPEC Build-time choices)', () => {
  it('selects every optional plugin except script-js for default, an empty value or none given', () => {
    for (const spec of [undefined, '', ' ', 'default', 'DEFAULT']) {
      expect(resolvePluginSelection(spec)).toEqual(WITHOUT_SCRIPT);
    }
  });

  it('selects every optional plugin including script-js for all', () => {
    expect(resolvePluginSelection('all')).toEqual([...OPTIONAL_PLUGINS]);
    expect(resolvePluginSelection('all')).toContain('script-js');
  });

  it('selects no optional plugin for none', () => {
    expect(resolvePluginSelection('none')).toEqual([]);
  });

  it('selects exactly the named plugins, in catalogue order, once each', () => {
    expect(resolvePluginSelection('script-js, http-request,script-js')).toEqual([
      'http-request',
      'script-js',
    ]);
  });

  it('fails the build on an unknown name, naming it', () => {
    expect(failureMessage(() => resolvePluginSelection('http-request,ftp,teleport'))).toBe(
      `Unknown plugin 'ftp', 'teleport' in svc.plugins=http-request,ftp,teleport; expected default, all, none or names from ${OPTIONAL_PLUGINS.join(', ')}`,
    );
    expect(failureMessage(() => resolvePluginSelection('all,none'))).toContain("'all', 'none'");
  });
});

describe('relational-database stores (SPEC Build-time choices: svc.persistence=postgres)', () => {
  it('includes them for postgres, in any case, and leaves them out for nothing, an empty value or memory', () => {
    for (const spec of ['postgres', 'POSTGRES', ' postgres ']) {
      expect(resolvePersistence(spec)).toBe(true);
    }
    for (const spec of [undefined, '', 'memory']) expect(resolvePersistence(spec)).toBe(false);
  });

  it('fails the build on any other value, naming it', () => {
    expect(failureMessage(() => resolvePersistence('mysql'))).toBe(
      'Unknown value svc.persistence=mysql; expected postgres (or memory, the default)',
    );
  });
});

describe('remote workers (SPEC Build-time choices: svc.workers=true)', () => {
  it('includes them for true, in any case, and leaves them out for nothing, an empty value or false', () => {
    for (const spec of ['true', 'TRUE', ' true ']) expect(resolveWorkers(spec)).toBe(true);
    for (const spec of [undefined, '', 'false']) expect(resolveWorkers(spec)).toBe(false);
  });

  it('fails the build on any other svc.workers value, naming it', () => {
    expect(failureMessage(() => resolveWorkers('yes'))).toBe(
      'Unknown value svc.workers=yes; expected true or false',
    );
  });

  it('takes SVC_WORKERS when running from source', () => {
    const info = readBuildInfo(path.join(directory, 'absent.json'), {
      version: '1.2.3',
      env: { SVC_WORKERS: 'true' },
    });
    expect(info.workers).toBe(true);
  });
});

describe('build information', () => {
  it('takes the build properties of the environment when running from source', () => {
    const info = readBuildInfo(path.join(directory, 'absent.json'), {
      version: '1.2.3',
      env: { SVC_PERSISTENCE: 'postgres', SVC_PLUGINS: 'http-request' },
    });
    expect(info).toMatchObject({ plugins: ['http-request'], persistence: true, workers: false });
  });

  it('falls back to the default selection without relational stores or workers when no file exists', () => {
    expect(readBuildInfo(path.join(directory, 'absent.json'), { version: '1.2.3' })).toEqual({
      version: '1.2.3',
      commit: 'unknown',
      buildTime: 'unknown',
      plugins: WITHOUT_SCRIPT,
      persistence: false,
      workers: false,
    });
  });

  it('reads the file the build wrote', () => {
    const info = {
      version: '0.0.1-SNAPSHOT',
      commit: 'abc1234',
      buildTime: '2026-01-01T00:00:00.000Z',
      plugins: ['script-js'],
      persistence: true,
      workers: false,
    };
    const file = writeFile('good.json', JSON.stringify(info));
    expect(readBuildInfo(file, { version: 'ignored' })).toEqual(info);
  });

  it('refuses a file that is not JSON, naming it', () => {
    const file = writeFile('broken.json', '{"version":');
    expect(failureMessage(() => readBuildInfo(file, { version: '1' }))).toBe(
      `Build information file '${file}' is damaged: not valid JSON`,
    );
  });

  it('refuses a file missing fields or naming an unknown plugin, naming it and the field', () => {
    const file = writeFile(
      'wrong.json',
      JSON.stringify({
        version: '1',
        commit: 'c',
        buildTime: 't',
        plugins: ['ftp'],
        workers: false,
      }),
    );
    const message = failureMessage(() => readBuildInfo(file, { version: '1' }));
    expect(message).toMatch(new RegExp(`^Build information file '.+wrong\\.json' is damaged: `));
    expect(message).toContain('plugins.0:');
    expect(message).toContain('persistence:');
  });
});
