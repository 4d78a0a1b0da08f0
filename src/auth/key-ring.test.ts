import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KeyRing, presentedKey } from './key-ring.js';

const sha = (key: string) => `sha256:${createHash('sha256').update(key).digest('hex')}`;

describe('KeyRing (SPEC Authentication)', () => {
  it('accepts exactly the configured keys, plain or as sha256 digests (property)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 40 }), { minLength: 1, maxLength: 6 }),
        fc.string({ maxLength: 40 }),
        fc.boolean(),
        (keys, probe, hashed) => {
          const ring = new KeyRing({
            apiKey: null,
            apiKeys: keys.map((key, index) => ({
              name: `k${index}`,
              key: hashed ? sha(key) : key,
              role: 'VIEWER' as const,
              sessions: null,
            })),
            mcpApiKey: null,
          });
          for (const key of keys) expect(ring.authenticate(key, 'rest')).toBeDefined();
          expect(ring.authenticate(probe, 'rest') !== undefined).toBe(keys.includes(probe));
        },
      ),
    );
  });

  it('names actors as SPEC Audit actor naming says', () => {
    const named = new KeyRing({
      apiKey: 'single',
      apiKeys: [{ name: 'ci', key: 'ci-key', role: 'OPERATOR', sessions: null }],
      mcpApiKey: 'tool',
    });
    expect(named.authenticate('ci-key', 'rest')?.actor).toBe('key:ci');
    expect(named.authenticate('single', 'rest')?.actor).toBe('key:default');
    expect(named.authenticate('tool', 'mcp')?.actor).toBe('key:mcp');
    const alone = new KeyRing({ apiKey: 'single', apiKeys: [], mcpApiKey: null });
    expect(alone.authenticate('single', 'rest')).toEqual({
      role: 'ADMIN',
      sessions: null,
      actor: null,
      caller: 'key:default',
    });
  });

  it('names every key as a caller, also where SPEC records no audit actor', () => {
    const alone = new KeyRing({ apiKey: 'single', apiKeys: [], mcpApiKey: 'tool' });
    expect(alone.authenticate('single', 'rest')?.caller).toBe('key:default');
    expect(alone.authenticate('tool', 'mcp')?.caller).toBe('key:mcp');
    const named = new KeyRing({
      apiKey: null,
      apiKeys: [{ name: 'ci', key: 'ci-key', role: 'OPERATOR', sessions: null }],
      mcpApiKey: null,
    });
    expect(named.authenticate('ci-key', 'mcp')?.caller).toBe('key:ci');
  });

  it('lets the tool-endpoint key reach /mcp alone and leaves the REST API open', () => {
    const ring = new KeyRing({ apiKey: null, apiKeys: [], mcpApiKey: 'tool' });
    expect(ring.hasAnyKey).toBe(true);
    expect(ring.guards('rest')).toBe(false);
    expect(ring.guards('mcp')).toBe(true);
    expect(ring.authenticate('tool', 'rest')).toBeUndefined();
    expect(ring.authenticate('tool', 'mcp')?.role).toBe('ADMIN');
  });

  it('keeps several keys valid at once, so keys can be rotated', () => {
    const ring = new KeyRing({
      apiKey: null,
      apiKeys: [
        { name: 'old', key: 'old-key', role: 'ADMIN', sessions: null },
        { name: 'new', key: 'new-key', role: 'ADMIN', sessions: null },
      ],
      mcpApiKey: null,
    });
    expect(ring.authenticate('old-key', 'rest')?.actor).toBe('key:old');
    expect(ring.authenticate('new-key', 'rest')?.actor).toBe('key:new');
  });

  it('reads the key from Authorization: Bearer or X-API-Key', () => {
    expect(presentedKey({ authorization: 'Bearer abc' })).toBe('abc');
    expect(presentedKey({ authorization: 'bearer  abc ' })).toBe('abc');
    expect(presentedKey({ 'x-api-key': 'xyz' })).toBe('xyz');
    expect(presentedKey({ authorization: 'Basic abc' })).toBeUndefined();
    expect(presentedKey({})).toBeUndefined();
  });
});
