// Plugins from the directory `svc.plugins.dir` names (docs/writing-a-plugin.md): each `*.js` or
// `*.mjs` file, and each package folder, default-exports a plugin definition. A file that does
// not stops start-up with a message naming it, as a bad setting does.
import { readFile, readdir } from 'node:fs/promises';
import { registerHooks } from 'node:module';
import { extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SETTING_KEYS } from '../config/index.js';
import { AppError, messageOf } from '../core/index.js';
import { z } from '../plugin-api/index.js';
import type { PluginDefinition } from '../plugin-api/index.js';
import { entry } from './builtin-plugins.js';
import type { PluginEntry } from './builtin-plugins.js';

/** The name plugins import the plugin API by; the package exports it (package.json). */
export const PLUGIN_API_SPECIFIER = 'workflow-service/plugin-api';

/** One plugin type found in the directory. */
export interface DirectoryPlugin {
  readonly entry: PluginEntry;
  /** The file or folder it came from, absolute, for messages. */
  readonly source: string;
  /** What plugin discovery shows as its plugin: `dir:` and the file or folder name. */
  readonly origin: string;
}

const SCRIPT_EXTENSIONS: ReadonlySet<string> = new Set(['.js', '.mjs']);
const KNOWN_SETTINGS: ReadonlySet<string> = new Set(SETTING_KEYS);

/**
 * The shape a default export must have. Functions and the schema are checked by what they
 * offer, not by class: a plugin built against another copy of zod still parses.
 */
const definitionShape = z.object({
  type: z
    .string()
    .regex(/^[A-Z][A-Z0-9_]*$/, 'Expected an upper-case name such as MY_TYPE (A-Z, 0-9, _)'),
  kind: z.enum(['trigger', 'processor', 'terminal']),
  description: z.string().min(1),
  configSchema: z.custom<z.ZodType>(
    (value) =>
      typeof value === 'object' &&
      value !== null &&
      '_zod' in value &&
      'safeParse' in value &&
      typeof value.safeParse === 'function',
    'Expected a zod schema (use the z the plugin API exports)',
  ),
  outputPorts: z.custom<(config: unknown) => readonly string[]>(
    (value) => typeof value === 'function',
    'Expected a function',
  ),
  create: z
    .custom<PluginDefinition<unknown>['create']>(
      (value) => typeof value === 'function',
      'Expected a function',
    )
    .optional(),
  defaultTimeoutSeconds: z.number().positive().optional(),
  pure: z.boolean().optional(),
  settings: z
    .object({
      keys: z.array(
        z.string().refine((key) => KNOWN_SETTINGS.has(key), {
          error: (issue) => `Unknown setting '${String(issue.input)}'`,
        }),
      ),
      make: z.custom<(values: unknown) => unknown>(
        (value) => typeof value === 'function',
        'Expected a function',
      ),
    })
    .optional(),
});

function refused(source: string, detail: string): AppError {
  return new AppError('SETTINGS_INVALID', {
    params: { detail: `svc.plugins.dir: plugin '${source}' ${detail}` },
  });
}

/**
 * Lets a plugin anywhere on disk import the plugin API by the package's name and get this
 * server's own copy: one StepFailure class, one zod, no install next to the plugin.
 */
let apiHooked = false;
function providePluginApi(): void {
  if (apiHooked) return;
  apiHooked = true;
  const url = import.meta.resolve('../plugin-api/index.js');
  registerHooks({
    resolve: (specifier, context, nextResolve) =>
      specifier === PLUGIN_API_SPECIFIER
        ? { url, shortCircuit: true }
        : nextResolve(specifier, context),
  });
}

/** The module a package folder names as its entry (`exports`, then `main`, then index.js). */
async function packageEntry(folder: string): Promise<string> {
  let manifest: unknown;
  try {
    manifest = JSON.parse(await readFile(join(folder, 'package.json'), 'utf8'));
  } catch (error) {
    throw refused(folder, `is a folder without a readable package.json: ${messageOf(error)}`);
  }
  const fields = typeof manifest === 'object' && manifest !== null ? manifest : {};
  const exported = 'exports' in fields ? rootExport(fields.exports) : undefined;
  const main = 'main' in fields && typeof fields.main === 'string' ? fields.main : undefined;
  return join(folder, exported ?? main ?? 'index.js');
}

/** `"exports": "./x.js"`, `{ ".": "./x.js" }` or conditions (`import`, `default`). */
function rootExport(exports: unknown): string | undefined {
  if (typeof exports === 'string') return exports;
  if (typeof exports !== 'object' || exports === null) return undefined;
  const record = exports as Record<string, unknown>;
  if ('.' in record) return rootExport(record['.']);
  return rootExport(record['import'] ?? record['default']);
}

async function loadOne(source: string, modulePath: string, origin: string) {
  let loaded: unknown;
  try {
    loaded = await import(pathToFileURL(modulePath).href);
  } catch (error) {
    throw refused(source, `did not load: ${messageOf(error)}`);
  }
  const exported =
    typeof loaded === 'object' && loaded !== null && 'default' in loaded
      ? loaded.default
      : undefined;
  if (exported === undefined) {
    throw refused(source, 'has no default export: export default definePlugin({ ... })');
  }
  const checked = definitionShape.safeParse(exported);
  if (!checked.success) {
    const problems = checked.error.issues.map(
      (issue) => `${issue.path.join('.') || 'default export'}: ${issue.message}`,
    );
    throw refused(source, `is not a plugin definition: ${problems.join('; ')}`);
  }
  // The checked object is the plugin's own (its functions keep their `this`), not the copy.
  const definition = exported as PluginDefinition<unknown>;
  return { entry: entry(definition), source, origin };
}

export interface PluginDirectoryOptions {
  /**
   * A native binary is one bundled script: it has no plugin API module a plugin could import,
   * so it refuses the setting rather than fail on the first plugin.
   */
  readonly native?: boolean;
}

/** Loads every plugin of `dir`, sorted by name; none when `dir` is null. */
export async function loadPluginDirectory(
  dir: string | null,
  options: PluginDirectoryOptions = {},
): Promise<DirectoryPlugin[]> {
  if (dir === null) return [];
  if (options.native === true) {
    throw new AppError('SETTINGS_INVALID', {
      params: {
        detail:
          'svc.plugins.dir: a native binary cannot load plugins; run the server from its package (npm start)',
      },
    });
  }
  const root = resolve(dir);
  let names;
  try {
    names = await readdir(root, { withFileTypes: true });
  } catch (error) {
    throw new AppError('SETTINGS_INVALID', {
      params: { detail: `svc.plugins.dir: cannot read '${root}': ${messageOf(error)}` },
    });
  }
  providePluginApi();
  const plugins: DirectoryPlugin[] = [];
  // Hidden entries and a node_modules folder are the plugins' own files, not plugins.
  const candidates = names
    .filter((item) => !item.name.startsWith('.') && item.name !== 'node_modules')
    .sort((a, b) => a.name.localeCompare(b.name));
  for (const item of candidates) {
    const source = join(root, item.name);
    const origin = `dir:${item.name}`;
    if (item.isDirectory()) {
      plugins.push(await loadOne(source, await packageEntry(source), origin));
    } else if (SCRIPT_EXTENSIONS.has(extname(item.name))) {
      plugins.push(await loadOne(source, source, origin));
    }
  }
  return plugins;
}
