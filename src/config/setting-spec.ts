// What a setting is (its value kind, its default in each profile, one line of documentation),
// and the checks and kinds the setting tables share.
import { oneOf, stringList } from './kinds.js';
import type { Codec } from './kinds.js';
import { messageOf } from '../core/index.js';

export const PROFILE_NAMES = ['dev', 'prod', 'postgres'] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

/** The profiles that carry their own defaults; `postgres` is `dev` with relational stores. */
export type BaseProfile = 'dev' | 'prod';

export const LOG_LEVELS = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'OFF'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const STORE_TYPES = ['memory', 'file', 'postgres'] as const;
export type StoreType = (typeof STORE_TYPES)[number];

export interface SettingSpec<TValue> {
  readonly codec: Codec<TValue>;
  readonly dev: TValue;
  readonly prod: TValue;
  readonly doc: string;
  /** Kept out of error messages: keys, tokens and URLs that may carry a password. */
  readonly secret: boolean;
}

type Defaults<TValue> =
  { readonly default: TValue } | { readonly dev: TValue; readonly prod: TValue };

export function setting<TValue>(
  codec: Codec<TValue>,
  defaults: Defaults<NoInfer<TValue>>,
  doc: string,
  options: { secret?: boolean } = {},
): SettingSpec<TValue> {
  const [dev, prod] =
    'default' in defaults ? [defaults.default, defaults.default] : [defaults.dev, defaults.prod];
  return { codec, dev, prod, doc, secret: options.secret ?? false };
}

export function compiles(pattern: string): string | null {
  try {
    new RegExp(pattern);
    return null;
  } catch (error) {
    return `not a valid regular expression: ${messageOf(error)}`;
  }
}

const ORIGIN_HINT = 'expected an origin such as https://app.example:8443 (scheme, host, port)';

export function isOrigin(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return ORIGIN_HINT;
  }
  const bare =
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.username === '' &&
    url.password === '' &&
    url.pathname === '/' &&
    url.search === '' &&
    url.hash === '' &&
    !value.endsWith('/');
  return bare ? null : ORIGIN_HINT;
}

export function isPostgresUrl(value: string): string | null {
  const hint = 'expected a postgres:// or postgresql:// URL';
  if (!/^postgres(ql)?:\/\//i.test(value)) return hint;
  try {
    new URL(value);
    return null;
  } catch {
    return hint;
  }
}

/** A plain lower-case identifier, so it needs no quoting and reads the same everywhere. */
export function isSchemaName(value: string): string | null {
  return /^[a-z_][a-z0-9_]{0,62}$/.test(value)
    ? null
    : 'expected a schema name of lower-case letters, digits and _ (at most 63, not starting with a digit)';
}

/** `host:port`, with an IPv6 host in brackets (`[::1]:8081`). */
export function isHostPort(value: string): string | null {
  const match = /^(\[[^\]]+\]|[^:[\]\s]+):(\d{1,5})$/.exec(value.trim());
  const port = Number(match?.[2]);
  return match !== null && port >= 1 && port <= 65535
    ? null
    : 'expected host:port, e.g. control.example:8081 or [::1]:8081';
}

/** The largest payload setting: about what one JavaScript string can hold. */
export const MAX_PAYLOAD_SETTING = 2 ** 29;
/** A memory budget beyond 1 TiB is a mistyped unit, not a plan. */
export const MAX_BUDGET = 2 ** 40;

export const regexList = () => stringList({ check: compiles });
export const logLevel = () => oneOf(LOG_LEVELS);
export const storeType = () => oneOf(STORE_TYPES);
