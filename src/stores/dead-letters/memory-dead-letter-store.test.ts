import { describe, expect, it } from 'vitest';
import { deadLetter, describeDeadLetterStoreConformance } from './dead-letter-store.conformance.js';
import { MemoryDeadLetterStore } from './memory-dead-letter-store.js';

describeDeadLetterStoreConformance('memory', () =>
  Promise.resolve({
    store: new MemoryDeadLetterStore({ maxExecutions: 10, maxPerExecution: 200 }),
    cleanup: () => Promise.resolve(),
  }),
);

describe('memory dead-letter store caps', () => {
  it('keeps the letters of the newest executions only, counting what it lets go', async () => {
    const dropped: number[] = [];
    const store = new MemoryDeadLetterStore({
      maxExecutions: 2,
      maxPerExecution: 10,
      onDrop: (letters) => dropped.push(letters),
    });
    await store.add(deadLetter('a1', { executionId: 'a' }));
    await store.add(deadLetter('a2', { executionId: 'a' }));
    await store.add(deadLetter('b1', { executionId: 'b' }));
    await store.add(deadLetter('c1', { executionId: 'c' }));
    expect(await store.get('a1')).toBeUndefined();
    expect(await store.get('b1')).toBeDefined();
    expect(await store.get('c1')).toBeDefined();
    expect(store.size).toBe(2);
    expect(dropped).toEqual([2]);
  });

  it('keeps at most its cap of letters per execution and lets later ones go', async () => {
    const dropped: number[] = [];
    const store = new MemoryDeadLetterStore({
      maxExecutions: 2,
      maxPerExecution: 2,
      onDrop: (letters) => dropped.push(letters),
    });
    for (const id of ['x1', 'x2', 'x3']) await store.add(deadLetter(id));
    expect(store.size).toBe(2);
    expect(await store.get('x3')).toBeUndefined();
    expect(dropped).toEqual([1]);
    // A letter deleted makes room again.
    await store.delete('x1');
    await store.add(deadLetter('x4'));
    expect(await store.get('x4')).toBeDefined();
  });
});
