// Loads the settings of one start: the profile's defaults, then the YAML file, the environment
// and the command line, each replacing what came before (CONTRACT 5).
import path from 'node:path';
import type { AppError } from '../core/index.js';
import type { NativeBuild } from './build.js';
import type { ParseFailure } from './kinds.js';
import {
  POSTGRES_OVERRIDES,
  SETTINGS,
  SETTING_KEYS,
  STORE_TYPE_KEYS,
  isMapKey,
  mapPrefix,
} from './schema.js';
import type { BaseProfile, ProfileName, SettingKey, Settings } from './schema.js';
import { dottedName, settingEnvName } from './setting-names.js';
import {
  describeSource,
  parseProfile,
  readCommandLine,
  readConfigFile,
  readEnvironment,
  settingsError,
} from './sources.js';
import type { RawEntry, SourceEntries } from './sources.js';

export interface LoadSettingsOptions {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Directory a relative configuration file is read from; the process's by default. */
  readonly cwd?: string;
  /** Parts of the build that some settings need. */
  readonly features?: { readonly postgres: boolean };
  /** Profile when neither the command line nor SVC_PROFILES_ACTIVE names one; `dev` by default. */
  readonly defaultProfile?: BaseProfile;
  /**
   * A native binary (SPEC Runtime profiles): it runs as `prod` unless a profile is passed on
   * the command line, `SVC_PROFILES_ACTIVE` does not replace that choice, and it starts in its
   * built-in role (`svc.workers.native`) unless a setting names another.
   */
  readonly native?: NativeBuild | undefined;
}

export interface LoadedSettings {
  readonly profile: ProfileName;
  readonly settings: Settings;
  /** Problems that do not stop the start, such as an unknown SVC_* environment variable. */
  readonly warnings: string[];
  /** Absolute path of the YAML file read, or `null`. */
  readonly configFile: string | null;
}

const POSTGRES_BUILD_HINT =
  'which this build does not include (build with svc.persistence=postgres)';

/** The defaults of a profile, before any file, variable or argument. */
export function defaultSettings(profile: ProfileName): Settings {
  const base: BaseProfile = profile === 'prod' ? 'prod' : 'dev';
  const values: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) values[key] = SETTINGS[key][base];
  if (profile === 'postgres') Object.assign(values, POSTGRES_OVERRIDES);
  return deepFreeze(values) as Settings;
}

/**
 * Reads the settings of one start. Throws AppError `SETTINGS_INVALID` naming the setting and
 * its source for an unknown `svc.*` key in the file or on the command line, an unknown
 * argument, a value that does not parse, an unknown profile, or a profile the build lacks.
 */
export function loadSettings(options: LoadSettingsOptions): LoadedSettings {
  const { env } = options;
  const commandLine = readCommandLine(options.argv);
  const native = options.native;
  const profile =
    native === undefined
      ? chooseProfile(commandLine.profile, env, options.defaultProfile ?? 'dev')
      : (commandLine.profile ?? 'prod');
  const postgresBuilt = options.features?.postgres === true;
  if (profile === 'postgres' && !postgresBuilt) {
    throw settingsError(
      `Profile 'postgres' needs the relational-database stores, ${POSTGRES_BUILD_HINT}`,
    );
  }

  const configFile = chooseConfigFile(commandLine.configFile, env, options.cwd ?? process.cwd());
  const warnings: string[] = [];
  const sources: SourceEntries[] = [];
  if (configFile !== null) {
    const file = readConfigFile(configFile);
    warnings.push(...file.warnings);
    sources.push(file);
  }
  const environment = readEnvironment(env);
  warnings.push(...environment.warnings);
  sources.push(environment, commandLine);

  const values: Record<string, unknown> = { ...defaultSettings(profile) };
  if (native !== undefined) values['svc.workers.role'] = native.role;
  for (const source of sources) {
    for (const [key, value] of parseSource(source)) {
      // A map gathers names from every source; any other value is replaced as a whole.
      values[key] = isMapKey(key)
        ? Object.assign(Object.create(null) as object, values[key], value)
        : value;
    }
  }
  const settings = deepFreeze(values) as Settings;

  if (!postgresBuilt) {
    for (const key of STORE_TYPE_KEYS) {
      if (settings[key] === 'postgres') {
        throw settingsError(
          `Setting '${key}=postgres' needs the relational-database stores, ${POSTGRES_BUILD_HINT}`,
        );
      }
    }
  }
  warnings.push(...checkDatabaseSettings(settings));
  if (settings['svc.process.allow-any'] && settings['svc.process.allowed-commands'].length > 0) {
    warnings.push('svc.process.allow-any has no effect while svc.process.allowed-commands is set');
  }
  return { profile, settings, warnings, configFile };
}

/**
 * SPEC Errors, process-level failures: the relational stores need both URLs, the run-time one
 * and the one that may change the schema. Answers warnings about directories a relational
 * store makes unused.
 */
function checkDatabaseSettings(settings: Settings): string[] {
  const relational = STORE_TYPE_KEYS.filter((key) => settings[key] === 'postgres');
  if (relational.length === 0) return [];
  const missing = (['svc.db.url', 'svc.db.migration-url'] as const).filter(
    (key) => settings[key] === null,
  );
  if (missing.length > 0) {
    const names = missing.map((key) => `${key} (${settingEnvName(key)})`).join(' and ');
    throw settingsError(
      `The relational-database stores need svc.db.url (the run-time account) and svc.db.migration-url (the account that may change the schema); not set: ${names}`,
    );
  }
  const unused: [SettingKey, SettingKey][] = [
    ['svc.restart.store-type', 'svc.restart.dir'],
    ['svc.execution-log.store-type', 'svc.execution-log.dir'],
  ];
  return unused
    .filter(([type, dir]) => settings[type] === 'postgres' && settings[dir] !== null)
    .map(([type, dir]) => `${dir} has no effect while ${type}=postgres`);
}

function chooseProfile(
  fromCommandLine: ProfileName | null,
  env: LoadSettingsOptions['env'],
  fallback: ProfileName,
): ProfileName {
  if (fromCommandLine !== null) return fromCommandLine;
  const fromEnv = env.SVC_PROFILES_ACTIVE?.trim();
  if (fromEnv) return parseProfile(fromEnv, 'environment variable SVC_PROFILES_ACTIVE');
  return fallback;
}

function chooseConfigFile(
  fromCommandLine: string | null,
  env: LoadSettingsOptions['env'],
  cwd: string,
): string | null {
  if (fromCommandLine !== null && fromCommandLine.trim() === '') {
    throw settingsError("Missing value for '--config' (command line)");
  }
  const file = fromCommandLine ?? (env.SVC_CONFIG_FILE?.trim() || null);
  return file === null ? null : path.resolve(cwd, file);
}

/** Parses every setting one source gives. */
function parseSource(source: SourceEntries): Map<SettingKey, unknown> {
  const groups = new Map<SettingKey, RawEntry[]>();
  for (const entry of source.entries) {
    const group = groups.get(entry.key);
    if (group === undefined) groups.set(entry.key, [entry]);
    else group.push(entry);
  }
  const parsed = new Map<SettingKey, unknown>();
  for (const [key, entries] of groups) {
    const where = describeSource(source.source, namesOf(entries));
    const raw = assemble(key, entries, where);
    const result = SETTINGS[key].codec.parse(raw, key);
    if (!result.ok) throw invalidValue(key, raw, result, where);
    parsed.set(key, result.value);
  }
  return parsed;
}

function namesOf(entries: readonly RawEntry[]): string[] {
  return [...new Set(entries.map((entry) => entry.name).filter((name) => name !== ''))];
}

/**
 * One raw value from a source's entries: the whole value, or a list built from indexed
 * entries. A later entry for the same name wins, as a later argument does on a command line.
 */
function assemble(key: SettingKey, entries: readonly RawEntry[], where: string): unknown {
  if (isMapKey(key)) {
    const raw = Object.create(null) as Record<string, unknown>;
    for (const entry of entries) raw[String(entry.path[0])] = entry.value;
    return raw;
  }
  const indexed = entries.filter((entry) => entry.path.length > 0);
  if (indexed.length === 0) return entries.at(-1)?.value;
  if (indexed.length < entries.length) {
    throw settingsError(
      `Setting '${key}' is given both as a whole and as indexed entries (${where}); use one form`,
    );
  }
  const root: unknown[] = [];
  for (const entry of indexed) place(root, entry, where);
  const hole = findHole(root, []);
  if (hole !== null) {
    throw settingsError(
      `Invalid value for setting '${key}' (${where}): entry ${dottedName(key, hole)} is missing; indexes count up from 0`,
    );
  }
  return root;
}

type Container = unknown[] | Record<string, unknown>;

function place(root: unknown[], entry: RawEntry, where: string): void {
  let container: Container = root;
  for (const [depth, segment] of entry.path.entries()) {
    const slot = container as Record<string | number, unknown>;
    if (depth === entry.path.length - 1) {
      slot[segment] = entry.value;
      return;
    }
    const next = entry.path[depth + 1];
    let child = slot[segment];
    if (child === undefined) {
      child = typeof next === 'number' ? [] : (Object.create(null) as Record<string, unknown>);
      slot[segment] = child;
    }
    if (
      typeof child !== 'object' ||
      child === null ||
      Array.isArray(child) !== (typeof next === 'number')
    ) {
      throw settingsError(
        `Setting '${dottedName(entry.key, entry.path.slice(0, depth + 1))}' is given both as a value and with inner entries (${where})`,
      );
    }
    container = child as Container;
  }
}

function findHole(value: unknown, at: (string | number)[]): (string | number)[] | null {
  if (typeof value !== 'object' || value === null) return null;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      if (!(index in value)) return [...at, index];
      const inner = findHole(value[index], [...at, index]);
      if (inner !== null) return inner;
    }
    return null;
  }
  for (const [name, child] of Object.entries(value)) {
    const inner = findHole(child, [...at, name]);
    if (inner !== null) return inner;
  }
  return null;
}

function invalidValue(
  key: SettingKey,
  raw: unknown,
  failure: ParseFailure,
  where: string,
): AppError {
  const name = isMapKey(key) ? `${mapPrefix(key)}${failure.at ?? ''}` : key + (failure.at ?? '');
  const hidden = SETTINGS[key].secret || failure.hideValue === true;
  const shown = failure.at === undefined ? raw : failure.value;
  const value = hidden ? '' : ` '${display(shown)}'`;
  return settingsError(`Invalid value${value} for setting '${name}' (${where}): ${failure.reason}`);
}

function display(value: unknown): string {
  if (typeof value === 'string') return value;
  return value === undefined ? 'nothing' : JSON.stringify(value);
}

function deepFreeze<TValue>(value: TValue): TValue {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
