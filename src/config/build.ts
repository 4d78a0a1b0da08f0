// Build-time choices (SPEC "Build-time choices"): which optional plugins a build includes, and
// the build information the build writes for the server to read when it starts.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { AppError } from '../core/index.js';
import { splitList } from './kinds.js';

export const OPTIONAL_PLUGINS = [
  'process-executor',
  'http-request',
  'file-io',
  'sql-query',
  'llm-call',
  'session-memory',
  'decision',
  'mcp-tool-call',
  'webhook',
  'nats',
  'amqp',
  'redis-streams',
  'mqtt',
  'script-js',
] as const;

export type OptionalPlugin = (typeof OPTIONAL_PLUGINS)[number];

/** `svc.plugins=default`: every optional plugin except `script-js`. */
export const DEFAULT_PLUGINS: readonly OptionalPlugin[] = OPTIONAL_PLUGINS.filter(
  (plugin) => plugin !== 'script-js',
);

function isOptionalPlugin(name: string): name is OptionalPlugin {
  return (OPTIONAL_PLUGINS as readonly string[]).includes(name);
}

/**
 * The plugins a `svc.plugins` value selects: `default` (or nothing), `all`, `none`, or a comma
 * list of names. An unknown name fails, so a typing mistake cannot silently drop a plugin.
 * The answer follows the order of OPTIONAL_PLUGINS.
 */
export function resolvePluginSelection(spec: string | undefined): OptionalPlugin[] {
  const given = spec?.trim() ?? '';
  switch (given.toLowerCase()) {
    case '':
    case 'default':
      return [...DEFAULT_PLUGINS];
    case 'all':
      return [...OPTIONAL_PLUGINS];
    case 'none':
      return [];
  }
  const names = splitList(given).map((name) => name.toLowerCase());
  const unknown = names.filter((name) => !isOptionalPlugin(name));
  if (unknown.length > 0) {
    throw new AppError('SETTINGS_INVALID', {
      params: {
        detail: `Unknown plugin ${unknown.map((name) => `'${name}'`).join(', ')} in svc.plugins=${given}; expected default, all, none or names from ${OPTIONAL_PLUGINS.join(', ')}`,
      },
    });
  }
  return OPTIONAL_PLUGINS.filter((plugin) => names.includes(plugin));
}

/**
 * Whether a `svc.persistence` value includes the relational-database stores: `postgres` does;
 * nothing, an empty value or `memory` does not. Anything else fails, like an unknown plugin.
 */
export function resolvePersistence(spec: string | undefined): boolean {
  const given = spec?.trim().toLowerCase() ?? '';
  if (given === '' || given === 'memory') return false;
  if (given === 'postgres') return true;
  throw new AppError('SETTINGS_INVALID', {
    params: {
      detail: `Unknown value svc.persistence=${spec ?? ''}; expected postgres (or memory, the default)`,
    },
  });
}

/**
 * Whether a `svc.workers` value includes remote workers: `true` does; nothing, an empty value
 * or `false` does not. Anything else fails, like an unknown plugin.
 */
export function resolveWorkers(spec: string | undefined): boolean {
  const given = spec?.trim().toLowerCase() ?? '';
  if (given === '' || given === 'false') return false;
  if (given === 'true') return true;
  throw new AppError('SETTINGS_INVALID', {
    params: { detail: `Unknown value svc.workers=${spec ?? ''}; expected true or false` },
  });
}

/** What the build records about itself; served by /actuator/info. */
export interface BuildInfo {
  readonly version: string;
  readonly commit: string;
  readonly buildTime: string;
  readonly plugins: string[];
  /** Whether the relational-database stores are included. */
  readonly persistence: boolean;
  /** Whether remote workers are included. */
  readonly workers: boolean;
  /** Present in a native binary (`npm run build:native`), with the role it starts in. */
  readonly native?: NativeBuild | undefined;
}

/** SPEC Build-time choices: `svc.workers.native`, the role of a native binary. */
export const NATIVE_ROLES = ['control-plane', 'worker'] as const;

export interface NativeBuild {
  readonly role: (typeof NATIVE_ROLES)[number];
}

const buildInfoFile = z.object({
  version: z.string().min(1),
  commit: z.string(),
  buildTime: z.string(),
  plugins: z.array(z.enum(OPTIONAL_PLUGINS)),
  persistence: z.boolean(),
  workers: z.boolean(),
  native: z.object({ role: z.enum(NATIVE_ROLES) }).optional(),
});

function damaged(file: string, detail: string, cause?: unknown): AppError {
  return new AppError('SETTINGS_INVALID', {
    params: { detail: `Build information file '${file}' is damaged: ${detail}` },
    cause,
  });
}

/** What a run from source knows when no build wrote its information. */
export interface BuildFallback {
  readonly version: string;
  /**
   * The build properties a run from source takes, as `npm run build` reads them:
   * `SVC_PLUGINS`, `SVC_PERSISTENCE` and `SVC_WORKERS`. Without them the default selection
   * applies.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Reads the JSON the build wrote. Running from source there is none: the answer is then what
 * the build properties of `fallback.env` would build (by default the default selection with
 * neither relational stores nor workers). A file that exists but does not hold build
 * information fails, since guessing would start a server unlike its build.
 */
export function readBuildInfo(file: string, fallback: BuildFallback): BuildInfo {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return {
        version: fallback.version,
        commit: 'unknown',
        buildTime: 'unknown',
        plugins: resolvePluginSelection(fallback.env?.SVC_PLUGINS),
        persistence: resolvePersistence(fallback.env?.SVC_PERSISTENCE),
        workers: resolveWorkers(fallback.env?.SVC_WORKERS),
      };
    }
    throw new AppError('SETTINGS_INVALID', {
      params: { detail: `Build information file '${file}' cannot be read: ${String(error)}` },
      cause: error,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw damaged(file, 'not valid JSON', error);
  }
  const parsed = buildInfoFile.safeParse(json);
  if (!parsed.success) {
    const detail = parsed.error.issues
      .map((issue) => `${issue.path.map(String).join('.') || 'file'}: ${issue.message}`)
      .join('; ');
    throw damaged(file, detail);
  }
  return { ...parsed.data, plugins: [...parsed.data.plugins] };
}
