import { describe, expect, it } from 'vitest';
import { IsoTimes } from './clock.js';

describe('IsoTimes', () => {
  it('gives the ISO 8601 text of each time, also when the time goes back', () => {
    const times = new IsoTimes();
    for (const ms of [0, 0, 1, 1_764_000_000_123, 1_764_000_000_123, 5]) {
      expect(times.of(ms)).toBe(new Date(ms).toISOString());
    }
  });
});
