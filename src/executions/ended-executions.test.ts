import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EndedExecutions } from './ended-executions.js';

describe('EndedExecutions', () => {
  it('gives back what it holds oldest first, whatever order it was added in', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 1000 })), (orders) => {
        const ended = new EndedExecutions<{ order: number }>();
        for (const order of orders) ended.add({ order });
        const taken: number[] = [];
        for (let item = ended.takeOldest(); item !== undefined; item = ended.takeOldest()) {
          taken.push(item.order);
        }
        expect(taken).toEqual([...orders].sort((a, b) => a - b));
        expect(ended.size).toBe(0);
      }),
    );
  });

  it('answers undefined when empty, and holds what is added after a take', () => {
    const ended = new EndedExecutions<{ order: number }>();
    expect(ended.takeOldest()).toBeUndefined();
    ended.add({ order: 5 });
    ended.add({ order: 2 });
    expect(ended.takeOldest()).toEqual({ order: 2 });
    ended.add({ order: 1 });
    expect(ended.takeOldest()).toEqual({ order: 1 });
    expect(ended.takeOldest()).toEqual({ order: 5 });
    expect(ended.size).toBe(0);
  });
});
