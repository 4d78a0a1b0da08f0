// The three places settings come from besides the profile: the YAML file, the environment and
// the command line. Each is read into raw entries; the loader parses and merges them.
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { AppError, messageOf } from '../core/index.js';
import { PROFILE_NAMES } from './schema.js';
import type { ProfileName } from './schema.js';
import { isIgnoredEnvName, isSection, resolveDottedName, resolveEnvName } from './setting-names.js';
import type { ResolvedName } from './setting-names.js';

export type Source =
  | { readonly kind: 'file'; readonly file: string }
  | { readonly kind: 'env' }
  | { readonly kind: 'cli' };

export interface RawEntry extends ResolvedName {
  readonly value: unknown;
  /** The environment variable that gave the entry, for messages; empty elsewhere. */
  readonly name: string;
}

export interface SourceEntries {
  readonly source: Source;
  readonly entries: readonly RawEntry[];
}

export function settingsError(detail: string): AppError {
  return new AppError('SETTINGS_INVALID', { params: { detail } });
}

/** `environment variable SVC_SERVER_PORT`, `command line`, `configuration file /etc/svc.yaml`. */
export function describeSource(source: Source, names: readonly string[] = []): string {
  switch (source.kind) {
    case 'file':
      return `configuration file ${source.file}`;
    case 'cli':
      return 'command line';
    case 'env':
      return names.length === 1
        ? `environment variable ${names[0] ?? ''}`
        : `environment variables ${names.join(', ')}`;
  }
}

export function parseProfile(value: string, where: string): ProfileName {
  const name = value.trim().toLowerCase();
  const found = PROFILE_NAMES.find((profile) => profile === name);
  if (found === undefined) {
    throw settingsError(
      `Unknown profile '${value}' (${where}): expected ${PROFILE_NAMES.join(', ')}`,
    );
  }
  return found;
}

export interface CommandLine extends SourceEntries {
  readonly profile: ProfileName | null;
  readonly configFile: string | null;
}

/**
 * Reads `--svc.a.b=value`, `--svc.a.b value`, `--svc.list[0].field=value`, `--profile NAME`,
 * `--config FILE` and a bare profile name. Anything else is refused: a mistyped argument
 * should stop the start, not be ignored.
 */
export function readCommandLine(argv: readonly string[]): CommandLine {
  const source: Source = { kind: 'cli' };
  const entries: RawEntry[] = [];
  let profile: ProfileName | null = null;
  let configFile: string | null = null;

  const chooseProfile = (value: string): void => {
    const chosen = parseProfile(value, 'command line');
    if (profile !== null && profile !== chosen) {
      throw settingsError(
        `Two profiles on the command line: '${profile}' and '${chosen}'; name one`,
      );
    }
    profile = chosen;
  };

  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] ?? '';
    if ((PROFILE_NAMES as readonly string[]).includes(arg)) {
      chooseProfile(arg);
      continue;
    }
    const option = /^--([^=]+)(?:=(.*))?$/s.exec(arg);
    const name = option?.[1];
    if (name === undefined) throw settingsError(`Unknown command-line argument '${arg}'`);
    let value = option?.[2];
    if (name !== 'profile' && name !== 'config' && !name.startsWith('svc.')) {
      throw settingsError(`Unknown command-line argument '${arg}'`);
    }
    if (value === undefined) {
      const next = argv[index + 1];
      if (next === undefined || next.startsWith('--')) {
        throw settingsError(`Missing value for '--${name}' (command line)`);
      }
      value = next;
      index += 1;
    }
    if (name === 'profile') chooseProfile(value);
    else if (name === 'config') configFile = value;
    else {
      const resolved = resolveDottedName(name);
      if (resolved === null) throw settingsError(`Unknown setting '${name}' (command line)`);
      entries.push({ ...resolved, value, name: '' });
    }
  }
  return { source, entries, profile, configFile };
}

export interface SourceRead extends SourceEntries {
  readonly warnings: readonly string[];
}

/**
 * Reads every `SVC_*` variable. The environment is shared with other programs and survives
 * renames, so a name that matches no setting is a warning, not a failure.
 */
export function readEnvironment(env: Readonly<Record<string, string | undefined>>): SourceRead {
  const entries: RawEntry[] = [];
  const warnings: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || !name.startsWith('SVC_') || isIgnoredEnvName(name)) continue;
    const resolved = resolveEnvName(name);
    if (resolved === null) {
      warnings.push(`Ignoring environment variable ${name}: it names no setting`);
      continue;
    }
    entries.push({ ...resolved, value, name });
  }
  return { source: { kind: 'env' }, entries, warnings };
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The first line of a message, without the colon that introduces a code excerpt. */
function firstLine(message: string): string {
  return (message.split('\n', 1)[0] ?? message).replace(/:\s*$/, '');
}

/**
 * Reads the YAML file: settings nested under `svc:`, where a key may also hold dots
 * (`server.port: 8080`) or an index (`api-keys[0].key`). Other top-level keys are ignored
 * with a warning, so the file may carry a section for another tool.
 */
export function readConfigFile(file: string): SourceRead {
  const source: Source = { kind: 'file', file };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw settingsError(
      code === 'ENOENT'
        ? `Configuration file '${file}' does not exist`
        : `Configuration file '${file}' cannot be read: ${firstLine(String(error))}`,
    );
  }
  let document: unknown;
  try {
    document = parseYaml(text);
  } catch (error) {
    const message = messageOf(error);
    throw settingsError(`Configuration file '${file}' is not valid YAML: ${firstLine(message)}`);
  }
  const entries: RawEntry[] = [];
  const warnings: string[] = [];
  if (document === null || document === undefined) return { source, entries, warnings };
  if (!isRecord(document)) {
    throw settingsError(
      `Configuration file '${file}' must hold a mapping with the settings under 'svc:'`,
    );
  }

  const visit = (name: string, value: unknown): void => {
    const resolved = resolveDottedName(name);
    if (resolved !== null && !(resolved.path.length > 0 && isRecord(value))) {
      entries.push({ ...resolved, value, name: '' });
      return;
    }
    // A section, a nested name below a map prefix (`var: { db: { host: x } }`), or the fields of
    // an indexed entry (`api-keys[0]: { key: x }`).
    if ((resolved !== null || isSection(name)) && (isRecord(value) || value === null)) {
      for (const [child, childValue] of Object.entries(value ?? {})) {
        visit(`${name}.${child}`, childValue);
      }
      return;
    }
    throw settingsError(`Unknown setting '${leafName(name, value)}' (${describeSource(source)})`);
  };

  for (const [name, value] of Object.entries(document)) {
    if (name === 'svc' || name.startsWith('svc.')) visit(name, value);
    else
      warnings.push(
        `Ignoring key '${name}' in configuration file ${file}: settings live under 'svc:'`,
      );
  }
  return { source, entries, warnings };
}

/** Names an unknown section by its first leaf, `svc.foo.bar` rather than `svc.foo`. */
function leafName(name: string, value: unknown): string {
  let current = value;
  let leaf = name;
  while (isRecord(current)) {
    const first = Object.keys(current)[0];
    if (first === undefined) break;
    leaf = `${leaf}.${first}`;
    current = current[first];
  }
  return leaf;
}
