// Named API keys (SPEC "Keys and roles") as an operator sets them in the environment:
// `SVC_API_KEYS_<n>_NAME`, `_KEY`, `_ROLE` and `_SESSIONS`, one entry per key, in order.

export type TestRole = 'VIEWER' | 'OPERATOR' | 'ADMIN';

export interface TestKey {
  readonly role: TestRole;
  /** The key's secret; `<name>-key` unless given. */
  readonly key?: string;
  /** The sessions a restricted key reaches, comma-separated as the variable takes them. */
  readonly sessions?: string;
}

/**
 * The environment of named keys, each given by its name and role, or its name and a `TestKey`:
 * `apiKeysEnv({ viewer: 'VIEWER', limited: { role: 'ADMIN', sessions: 'mine' } })` sets the
 * keys `viewer-key` and `limited-key`.
 */
export function apiKeysEnv(
  keys: Readonly<Record<string, TestRole | TestKey>>,
): Record<string, string> {
  const env: Record<string, string> = {};
  Object.entries(keys).forEach(([name, given], index) => {
    const key: TestKey = typeof given === 'string' ? { role: given } : given;
    const prefix = `SVC_API_KEYS_${index}_`;
    env[`${prefix}NAME`] = name;
    env[`${prefix}KEY`] = key.key ?? `${name}-key`;
    env[`${prefix}ROLE`] = key.role;
    if (key.sessions !== undefined) env[`${prefix}SESSIONS`] = key.sessions;
  });
  return env;
}
