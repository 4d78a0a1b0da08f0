// API keys (SPEC "Authentication"): the single key, named keys with roles and sessions, and
// the tool-endpoint key. Keys are kept and compared as SHA-256 digests in constant time, and
// every key is compared on every request, so timing tells nothing about which one matched.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { ApiKeyEntry, ApiKeyRole } from '../config/index.js';

export type Role = ApiKeyRole;

/** Which surface a request reaches: the tool endpoint accepts one key the REST API does not. */
export type Surface = 'rest' | 'mcp';

export interface Principal {
  readonly role: Role;
  /** Sessions the key may reach; `null` reaches every session. */
  readonly sessions: readonly string[] | null;
  /** SPEC "Audit actor naming"; `null` when none is recorded. */
  readonly actor: string | null;
  /**
   * The key as a caller, always named (`key:<name>`, `key:default`, `key:mcp`): the author of
   * the versions it saves, where SPEC fixes no wording.
   */
  readonly caller: string;
}

interface KeyEntry extends Principal {
  readonly digest: Buffer;
  readonly surfaces: readonly Surface[];
}

const ROLE_RANK: Readonly<Record<Role, number>> = { VIEWER: 0, OPERATOR: 1, ADMIN: 2 };

export function roleAllows(granted: Role, required: Role): boolean {
  return ROLE_RANK[granted] >= ROLE_RANK[required];
}

export function isUnrestrictedAdmin(principal: Principal): boolean {
  return principal.role === 'ADMIN' && principal.sessions === null;
}

function digestOf(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** A configured key's digest: `sha256:<hex>` entries are digests already. */
function storedDigest(key: string): Buffer {
  return key.startsWith('sha256:')
    ? Buffer.from(key.slice('sha256:'.length), 'hex')
    : digestOf(key);
}

export interface KeyRingSettings {
  readonly apiKey: string | null;
  readonly apiKeys: readonly ApiKeyEntry[];
  readonly mcpApiKey: string | null;
}

export class KeyRing {
  readonly #entries: readonly KeyEntry[];
  readonly #guardsRest: boolean;
  readonly #guardsMcp: boolean;

  constructor(settings: KeyRingSettings) {
    const named = settings.apiKeys.length > 0;
    const entries: KeyEntry[] = settings.apiKeys.map((entry) => ({
      digest: storedDigest(entry.key),
      role: entry.role,
      sessions: entry.sessions,
      actor: `key:${entry.name}`,
      caller: `key:${entry.name}`,
      surfaces: ['rest', 'mcp'],
    }));
    if (settings.apiKey !== null) {
      entries.push({
        digest: storedDigest(settings.apiKey),
        role: 'ADMIN',
        sessions: null,
        actor: named ? 'key:default' : null,
        caller: 'key:default',
        surfaces: ['rest', 'mcp'],
      });
    }
    if (settings.mcpApiKey !== null) {
      entries.push({
        digest: storedDigest(settings.mcpApiKey),
        role: 'ADMIN',
        sessions: null,
        actor: named ? 'key:mcp' : null,
        caller: 'key:mcp',
        surfaces: ['mcp'],
      });
    }
    this.#entries = entries;
    this.#guardsRest = settings.apiKey !== null || named;
    this.#guardsMcp = entries.length > 0;
  }

  /** Whether any key of any kind is configured (then host and origin checks are off). */
  get hasAnyKey(): boolean {
    return this.#entries.length > 0;
  }

  /** Whether a surface needs a key: `/mcp` with any key, the rest only with REST keys. */
  guards(surface: Surface): boolean {
    return surface === 'mcp' ? this.#guardsMcp : this.#guardsRest;
  }

  /** The principal of a presented key, or undefined when it matches no key of the surface. */
  authenticate(presented: string, surface: Surface): Principal | undefined {
    const digest = digestOf(presented);
    let found: KeyEntry | undefined;
    for (const entry of this.#entries) {
      // No early exit: every entry is compared whatever matched before.
      const equal = entry.digest.length === digest.length && timingSafeEqual(entry.digest, digest);
      if (equal && found === undefined && entry.surfaces.includes(surface)) found = entry;
    }
    return found === undefined
      ? undefined
      : { role: found.role, sessions: found.sessions, actor: found.actor, caller: found.caller };
  }
}

/** The key a request presents: `Authorization: Bearer <key>` or `X-API-Key: <key>`. */
export function presentedKey(
  headers: Readonly<Record<string, string | string[] | undefined>>,
): string | undefined {
  const authorization = headers.authorization;
  if (typeof authorization === 'string') {
    const match = /^Bearer\s+(.+)$/i.exec(authorization.trim());
    if (match?.[1] !== undefined) return match[1];
  }
  const apiKey = headers['x-api-key'];
  return typeof apiKey === 'string' && apiKey !== '' ? apiKey : undefined;
}
