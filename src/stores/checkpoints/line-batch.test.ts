import { describe, expect, it } from 'vitest';
import { CHUNK_BYTES, ChunkPool, LineBatch } from './line-batch.js';

describe('LineBatch', () => {
  it('gives back every line as UTF-8 in order, counting bytes, and starts empty again', () => {
    const batch = new LineBatch();
    const lines = Array.from({ length: 3000 }, (_, index) => `line ${index} \u00fc \u{1F600}\n`);
    for (const line of lines) batch.append(line);
    const expected = Buffer.from(lines.join(''), 'utf8');
    expect(batch.bytes).toBe(expected.length);
    expect(batch.take().equals(expected)).toBe(true);
    expect(batch.bytes).toBe(0);
    expect(batch.take().length).toBe(0);
  });

  it('keeps lines longer than a chunk whole, between shorter ones', () => {
    const batch = new LineBatch();
    const lines = ['short\n', `${'\u00e9'.repeat(40_000)}\n`, 'after\n', `${'x'.repeat(16_383)}\n`];
    for (const line of lines) batch.append(line);
    expect(batch.take().toString('utf8')).toBe(lines.join(''));
  });

  it('drops what it holds on clear', () => {
    const batch = new LineBatch();
    batch.append('gone\n');
    batch.clear();
    batch.append('kept\n');
    expect(batch.take().toString('utf8')).toBe('kept\n');
  });

  it('fills chunks it takes back from its pool without mixing old content into the lines', () => {
    const pool = new ChunkPool(4 * CHUNK_BYTES);
    const batch = new LineBatch(pool);
    for (let round = 0; round < 5; round++) {
      const lines = Array.from({ length: 2000 }, (_, index) => `r${round} ${index} \u00e9\n`);
      for (const line of lines) batch.append(line);
      const chunks = batch.takeChunks();
      expect(Buffer.concat(chunks).toString('utf8')).toBe(lines.join(''));
      pool.give(chunks);
    }
    expect(pool.size).toBeGreaterThan(0);
  });
});

describe('ChunkPool', () => {
  it('keeps given chunks up to its byte bound and only whole chunks of its size', () => {
    const pool = new ChunkPool(2 * CHUNK_BYTES);
    const first = pool.take();
    const second = pool.take();
    expect(first.length).toBe(CHUNK_BYTES);
    pool.give([first.subarray(0, 10), Buffer.alloc(CHUNK_BYTES * 2), Buffer.from('small')]);
    expect(pool.size).toBe(1);
    pool.give([second.subarray(0, 5), pool.take(), Buffer.allocUnsafe(CHUNK_BYTES)]);
    expect(pool.size).toBe(2);
    const reused = pool.take();
    expect(reused.buffer === first.buffer || reused.buffer === second.buffer).toBe(true);
  });
});
