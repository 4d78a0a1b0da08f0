// The one test suite every CheckpointStore adapter runs (memory, spill, file), so they all
// keep the contract written on the port in src/engine/checkpoints.ts (SPEC "Checkpoint").
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type {
  CheckpointStore,
  NodeRecorder,
  RecordedApproval,
  RecordedMessage,
} from '../../engine/index.js';
import { AWKWARD_IDS } from '../conformance/session-store.conformance.js';

export interface CheckpointStoreFixture {
  /** Not yet opened: the suite opens and closes it. */
  readonly store: CheckpointStore;
  /** A new, not yet opened store over the same persisted data; omitted by volatile stores. */
  readonly reopen?: () => Promise<CheckpointStore>;
  /**
   * Payloads that, recorded in this order by one node, leave its output unsavable; omitted
   * by stores that can hold any payload.
   */
  readonly unsavablePayloads?: readonly unknown[];
  /**
   * Leaves a torn last record in what the closed store persisted for the execution, as a
   * crash in the middle of a write does; durable stores only.
   */
  readonly tear?: (executionId: string) => Promise<void>;
  /** Runs after the suite has closed every store it opened. */
  readonly cleanup: () => Promise<void>;
}

export function recordedMessage(
  id: string,
  payload: unknown,
  overrides: Partial<RecordedMessage> = {},
): RecordedMessage {
  return { id, port: 'out', payload, headers: { attempt: 1 }, ...overrides };
}

/** Records `count` messages with string payloads `<prefix>-<index>`; answers them. */
function recordMany(recorder: NodeRecorder, prefix: string, count: number): RecordedMessage[] {
  const messages = Array.from({ length: count }, (_, index) =>
    recordedMessage(`${prefix}-m${index}`, `${prefix}-${index}`),
  );
  // The engine makes a fresh object per record; a store may note an encoding on it.
  for (const message of messages) void recorder.record({ ...message });
  return messages;
}

/** Awaits end() whether the store answers at once (undefined) or with a promise. */
async function ended(recorder: NodeRecorder): Promise<void> {
  await recorder.end();
}

const APPROVALS: readonly RecordedApproval[] = [
  { nodeId: 'wait', messageId: 'm1', approved: true },
  { nodeId: 'wait', messageId: 'm2', approved: false, comment: 'not today', payload: { n: 2 } },
  { nodeId: 'gate', messageId: 'm1', approved: true, comment: null, payload: 'as is' },
];

export function describeCheckpointStoreConformance(
  name: string,
  createFixture: () => Promise<CheckpointStoreFixture>,
): void {
  describe(`${name} checkpoint store conformance`, () => {
    let fixture: CheckpointStoreFixture;
    /** The store the current test talks to; replaced by `reopened()`. */
    let store: CheckpointStore;

    beforeEach(async () => {
      fixture = await createFixture();
      store = fixture.store;
      await store.open();
    });

    afterEach(async () => {
      await store.close();
      await fixture.cleanup();
    });

    /** Closes the current store and opens a new one over the same data. */
    async function reopened(reopen: () => Promise<CheckpointStore>): Promise<CheckpointStore> {
      await store.close();
      store = await reopen();
      await store.open();
      return store;
    }

    /** Runs `check` now, and again after a reopen when the adapter persists. */
    async function checkNowAndAfterReopen(
      check: (current: CheckpointStore) => Promise<void>,
    ): Promise<void> {
      await check(store);
      if (fixture.reopen) await check(await reopened(fixture.reopen));
    }

    it('answers undefined, empty lists and zero bytes for executions it does not hold', async () => {
      expect(await store.summary('missing')).toBeUndefined();
      expect(await store.output('missing', 'node')).toBeUndefined();
      expect(await store.approvals('missing')).toEqual([]);
      expect(await store.executions()).toEqual([]);
      await store.drop('missing');
      expect(store.bytes).toBe(0);
    });

    it('records every message of a node in order, with its id, port, payload and headers (SPEC Checkpoint)', async () => {
      const messages = [
        recordedMessage('m1', 'text'),
        recordedMessage('m2', 42, { port: 'error' }),
        recordedMessage('m3', { nested: { list: [1, 'two', null] } }),
        recordedMessage('m4', null, { headers: { attempt: 1, trace: 'abc' } }),
        recordedMessage('m5', [1, 2, 3]),
        recordedMessage('m6', Buffer.from([0, 1, 254, 255])),
        recordedMessage('m7', undefined),
        recordedMessage('m8', 'line\nbreak "quoted" \u00fc \u{1F600}'),
        ...Array.from({ length: 40 }, (_, index) => recordedMessage(`n${index}`, index)),
      ];
      const writer = store.writer('e1');
      const recorder = writer.node('node');
      for (const message of messages) void recorder.record({ ...message });
      await ended(recorder);
      await checkNowAndAfterReopen(async (current) => {
        expect(await current.output('e1', 'node')).toEqual(messages);
      });
    });

    it('keeps the output of each node apart, also when their messages interleave', async () => {
      const writer = store.writer('e1');
      const first = writer.node('first');
      const second = writer.node('second');
      const expectedFirst: RecordedMessage[] = [];
      const expectedSecond: RecordedMessage[] = [];
      for (let index = 0; index < 20; index++) {
        const one = recordedMessage(`a${index}`, `first ${index}`);
        const two = recordedMessage(`b${index}`, `second ${index}`);
        void first.record({ ...one });
        void second.record({ ...two });
        expectedFirst.push(one);
        expectedSecond.push(two);
      }
      await ended(first);
      await ended(second);
      expect(await store.output('e1', 'first')).toEqual(expectedFirst);
      expect(await store.output('e1', 'second')).toEqual(expectedSecond);
      expect(await store.output('e1', 'third')).toBeUndefined();
    });

    it('counts a node complete only once its end marker is written (SPEC Checkpoint)', async () => {
      const writer = store.writer('e1');
      const recorder = writer.node('node');
      const messages = recordMany(recorder, 'node', 3);
      expect(await store.summary('e1')).toEqual([
        expect.objectContaining({ nodeId: 'node', messages: 3, complete: false }),
      ]);
      expect(await store.output('e1', 'node')).toBeUndefined();
      await ended(recorder);
      expect(await store.summary('e1')).toEqual([
        expect.objectContaining({ nodeId: 'node', messages: 3, complete: true, truncated: false }),
      ]);
      expect(await store.output('e1', 'node')).toEqual(messages);
    });

    it('summarises nodes in the order they were first recorded, with their counts', async () => {
      const writer = store.writer('e1');
      const later = writer.node('b-later');
      const earlier = writer.node('a-earlier');
      const empty = writer.node('c-empty');
      const open = writer.node('d-open');
      recordMany(later, 'later', 3);
      recordMany(earlier, 'earlier', 1);
      recordMany(open, 'open', 2);
      await ended(earlier);
      await ended(later);
      await ended(empty);
      await checkNowAndAfterReopen(async (current) => {
        const summary = await current.summary('e1');
        expect(summary?.map((node) => [node.nodeId, node.messages, node.complete])).toEqual([
          ['b-later', 3, true],
          ['a-earlier', 1, true],
          ['c-empty', 0, true],
          ['d-open', 2, false],
        ]);
        for (const node of summary ?? []) {
          expect(node.truncated).toBe(false);
          if (node.messages === 0) expect(node.bytes).toBe(0);
          else expect(node.bytes).toBeGreaterThan(0);
        }
        expect(await current.output('e1', 'c-empty')).toEqual([]);
        expect(await current.output('e1', 'd-open')).toBeUndefined();
      });
    });

    it('rejects end() of a node whose output could not be saved and leaves it unmarked (SPEC Checkpoint)', async ({
      skip,
    }) => {
      const { unsavablePayloads } = fixture;
      if (!unsavablePayloads) return skip('the store can hold any payload');
      const writer = store.writer('e1');
      const broken = writer.node('broken');
      const fine = writer.node('fine');
      const kept = recordMany(fine, 'fine', 2);
      unsavablePayloads.forEach((payload, index) => {
        expect(() => {
          void broken.record(recordedMessage(`x${index}`, payload));
        }).not.toThrow();
      });
      const ending = broken.end();
      expect(ending).toBeInstanceOf(Promise);
      await expect(ending).rejects.toMatchObject({ code: 'STORE_FAILED' });
      await ended(fine);
      await checkNowAndAfterReopen(async (current) => {
        const summary = await current.summary('e1');
        expect(summary?.find((node) => node.nodeId === 'broken')?.complete).toBe(false);
        expect(await current.output('e1', 'broken')).toBeUndefined();
        expect(await current.output('e1', 'fine')).toEqual(kept);
      });
    });

    it('keeps approvals in the order they were recorded (SPEC Events 9)', async () => {
      const writer = store.writer('e1');
      for (const approval of APPROVALS) await writer.approval(approval);
      await checkNowAndAfterReopen(async (current) => {
        expect(await current.approvals('e1')).toEqual(APPROVALS);
        expect(await current.approvals('other')).toEqual([]);
      });
    });

    it('lists the executions it holds and keeps each one apart', async () => {
      for (const executionId of ['e1', 'e2', 'e3']) {
        const writer = store.writer(executionId);
        const recorder = writer.node('node');
        recordMany(recorder, executionId, 2);
        await ended(recorder);
        await writer.approval({ nodeId: 'node', messageId: executionId, approved: true });
      }
      await checkNowAndAfterReopen(async (current) => {
        expect([...(await current.executions())].sort()).toEqual(['e1', 'e2', 'e3']);
        const payloads = (await current.output('e2', 'node'))?.map((message) => message.payload);
        expect(payloads).toEqual(['e2-0', 'e2-1']);
        expect((await current.approvals('e3')).map((approval) => approval.messageId)).toEqual([
          'e3',
        ]);
      });
    });

    it('forgets a dropped execution and keeps the others', async () => {
      for (const executionId of ['kept', 'dropped']) {
        const writer = store.writer(executionId);
        const recorder = writer.node('node');
        recordMany(recorder, executionId, 2);
        await ended(recorder);
        await writer.approval({ nodeId: 'node', messageId: 'm', approved: true });
        await writer.close();
      }
      await store.drop('dropped');
      await checkNowAndAfterReopen(async (current) => {
        expect(await current.executions()).toEqual(['kept']);
        expect(await current.summary('dropped')).toBeUndefined();
        expect(await current.output('dropped', 'node')).toBeUndefined();
        expect(await current.approvals('dropped')).toEqual([]);
        expect(await current.output('kept', 'node')).toHaveLength(2);
      });
      const again = store.writer('dropped');
      const recorder = again.node('other');
      recordMany(recorder, 'again', 1);
      await ended(recorder);
      expect((await store.summary('dropped'))?.map((node) => node.nodeId)).toEqual(['other']);
    });

    it('forgets an execution dropped while its writer is still open', async () => {
      const writer = store.writer('e1');
      const recorder = writer.node('node');
      recordMany(recorder, 'node', 5);
      await store.drop('e1');
      recordMany(recorder, 'late', 5);
      expect(await store.summary('e1')).toBeUndefined();
      expect(await store.executions()).toEqual([]);
      expect(store.bytes).toBe(0);
    });

    it('counts bytes of held output, which grow with records and shrink on drop (svc.checkpoint.bytes)', async () => {
      expect(store.bytes).toBe(0);
      const writer = store.writer('e1');
      const recorder = writer.node('node');
      recordMany(recorder, 'node', 2);
      await ended(recorder);
      const afterOne = store.bytes;
      expect(afterOne).toBeGreaterThan(0);
      const other = store.writer('e2').node('node');
      recordMany(other, 'other', 2);
      await ended(other);
      expect(store.bytes).toBeGreaterThan(afterOne);
      await store.drop('e2');
      expect(store.bytes).toBe(afterOne);
      await store.drop('e1');
      expect(store.bytes).toBe(0);
    });

    it('writes what is buffered when the writer closes and takes nothing afterwards', async () => {
      const writer = store.writer('e1');
      const done = writer.node('done');
      const open = writer.node('open');
      const kept = recordMany(done, 'done', 2);
      await ended(done);
      recordMany(open, 'open', 3);
      await writer.close();
      const late = writer.node('late');
      recordMany(late, 'late', 1);
      await expect(Promise.resolve().then(() => late.end())).rejects.toMatchObject({
        code: 'STORE_FAILED',
      });
      await expect(
        Promise.resolve().then(() => writer.approval(APPROVALS[0] as RecordedApproval)),
      ).rejects.toMatchObject({ code: 'STORE_FAILED' });
      await checkNowAndAfterReopen(async (current) => {
        expect((await current.summary('e1'))?.map((node) => [node.nodeId, node.messages])).toEqual([
          ['done', 2],
          ['open', 3],
        ]);
        expect(await current.output('e1', 'done')).toEqual(kept);
        expect(await current.approvals('e1')).toEqual([]);
      });
    });

    it('starts a node afresh when a later writer of the execution records it again', async () => {
      const first = store.writer('e1');
      const done = first.node('done');
      recordMany(done, 'done', 2);
      await ended(done);
      recordMany(first.node('partial'), 'partial', 3);
      await first.close();
      // A resumed run replays the completed node and runs the unfinished one again.
      const second = store.writer('e1');
      recordMany(second.node('partial'), 'again', 1);
      const redone = second.node('done');
      const redoneMessages = recordMany(redone, 'done', 2);
      await ended(redone);
      await checkNowAndAfterReopen(async (current) => {
        const summary = await current.summary('e1');
        expect(summary?.map((node) => [node.nodeId, node.messages, node.complete])).toEqual([
          ['done', 2, true],
          ['partial', 1, false],
        ]);
        expect(await current.output('e1', 'done')).toEqual(redoneMessages);
      });
    });

    it('keeps awkward execution ids and node ids distinct', async () => {
      for (const executionId of AWKWARD_IDS) {
        const writer = store.writer(executionId);
        const recorders = AWKWARD_IDS.map((nodeId) => {
          const recorder = writer.node(nodeId);
          void recorder.record(recordedMessage('m', `${executionId}|${nodeId}`));
          return recorder;
        });
        await Promise.all(recorders.map(ended));
        await writer.close();
      }
      await checkNowAndAfterReopen(async (current) => {
        expect([...(await current.executions())].sort()).toEqual([...AWKWARD_IDS].sort());
        for (const executionId of AWKWARD_IDS) {
          const summary = await current.summary(executionId);
          expect(summary?.map((node) => node.nodeId)).toEqual(AWKWARD_IDS);
          for (const nodeId of AWKWARD_IDS) {
            const output = await current.output(executionId, nodeId);
            expect(output?.map((message) => message.payload)).toEqual([`${executionId}|${nodeId}`]);
          }
        }
      });
    });

    describe('persistence', () => {
      it('shows the same summary, output and approvals after a reopen (SPEC Restart)', async ({
        skip,
      }) => {
        const { reopen } = fixture;
        if (!reopen) return skip('the store does not persist');
        const writer = store.writer('e1');
        const done = writer.node('done');
        const open = writer.node('open');
        const messages = recordMany(done, 'done', 10);
        recordMany(open, 'open', 4);
        await ended(done);
        for (const approval of APPROVALS) await writer.approval(approval);
        const summary = await store.summary('e1');
        const current = await reopened(reopen);
        expect(await current.summary('e1')).toEqual(summary);
        expect(await current.output('e1', 'done')).toEqual(messages);
        expect(await current.approvals('e1')).toEqual(APPROVALS);
        expect(current.bytes).toBeGreaterThan(0);
      });

      it('ignores a torn last record and goes on appending after it', async ({ skip }) => {
        const { reopen, tear } = fixture;
        if (!reopen || !tear) return skip('the store does not persist');
        const writer = store.writer('e1');
        const done = writer.node('done');
        const messages = recordMany(done, 'done', 3);
        await ended(done);
        await writer.approval(APPROVALS[0] as RecordedApproval);
        await writer.close();
        const summary = await store.summary('e1');
        await store.close();
        await tear('e1');

        let current = await reopened(reopen);
        expect(await current.executions()).toEqual(['e1']);
        expect(await current.summary('e1')).toEqual(summary);
        expect(await current.output('e1', 'done')).toEqual(messages);
        expect(await current.approvals('e1')).toEqual([APPROVALS[0]]);

        const resumed = current.writer('e1');
        const next = resumed.node('next');
        const nextMessages = recordMany(next, 'next', 2);
        await ended(next);
        await resumed.close();
        current = await reopened(reopen);
        expect(await current.output('e1', 'done')).toEqual(messages);
        expect(await current.output('e1', 'next')).toEqual(nextMessages);
      });
    });
  });
}
