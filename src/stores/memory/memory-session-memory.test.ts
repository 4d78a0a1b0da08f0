import { describe, expect, it } from 'vitest';
import { MemorySessionMemory } from './memory-session-memory.js';

describe('MemorySessionMemory', () => {
  it('appends entries in order, keeps the newest maxEntries, reads the newest and clears', async () => {
    const memory = new MemorySessionMemory();
    for (const entry of ['a', 'b', 'c', 'd']) await memory.append('s', 'chat', entry, 3);
    expect(await memory.read('s', 'chat')).toEqual(['b', 'c', 'd']);
    expect(await memory.read('s', 'chat', 2)).toEqual(['c', 'd']);
    expect(await memory.clear('s', 'chat')).toBe(3);
    expect(await memory.read('s', 'chat')).toEqual([]);
  });

  it('keeps histories apart by session and key, and drops a session whole', async () => {
    const memory = new MemorySessionMemory();
    await memory.append('s1', 'default', 1);
    await memory.append('s1', 'other', 2);
    await memory.append('s2', 'default', 3);
    expect(await memory.read('s1', 'default')).toEqual([1]);
    memory.dropSession('s1');
    expect(await memory.read('s1', 'other')).toEqual([]);
    expect(await memory.read('s2', 'default')).toEqual([3]);
  });
});
