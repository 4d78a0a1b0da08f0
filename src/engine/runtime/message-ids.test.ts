import { describe, expect, it } from 'vitest';
import { childMessageId, isPlainId, plainLineage, sourceMessageId } from './message-ids.js';

describe('message ids', () => {
  it('derives the same ids from the same lineage, node and index (CONTRACT section 1)', () => {
    const first = childMessageId(sourceMessageId('run-1', '0', 3), '1', 0);
    expect(first).toBe('run-1.0-3.1');
    expect(childMessageId(sourceMessageId('run-1', '0', 3), '1', 0)).toBe(first);
    expect(childMessageId(first, '2', 1)).toBe('run-1.0-3.1.2-1');
  });

  it('keeps a plain lineage and hashes one with other characters or over 96 characters', () => {
    const uuid = '0f8fad5b-d9cb-469f-a165-70867728950e';
    expect(plainLineage(uuid)).toBe(uuid);
    for (const lineage of ['a"b', 'a b', 'new\nline', '\u00fc', 'x'.repeat(97), '']) {
      const plain = plainLineage(lineage);
      expect(plain).toMatch(/^h[A-Za-z0-9_-]{32}$/);
      expect(plainLineage(lineage)).toBe(plain);
    }
    expect(plainLineage('a"b')).not.toBe(plainLineage('a b'));
  });

  it('makes every id plain: long chains are hashed into plain ids too', () => {
    let id = sourceMessageId(plainLineage('quote " and \\ backslash'), 'z', 0);
    for (let depth = 0; depth < 40; depth++) {
      id = childMessageId(id, depth.toString(36), depth % 3);
      expect(isPlainId(id)).toBe(true);
      expect(id.length).toBeLessThanOrEqual(96);
    }
  });
});
