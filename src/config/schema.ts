// Every svc.* setting as data: its value kind, its default in each profile, and one line of
// documentation. The loader, the documentation and the `Settings` type are all derived from it.
// The tables are in settings-server.ts and settings-runs.ts, in the order the documentation
// lists them.
import { RUN_SETTINGS } from './settings-runs.js';
import { SERVER_SETTINGS } from './settings-server.js';
import type { SettingSpec } from './setting-spec.js';

export { LOG_LEVELS, PROFILE_NAMES, STORE_TYPES } from './setting-spec.js';
export type { BaseProfile, LogLevel, ProfileName, SettingSpec, StoreType } from './setting-spec.js';

export const SETTINGS = { ...SERVER_SETTINGS, ...RUN_SETTINGS } as const;

export type SettingKey = keyof typeof SETTINGS;

type ValueOf<TSpec> = TSpec extends SettingSpec<infer TValue> ? TValue : never;

/** Every setting with its typed value; maps are read as `settings['svc.var.*'][name]`. */
export type Settings = { readonly [TKey in SettingKey]: ValueOf<(typeof SETTINGS)[TKey]> };

export const SETTING_KEYS = Object.keys(SETTINGS) as readonly SettingKey[];

/** Free-form maps: their key ends in `.*` and any name below the prefix is a value. */
export function isMapKey(key: SettingKey): boolean {
  return key.endsWith('.*');
}

/** `svc.var` for `svc.var.*`. */
export function mapPrefix(key: SettingKey): string {
  return key.slice(0, -2);
}

/** Profile `postgres` is `dev` with the relational stores. */
export const POSTGRES_OVERRIDES = {
  'svc.session.store-type': 'postgres',
  'svc.restart.store-type': 'postgres',
  'svc.execution-log.store-type': 'postgres',
} as const satisfies Partial<Settings>;

/** The settings that choose a store; `postgres` in any of them needs the relational stores. */
export const STORE_TYPE_KEYS = [
  'svc.session.store-type',
  'svc.restart.store-type',
  'svc.execution-log.store-type',
] as const satisfies readonly SettingKey[];
