import { describe, expect, it } from 'vitest';
import { LineBatch } from './line-batch.js';

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
});
