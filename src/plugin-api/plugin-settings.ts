// The server settings a plugin type reads (SPEC Workflow-author safeguards, among others): a
// type names the `svc.*` keys it needs, and the host hands it the values of those keys and of
// no others, made into the type's own settings once per server.
import type { SettingKey, Settings } from '../config/index.js';

/** The values of `Keys` only: what a plugin's `make` is given. */
export type SettingValues<Keys extends SettingKey> = Pick<Settings, Keys>;

export interface PluginSettings<Value> {
  /** The keys the type reads. */
  readonly keys: readonly SettingKey[];
  /**
   * Makes the type's settings from the values of `keys`, once per server (a control plane and
   * each worker make their own): state shared by every node of the type, such as a rate
   * limiter, lives here.
   */
  readonly make: (values: Readonly<Partial<Settings>>) => Value;
  /**
   * Releases what `make` opened (worker threads, connections) when the server closes; called
   * only for settings that were made.
   */
  readonly close?: (value: Value) => void | Promise<void>;
}

export interface PluginSettingsOptions<Value> {
  /** Releases what `make` opened when the server closes. */
  readonly close?: (value: Value) => void | Promise<void>;
}

/** Declares the settings a plugin reads, with the values of exactly those keys typed. */
export function pluginSettings<const Keys extends readonly SettingKey[], Value>(
  keys: Keys,
  make: (values: SettingValues<Keys[number]>) => Value,
  options: PluginSettingsOptions<Value> = {},
): PluginSettings<Value> {
  // The host passes the values of `keys`, so the narrower parameter holds at run time.
  const made = { keys, make: make as (values: Readonly<Partial<Settings>>) => Value };
  return options.close === undefined ? made : { ...made, close: options.close };
}
