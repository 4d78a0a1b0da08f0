// The one test suite every durable ExecutionLogStore adapter runs (file, PostgreSQL), so they
// all keep the contract written on the port in execution-log-events.ts (SPEC "Deployment
// facts": run history kept across restarts, graceful shutdown step 4).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExecutionLogEvent, ExecutionLogStore } from './execution-log-events.js';

/** A write of the store held back until `release()`: it has started and does not finish. */
export interface HeldWrite {
  /** Resolves once a write of the store is under way and held. */
  readonly blocked: () => Promise<void>;
  readonly release: () => Promise<void>;
}

export interface ExecutionLogStoreFixture {
  /** A new, not yet opened store over the fixture's persisted log. */
  readonly create: (onAppendFailed: (type: 'node' | 'run') => void) => ExecutionLogStore;
  /** Holds the store's next write until released; omitted when the adapter cannot. */
  readonly holdNextWrite?: () => Promise<HeldWrite>;
  /** Makes every write fail until the answered function restores them. */
  readonly breakWrites?: () => Promise<() => Promise<void>>;
  /** Runs after each test, once every held write is released. */
  readonly cleanup: () => Promise<void>;
}

export const runStarted = (executionId: string): ExecutionLogEvent => ({
  type: 'run.started',
  at: 1,
  executionId,
});

const nodeStarted = (executionId: string): ExecutionLogEvent => ({
  type: 'node.started',
  at: 1,
  executionId,
  nodeId: 'n',
  nodeType: 'T',
});

const idsOf = (events: readonly ExecutionLogEvent[]): string[] =>
  events.map((event) => (event as { executionId: string }).executionId);

export function describeExecutionLogStoreConformance(
  name: string,
  createFixture: () => Promise<ExecutionLogStoreFixture>,
): void {
  describe(`${name} execution log conformance`, () => {
    let fixture: ExecutionLogStoreFixture;
    const failures: string[] = [];
    const opened: ExecutionLogStore[] = [];
    const held: HeldWrite[] = [];

    beforeEach(async () => {
      fixture = await createFixture();
      failures.length = 0;
    });

    afterEach(async () => {
      for (const write of held.splice(0)) await write.release();
      await Promise.all(opened.splice(0).map((log) => log.close(1000)));
      vi.restoreAllMocks();
      await fixture.cleanup();
    });

    async function openLog(): Promise<{ log: ExecutionLogStore; events: ExecutionLogEvent[] }> {
      const log = fixture.create((type) => failures.push(type));
      opened.push(log);
      const events = await log.open();
      return { log, events };
    }

    async function hold(): Promise<HeldWrite> {
      const { holdNextWrite } = fixture;
      if (holdNextWrite === undefined) throw new Error('the fixture cannot hold a write');
      const write = await holdNextWrite();
      // Released by the test or, at the latest, after it: whichever comes first.
      let released: Promise<void> | undefined;
      const once: HeldWrite = {
        blocked: write.blocked,
        release: () => (released ??= write.release()),
      };
      held.push(once);
      return once;
    }

    it('is durable, and opens empty on a log that holds nothing', async () => {
      const { log, events } = await openLog();
      expect(log.durable).toBe(true);
      expect(events).toEqual([]);
      expect(log.pending).toBe(0);
    });

    it('keeps every appended event, in order, across a reopen', async () => {
      const { log } = await openLog();
      for (let i = 0; i < 100; i++) log.append(runStarted(`e${i}`));
      await log.durableNow();
      await log.close(5000);
      const { events } = await openLog();
      expect(idsOf(events)).toEqual(Array.from({ length: 100 }, (_, i) => `e${i}`));
    });

    it('reads every kind of event back as it was appended', async () => {
      const all: ExecutionLogEvent[] = [
        {
          type: 'run.accepted',
          at: 10,
          executionId: 'e1',
          sessionId: 's',
          workflowId: 'w',
          workflowVersion: 2,
          definitionHash: 'abc',
          priority: 5,
          lineage: 'e1',
          payloadRecorded: true,
          payload: { text: 'line\nbreak \u0000 "quoted" \u00fc \u{1F600}', list: [1, null] },
          restartOf: null,
          resumedFrom: null,
          parentExecutionId: null,
        },
        runStarted('e1'),
        nodeStarted('e1'),
        {
          type: 'node.ended',
          at: 12,
          executionId: 'e1',
          nodeId: 'n',
          nodeType: 'T',
          status: 'COMPLETED',
          error: null,
          startedAt: 11,
          messagesIn: 1,
          messagesOut: 2,
          retries: 0,
        },
        {
          type: 'run.outputs',
          at: 12,
          executionId: 'e1',
          results: [
            {
              seq: 1,
              timestamp: '2026-01-01T00:00:00.012Z',
              nodeId: 'n',
              messageId: 'e1.n',
              payload: { text: 'r\u00e9sultat', list: [1, null] },
            },
          ],
          logs: [
            {
              seq: 1,
              timestamp: '2026-01-01T00:00:00.011Z',
              executionId: 'e1',
              nodeId: 'n',
              level: 'INFO',
              message: 'message',
              fields: { payload: 'a\nb' },
            },
          ],
          resultsNotKept: false,
          logsNotKept: true,
        },
        { type: 'control', at: 13, executionId: null, entry: { command: 'SCHEDULER_LIMITS' } },
        { type: 'limits', at: 14, limits: { maxConcurrent: 2, onLimit: 'QUEUE' } },
        { type: 'run.resumed', at: 15, executionId: 'e1', by: 'e2' },
        { type: 'run.ended', at: 16, executionId: 'e1', status: 'FAILED', error: 'boom' },
      ];
      const { log } = await openLog();
      for (const event of all) log.append(event);
      await log.close(5000);
      expect((await openLog()).events).toEqual(all);
    });

    it('compacts to the given events and keeps appending after them', async () => {
      const { log } = await openLog();
      for (let i = 0; i < 10; i++) log.append(runStarted(`old${i}`));
      await log.compact([runStarted('kept')]);
      log.append(runStarted('after'));
      await log.close(5000);
      expect((await openLog()).events).toEqual([runStarted('kept'), runStarted('after')]);
    });

    it('counts appends after close as failed, by type', async () => {
      const { log } = await openLog();
      await log.close(5000);
      log.append(runStarted('late'));
      log.append(nodeStarted('late'));
      expect(failures).toEqual(['run', 'node']);
      expect((await openLog()).events).toEqual([]);
    });

    it('counts events as pending until their batch is on storage (svc.tracker.queue.depth)', async ({
      skip,
    }) => {
      if (fixture.holdNextWrite === undefined) return skip('the adapter cannot hold a write');
      const { log } = await openLog();
      const write = await hold();
      for (let i = 0; i < 3; i++) log.append(runStarted(`e${i}`));
      expect(log.pending).toBe(3);
      await write.blocked();
      // The batch is on its way and held: still not on storage.
      log.append(runStarted('next'));
      expect(log.pending).toBe(4);
      await write.release();
      await log.durableNow();
      expect(log.pending).toBe(0);
    });

    it('counts every event of a batch that cannot be written as failed, by type', async ({
      skip,
    }) => {
      const { breakWrites } = fixture;
      if (breakWrites === undefined) return skip('the adapter cannot fail a write');
      const { log } = await openLog();
      const restore = await breakWrites();
      log.append(runStarted('lost'));
      log.append(nodeStarted('lost'));
      await log.durableNow();
      expect(failures).toEqual(['run', 'node']);
      expect(log.pending).toBe(0);
      await restore();
      log.append(runStarted('kept'));
      await log.durableNow();
      await log.close(5000);
      expect((await openLog()).events).toEqual([runStarted('kept')]);
    });

    it('stops waiting for queued events at the close timeout (SPEC graceful shutdown step 4)', async ({
      skip,
    }) => {
      if (fixture.holdNextWrite === undefined) return skip('the adapter cannot hold a write');
      const { log } = await openLog();
      const write = await hold();
      log.append(runStarted('stuck'));
      await write.blocked();
      expect(log.pending).toBe(1);
      const began = Date.now();
      await log.close(200);
      expect(Date.now() - began).toBeGreaterThanOrEqual(150);
      expect(Date.now() - began).toBeLessThan(2000);
    });

    it('writes events appended while a compaction waits after it, never before it', async ({
      skip,
    }) => {
      if (fixture.holdNextWrite === undefined) return skip('the adapter cannot hold a write');
      const { log } = await openLog();
      const write = await hold();
      log.append(runStarted('old'));
      await write.blocked();
      // A batch is on its way; one more event waits; the compaction stands for both.
      log.append(runStarted('queued'));
      const compacted = log.compact([runStarted('old'), runStarted('queued')]);
      log.append(runStarted('after'));
      await write.release();
      await compacted;
      await log.durableNow();
      expect(log.pending).toBe(0);
      await log.close(5000);
      expect(idsOf((await openLog()).events)).toEqual(['old', 'queued', 'after']);
    });
  });
}
