// What a plugin type gets of the server's settings: the values of the keys it declares, and of
// no others (plugin-api plugin-settings.ts).
import { defaultSettings } from '../config/index.js';
import type { Settings } from '../config/index.js';
import type { PluginDefinition } from '../plugin-api/index.js';

/**
 * Settings when the server gives none (tests, tools): the defaults, with file access off as a
 * server without a files directory has it.
 */
export const TOOL_SETTINGS: Settings = { ...defaultSettings('dev'), 'svc.files.base-dir': null };

/** The values of the keys a type declares, and of no others. */
export function settingsOf<S>(definition: PluginDefinition<unknown, S>, server: Settings): S {
  const declared = definition.settings;
  if (declared === undefined) return undefined as S;
  const values = Object.fromEntries(declared.keys.map((key) => [key, server[key]]));
  return declared.make(Object.freeze(values));
}
