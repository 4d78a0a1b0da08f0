// The one test suite every DeadLetterStore adapter runs (memory, file, PostgreSQL), so they all
// keep the contract written on the port in dead-letter-store.ts (docs/dead-letters.md).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DeadLetter, DeadLetterStore } from './dead-letter-store.js';

export interface DeadLetterStoreFixture {
  /** Not yet opened: the suite opens and closes it. */
  readonly store: DeadLetterStore;
  /** A new, not yet opened store over the same persisted data; omitted by volatile stores. */
  readonly reopen?: () => Promise<DeadLetterStore>;
  readonly cleanup: () => Promise<void>;
}

export function deadLetter(id: string, overrides: Partial<DeadLetter> = {}): DeadLetter {
  return {
    id,
    executionId: 'e1',
    sessionId: 's1',
    workflowId: 'w1',
    nodeId: 'n1',
    nodeType: 'MAPPER',
    messageId: `m-${id}`,
    payload: { id, text: 'ünïcode \u0000 and "quotes"' },
    headers: { attempt: 2 },
    error: 'boom',
    attempts: [
      { attempt: 1, error: 'first' },
      { attempt: 2, error: 'boom' },
    ],
    createdAt: '2026-01-01T00:00:00.000Z',
    redrivenAs: null,
    redrivenAt: null,
    ...overrides,
  };
}

/** Five letters a second apart, `l1` the oldest, over two sessions, workflows and nodes. */
const LETTERS: readonly DeadLetter[] = [1, 2, 3, 4, 5].map((n) =>
  deadLetter(`l${String(n)}`, {
    createdAt: `2026-01-01T00:00:0${String(n)}.000Z`,
    executionId: n <= 3 ? 'e1' : 'e2',
    sessionId: n % 2 === 0 ? 's2' : 's1',
    workflowId: n === 5 ? 'w2' : 'w1',
    nodeId: n === 1 ? 'n2' : 'n1',
  }),
);

const ids = (letters: readonly DeadLetter[]): string[] => letters.map((letter) => letter.id);

export function describeDeadLetterStoreConformance(
  name: string,
  createFixture: () => Promise<DeadLetterStoreFixture>,
): void {
  describe(`${name} dead-letter store conformance`, () => {
    let fixture: DeadLetterStoreFixture;
    let store: DeadLetterStore;

    beforeEach(async () => {
      fixture = await createFixture();
      store = fixture.store;
      await store.open();
      for (const letter of LETTERS) await store.add(letter);
    });

    afterEach(async () => {
      await store.close();
      await fixture.cleanup();
    });

    it('answers a letter as it was added, and nothing for an unknown id', async () => {
      expect(await store.get('l2')).toEqual(LETTERS[1]);
      expect(await store.get('missing')).toBeUndefined();
      expect(store.size).toBe(5);
    });

    it('lists newest first, ties by id descending', async () => {
      await store.add(deadLetter('l0', { createdAt: LETTERS[4]?.createdAt ?? '' }));
      const { letters, more } = await store.list({}, { limit: 10 });
      expect(ids(letters)).toEqual(['l5', 'l0', 'l4', 'l3', 'l2', 'l1']);
      expect(more).toBe(false);
    });

    it('filters by session, workflow, node, execution and reachable sessions', async () => {
      const list = async (filter: Parameters<DeadLetterStore['list']>[0]) =>
        ids((await store.list(filter, { limit: 10 })).letters);
      expect(await list({ sessionId: 's2' })).toEqual(['l4', 'l2']);
      expect(await list({ workflowId: 'w2' })).toEqual(['l5']);
      expect(await list({ nodeId: 'n2' })).toEqual(['l1']);
      expect(await list({ executionId: 'e2' })).toEqual(['l5', 'l4']);
      expect(await list({ sessions: ['s1'] })).toEqual(['l5', 'l3', 'l1']);
      expect(await list({ sessions: [] })).toEqual([]);
      expect(await list({ sessions: null, executionId: 'e1', sessionId: 's1' })).toEqual([
        'l3',
        'l1',
      ]);
    });

    it('pages after a position, also when the letter there was deleted', async () => {
      const first = await store.list({}, { limit: 2 });
      expect(ids(first.letters)).toEqual(['l5', 'l4']);
      expect(first.more).toBe(true);
      const last = first.letters[1];
      if (last === undefined) throw new Error('no letter');
      await store.delete(last.id);
      const second = await store.list({}, { limit: 2, after: last });
      expect(ids(second.letters)).toEqual(['l3', 'l2']);
      expect(second.more).toBe(true);
      const third = await store.list({}, { limit: 2, after: second.letters[1] });
      expect(ids(third.letters)).toEqual(['l1']);
      expect(third.more).toBe(false);
    });

    it('marks a letter redriven, and answers nothing for an unknown one', async () => {
      const marked = await store.markRedriven('l3', 'e9', '2026-01-02T00:00:00.000Z');
      expect(marked).toEqual({
        ...LETTERS[2],
        redrivenAs: 'e9',
        redrivenAt: '2026-01-02T00:00:00.000Z',
      });
      expect(await store.get('l3')).toEqual(marked);
      expect(await store.markRedriven('missing', 'e9', '2026-01-02T00:00:00.000Z')).toBeUndefined();
    });

    it('deletes a letter once', async () => {
      expect(await store.delete('l1')).toBe(true);
      expect(await store.delete('l1')).toBe(false);
      expect(await store.get('l1')).toBeUndefined();
      expect(store.size).toBe(4);
    });

    it("drops an execution's letters and no other", async () => {
      await store.drop('e1');
      expect(ids((await store.list({}, { limit: 10 })).letters)).toEqual(['l5', 'l4']);
      expect(store.size).toBe(2);
      await store.drop('missing');
      expect(store.size).toBe(2);
    });

    it('keeps letters, marks and deletions across a reopen (durable stores)', async (context) => {
      const reopen = fixture.reopen;
      if (reopen === undefined) {
        expect(store.durable).toBe(false);
        context.skip();
        return;
      }
      expect(store.durable).toBe(true);
      await store.markRedriven('l2', 'e9', '2026-01-02T00:00:00.000Z');
      await store.delete('l4');
      await store.close();
      store = await reopen();
      await store.open();
      expect(store.size).toBe(4);
      expect(ids((await store.list({}, { limit: 10 })).letters)).toEqual(['l5', 'l3', 'l2', 'l1']);
      expect((await store.get('l2'))?.redrivenAs).toBe('e9');
      expect(await store.get('l1')).toEqual(LETTERS[0]);
    });
  });
}
