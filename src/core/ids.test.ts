import { describe, expect, it } from 'vitest';
import { createOrderedIds, randomIds } from './ids.js';

describe('createOrderedIds', () => {
  it('makes UUIDs of version 7 that sort as they were made, within a millisecond too', () => {
    let now = 1_700_000_000_000;
    const ids = createOrderedIds(() => now);
    const made = [ids(), ids(), ids()];
    now += 1;
    made.push(ids());
    // A clock that steps back keeps the order.
    now -= 5;
    made.push(ids());
    for (const id of made) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    expect([...made].sort()).toEqual(made);
    expect(new Set(made).size).toBe(made.length);
    expect(made[0]?.replace(/-/g, '').slice(0, 12)).toBe(
      (1_700_000_000_000).toString(16).padStart(12, '0'),
    );
  });

  it('borrows the next millisecond after 4,096 ids in one', () => {
    const ids = createOrderedIds(() => 0);
    const made = Array.from({ length: 5000 }, () => ids());
    expect([...made].sort()).toEqual(made);
  });
});

describe('randomIds', () => {
  it('makes UUIDs of version 4, none twice, across refills of its random bytes', () => {
    const made = Array.from({ length: 1000 }, () => randomIds());
    for (const id of made) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    expect(new Set(made).size).toBe(made.length);
    // Every digit place varies: no byte is left unwritten.
    for (let place = 0; place < 36; place++) {
      if ([8, 13, 14, 18, 23].includes(place)) continue;
      expect(new Set(made.map((id) => id[place])).size).toBeGreaterThan(1);
    }
  });
});
