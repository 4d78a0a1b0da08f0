// Public surface of the settings layer: the schema of every svc.* setting, its loading, the
// build-time choices and the generated reference.
export {
  DEFAULT_PLUGINS,
  NATIVE_ROLES,
  OPTIONAL_PLUGINS,
  readBuildInfo,
  resolvePersistence,
  resolvePluginSelection,
  resolveWorkers,
} from './build.js';
export type { BuildFallback, BuildInfo, NativeBuild, OptionalPlugin } from './build.js';
export { renderConfigurationDoc } from './docs.js';
export { formatDuration, formatSize, parseDuration, parseSize } from './kinds.js';
export { API_KEY_ROLES } from './list-entries.js';
export type {
  ApiKeyEntry,
  ApiKeyRole,
  SupervisorDenyEntry,
  SupervisorEntry,
  SupervisorRule,
} from './list-entries.js';
export { defaultSettings, loadSettings } from './load.js';
export type { LoadSettingsOptions, LoadedSettings } from './load.js';
export { LOG_LEVELS, PROFILE_NAMES, SETTING_KEYS, STORE_TYPES, STORE_TYPE_KEYS } from './schema.js';
export type {
  BaseProfile,
  LogLevel,
  ProfileName,
  SettingKey,
  Settings,
  StoreType,
} from './schema.js';
export { settingEnvName } from './setting-names.js';
export {
  ALLOWED_ENV_NAMES,
  BLOCKED_NAME_WORDS,
  BUILT_IN_PROPERTY_NAMES,
  createConfigResolver,
  secretEnvName,
} from './variables.js';
export type { ConfigResolution, ConfigResolver, ConfigResolverOptions } from './variables.js';
