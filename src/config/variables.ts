// Resolves `${env.NAME}`, `${sys.name}` and `decrypted:<name>` in a node's configuration when a
// run starts (SPEC Workflow-author safeguards, "Variables and secrets" rules 1-3).
import os from 'node:os';
import path from 'node:path';
import type { Settings } from './schema.js';

export type ConfigResolution =
  | { readonly ok: true; readonly config: Readonly<Record<string, unknown>> }
  | { readonly ok: false; readonly error: string };

/**
 * Structurally the engine's `ConfigResolver` (the settings layer may not import the engine),
 * so the composition root can hand a resolver straight to a run.
 */
export type ConfigResolver = (config: Readonly<Record<string, unknown>>) => ConfigResolution;

export interface ConfigResolverOptions {
  /** The server's environment: variables, `SVC_SECRET_*` and `SVC_VARIABLES_ALLOWED`. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly settings: Pick<Settings, 'svc.variables.allowed' | 'svc.var.*'>;
}

/** Environment variables any configuration may read, besides names starting `SVC_VAR_`. */
export const ALLOWED_ENV_NAMES: readonly string[] = Object.freeze([
  'HOME',
  'USER',
  'LANG',
  'TZ',
  'HOSTNAME',
  'PWD',
  'PATH',
]);

/**
 * Built-in system properties; any configuration may read them. Names follow the Java system
 * properties that workflow authors know. A lookup that fails (a user id with no account entry,
 * as in some containers) reads as not set.
 */
const BUILT_IN_PROPERTIES: ReadonlyMap<string, () => string> = new Map([
  ['user.name', () => os.userInfo().username],
  ['user.home', () => os.homedir()],
  ['user.dir', () => process.cwd()],
  ['os.name', () => os.type()],
  ['os.arch', () => os.arch()],
  ['os.version', () => os.release()],
  ['file.separator', () => path.sep],
  ['path.separator', () => path.delimiter],
  ['line.separator', () => os.EOL],
]);

export const BUILT_IN_PROPERTY_NAMES: readonly string[] = Object.freeze([
  ...BUILT_IN_PROPERTIES.keys(),
]);

/** SPEC rule 2: a name holding one of these (in any case) is never read, even when listed. */
export const BLOCKED_NAME_WORDS: readonly string[] = Object.freeze([
  'PASSWORD',
  'PASSWD',
  'SECRET',
  'TOKEN',
  'CREDENTIAL',
  'PRIVATE',
  'KEY',
]);

const ENV_PREFIX = 'SVC_VAR_';
const PROPERTY_PREFIX = 'svc.var.';
const SECRET_PREFIX = 'decrypted:';
const SECRET_ENV_PREFIX = 'SVC_SECRET_';
const ALLOWED_LIST_ENV = 'SVC_VARIABLES_ALLOWED';
/** Only the `env` and `sys` namespaces are placeholders; `${foo.bar}` is ordinary text. */
const PLACEHOLDER = /\$\{(env|sys)\.([^{}]+)\}/g;

/** The environment variable holding the secret `decrypted:<name>` (SPEC rule 3). */
export function secretEnvName(name: string): string {
  return SECRET_ENV_PREFIX + name.replace(/[^A-Za-z0-9]/g, '_').toUpperCase();
}

/** Thrown inside the walk and turned into `{ ok: false }`: the first failure ends it. */
class ResolveFailure extends Error {
  override readonly name = 'ResolveFailure';
}

/**
 * Makes the resolver a run applies to each node's configuration. Only strings change; the
 * input is never mutated, and a configuration with nothing to resolve comes back as the same
 * object, so the common case allocates nothing new. Messages name placeholders and secrets but
 * never a value.
 */
export function createConfigResolver(options: ConfigResolverOptions): ConfigResolver {
  const { env, settings } = options;
  const listed = [
    ...new Set([
      ...splitList(ownValue(env, ALLOWED_LIST_ENV)),
      ...settings['svc.variables.allowed'],
    ]),
  ];
  const listedNames = new Set(listed);
  const listedText = listed.length === 0 ? 'none listed' : `listed: ${listed.join(', ')}`;
  const properties = settings['svc.var.*'];

  function read(namespace: string, name: string, placeholder: string): string {
    const blocked = blockedWord(name);
    if (blocked !== undefined) {
      throw new ResolveFailure(
        `Variable '${placeholder}' is blocked: its name contains ${blocked}`,
      );
    }
    const isEnv = namespace === 'env';
    const allowedByDefault = isEnv
      ? name.startsWith(ENV_PREFIX) || ALLOWED_ENV_NAMES.includes(name)
      : name.startsWith(PROPERTY_PREFIX) || BUILT_IN_PROPERTIES.has(name);
    if (!allowedByDefault && !listedNames.has(name)) {
      const rule = isEnv
        ? `environment variables must start with ${ENV_PREFIX}, be one of ${ALLOWED_ENV_NAMES.join(', ')}`
        : `system properties must start with ${PROPERTY_PREFIX}, be one of ${BUILT_IN_PROPERTY_NAMES.join(', ')}`;
      throw new ResolveFailure(
        `Variable '${placeholder}' is not allowed: ${rule}, or be listed in ${ALLOWED_LIST_ENV} or svc.variables.allowed (${listedText})`,
      );
    }
    const value = isEnv ? ownValue(env, name) : readProperty(properties, name);
    if (value === undefined) throw new ResolveFailure(`Variable '${placeholder}' is not set`);
    return value;
  }

  function resolveString(text: string): string {
    if (text.startsWith(SECRET_PREFIX)) {
      const name = text.slice(SECRET_PREFIX.length);
      if (name === '') throw new ResolveFailure(`Secret reference '${text}' names no secret`);
      const variable = secretEnvName(name);
      const value = ownValue(env, variable);
      if (value === undefined) {
        throw new ResolveFailure(`Secret '${name}' is not set (${variable})`);
      }
      return value;
    }
    if (!text.includes('${')) return text;
    // A replacer function inserts values literally and never rescans them, so a value that
    // itself looks like a placeholder stays as it is.
    return text.replace(PLACEHOLDER, (placeholder, namespace: string, name: string) =>
      read(namespace, name, placeholder),
    );
  }

  function resolveValue(value: unknown): unknown {
    if (typeof value === 'string') return resolveString(value);
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      for (const [index, item] of value.entries()) {
        const next = resolveValue(item);
        if (next === item) continue;
        copy ??= [...(value as unknown[])];
        copy[index] = next;
      }
      return copy ?? value;
    }
    if (isPlainObject(value)) {
      const entries = Object.entries(value);
      let changed = false;
      for (const entry of entries) {
        const next = resolveValue(entry[1]);
        if (next === entry[1]) continue;
        entry[1] = next;
        changed = true;
      }
      // fromEntries defines properties, so a key such as `__proto__` stays an own key.
      return changed ? Object.fromEntries(entries) : value;
    }
    return value;
  }

  return (config) => {
    try {
      return { ok: true, config: resolveValue(config) as Readonly<Record<string, unknown>> };
    } catch (error) {
      if (error instanceof ResolveFailure) return { ok: false, error: error.message };
      throw error;
    }
  };
}

function blockedWord(name: string): string | undefined {
  const upper = name.toUpperCase();
  return BLOCKED_NAME_WORDS.find((word) => upper.includes(word));
}

/** `${sys.svc.var.region}` reads the setting `svc.var.region`; other names are built-ins. */
function readProperty(
  properties: Readonly<Record<string, string>>,
  name: string,
): string | undefined {
  if (name.startsWith(PROPERTY_PREFIX)) {
    return ownValue(properties, name.slice(PROPERTY_PREFIX.length));
  }
  const read = BUILT_IN_PROPERTIES.get(name);
  if (read === undefined) return undefined;
  try {
    return read();
  } catch {
    return undefined;
  }
}

/** Own values only: a name such as `constructor` must not read the object's prototype. */
function ownValue(
  source: Readonly<Record<string, string | undefined>>,
  name: string,
): string | undefined {
  if (!Object.hasOwn(source, name)) return undefined;
  const value = source[name];
  return typeof value === 'string' ? value : undefined;
}

function splitList(text: string | undefined): string[] {
  if (text === undefined) return [];
  return text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
