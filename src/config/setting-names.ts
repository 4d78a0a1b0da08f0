// How the names used in the YAML file, on the command line and in the environment lead to a
// setting key and, for list entries, to a path inside its value.
import { isObjectListCodec } from './list-entries.js';
import type { FieldShape } from './list-entries.js';
import { SETTINGS, SETTING_KEYS, isMapKey, mapPrefix } from './schema.js';
import type { SettingKey } from './schema.js';

/** Index or field name of a list entry; for a map, the one segment is the name below the prefix. */
export type PathSegment = string | number;

export interface ResolvedName {
  readonly key: SettingKey;
  readonly path: readonly PathSegment[];
}

// Indexes beyond this are typing mistakes, not lists; refusing them keeps arrays small.
const MAX_INDEX_DIGITS = 4;

/** `svc.a.b-c` -> `SVC_A_B_C`; a map `svc.llm.rate-limit.*` -> `SVC_LLM_RATE_LIMIT_*`. */
export function settingEnvName(key: SettingKey): string {
  return isMapKey(key) ? `${envSegment(mapPrefix(key))}_*` : envSegment(key);
}

/** The environment form of a name or an entry field: `sessionId` -> `SESSIONID`. */
export function envSegment(name: string): string {
  return name.toUpperCase().replace(/[.-]/g, '_');
}

/**
 * Environment variables that share the prefix but are read elsewhere (placeholders, secrets,
 * tests) or by the build and the loader itself.
 */
const IGNORED_ENV_PREFIXES = ['SVC_VAR_', 'SVC_SECRET_', 'SVC_TEST_'] as const;
const IGNORED_ENV_NAMES: ReadonlySet<string> = new Set([
  'SVC_CONFIG_FILE',
  'SVC_PROFILES_ACTIVE',
  'SVC_PLUGINS',
  'SVC_PERSISTENCE',
  'SVC_WORKERS',
  'SVC_WORKERS_NATIVE',
]);

export function isIgnoredEnvName(name: string): boolean {
  return IGNORED_ENV_NAMES.has(name) || IGNORED_ENV_PREFIXES.some((p) => name.startsWith(p));
}

/** Whether the environment can set a key: `svc.var.*` cannot, its names are placeholders. */
export function readsFromEnvironment(key: SettingKey): boolean {
  return !isIgnoredEnvName(settingEnvName(key).replace(/\*$/, ''));
}

/** What an index leads to inside a list setting; `null` for settings that take no index. */
function listShape(key: SettingKey): FieldShape | null {
  const codec = SETTINGS[key].codec;
  if (codec.kind === 'string-list') {
    return { kind: 'list', doc: null, item: { kind: 'scalar', doc: null } };
  }
  if (isObjectListCodec(codec)) return { kind: 'list', doc: null, item: codec.item };
  return null;
}

const ENV_NAMES: ReadonlyMap<string, SettingKey> = new Map(
  SETTING_KEYS.filter((key) => !isMapKey(key)).map((key) => [settingEnvName(key), key]),
);

/** Resolves `svc.server.port`, `svc.api-keys[0].key` or `svc.var.some.name`; `null` if unknown. */
export function resolveDottedName(name: string): ResolvedName | null {
  for (const key of SETTING_KEYS) {
    if (isMapKey(key)) {
      const prefix = `${mapPrefix(key)}.`;
      if (name.startsWith(prefix) && name.length > prefix.length) {
        return { key, path: [name.slice(prefix.length)] };
      }
      continue;
    }
    if (name === key) return { key, path: [] };
    const shape = listShape(key);
    if (shape !== null && name.startsWith(`${key}[`)) {
      const path = dottedPath(name.slice(key.length), shape);
      return path === null ? null : { key, path };
    }
  }
  return null;
}

/** Whether a YAML section name leads towards settings (`svc`, `svc.server`, `svc.var`). */
export function isSection(name: string): boolean {
  return SETTING_KEYS.some((key) => {
    const full = isMapKey(key) ? mapPrefix(key) : key;
    return full === name || full.startsWith(`${name}.`);
  });
}

function dottedPath(rest: string, shape: FieldShape): PathSegment[] | null {
  const path: PathSegment[] = [];
  let at = shape;
  let remaining = rest;
  const index = new RegExp(`^\\[(\\d{1,${MAX_INDEX_DIGITS}})\\]`);
  while (remaining !== '') {
    const indexMatch = index.exec(remaining);
    const fieldMatch = /^\.([A-Za-z][\w-]*)/.exec(remaining);
    if (indexMatch?.[1] !== undefined && at.kind === 'list') {
      path.push(Number(indexMatch[1]));
      remaining = remaining.slice(indexMatch[0].length);
      at = at.item;
    } else if (fieldMatch?.[1] !== undefined && at.kind === 'object') {
      const field = at.fields.get(fieldMatch[1]);
      if (field === undefined) return null;
      path.push(fieldMatch[1]);
      remaining = remaining.slice(fieldMatch[0].length);
      at = field;
    } else {
      return null;
    }
  }
  return path;
}

/**
 * Resolves an environment variable name by comparing it with the name of every known key,
 * then reading list indexes and entry fields after a list key's name. `null` if unknown.
 */
export function resolveEnvName(name: string): ResolvedName | null {
  const exact = ENV_NAMES.get(name);
  if (exact !== undefined) return { key: exact, path: [] };
  for (const key of SETTING_KEYS) {
    if (isMapKey(key)) {
      const prefix = settingEnvName(key).slice(0, -1);
      if (name.startsWith(prefix) && name.length > prefix.length) {
        // Environment names cannot hold dashes; provider names usually do.
        const below = name.slice(prefix.length).toLowerCase().replace(/_/g, '-');
        return { key, path: [below] };
      }
      continue;
    }
    const shape = listShape(key);
    const own = settingEnvName(key);
    if (shape !== null && name.startsWith(`${own}_`)) {
      const path = envPath(name.slice(own.length), shape);
      if (path !== null) return { key, path };
    }
  }
  return null;
}

function envPath(rest: string, shape: FieldShape): PathSegment[] | null {
  const path: PathSegment[] = [];
  let at = shape;
  let remaining = rest;
  const index = new RegExp(`^_(\\d{1,${MAX_INDEX_DIGITS}})(?=_|$)`);
  while (remaining !== '') {
    const indexMatch = index.exec(remaining);
    if (at.kind === 'list' && indexMatch?.[1] !== undefined) {
      path.push(Number(indexMatch[1]));
      remaining = remaining.slice(indexMatch[0].length);
      at = at.item;
      continue;
    }
    if (at.kind !== 'object') return null;
    // The longest matching field name wins, so no field is found by splitting on `_`.
    let best: { name: string; env: string; shape: FieldShape } | null = null;
    for (const [field, fieldShape] of at.fields) {
      const env = `_${envSegment(field)}`;
      const fits =
        remaining === env || (remaining.startsWith(env) && remaining[env.length] === '_');
      if (fits && (best === null || env.length > best.env.length)) {
        best = { name: field, env, shape: fieldShape };
      }
    }
    if (best === null) return null;
    path.push(best.name);
    remaining = remaining.slice(best.env.length);
    at = best.shape;
  }
  return path;
}

/** `svc.api-keys[1].key` for a key and a path inside it. */
export function dottedName(key: SettingKey, path: readonly PathSegment[]): string {
  if (isMapKey(key)) return `${mapPrefix(key)}.${path.map(String).join('.')}`;
  return key + path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${part}`)).join('');
}
