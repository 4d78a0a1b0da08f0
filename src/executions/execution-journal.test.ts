import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileExecutionLog } from '../stores/index.js';
import { ExecutionJournal } from './execution-journal.js';

/** A run's start as the log records it. */
const accept = (journal: ExecutionJournal, executionId: string): void => {
  journal.accepted({
    executionId,
    sessionId: 's',
    workflowId: 'w',
    workflowVersion: 1,
    priority: 0,
    parentExecutionId: null,
    restartOf: null,
    resumedFrom: null,
    lineage: executionId,
    definitionHash: 'h',
    payload: null,
    payloadRecorded: true,
  });
};

describe('the execution journal (SPEC Events 8, Deployment facts)', () => {
  let dir: string;
  let now = 0;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'journal-'));
    now = 0;
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const open = async (compactAfter = 10_000): Promise<ExecutionJournal> => {
    const journal = new ExecutionJournal({
      store: new FileExecutionLog({ dir, onAppendFailed: () => undefined }),
      retainedRuns: 10,
      compactAfter,
      now: () => ++now,
      onDrop: () => undefined,
    });
    await journal.boot();
    return journal;
  };

  it('keeps the commands of kept runs and those about no run across restarts and compactions, oldest first', async () => {
    const first = await open(3);
    accept(first, 'e1');
    first.control('e1', { id: 'a', command: 'STOP' });
    first.control(null, { id: 'b', command: 'SCHEDULER_LIMITS' });
    first.control('gone', { id: 'c', command: 'STOP' });
    first.control('e1', { id: 'd', command: 'PAUSE' });
    await first.durableNow();
    await first.close(5_000);
    const second = await open(3);
    await second.close(5_000);
    const third = await open();
    expect(third.controls().map((control) => control.entry.id)).toEqual(['a', 'b', 'd']);
    await third.close(5_000);
  });

  it('survives a compaction that fails: the failure is reported, every event stays and appends go on', async () => {
    // The boot compacts too: that one succeeds, the later ones fail.
    class FailingCompaction extends FileExecutionLog {
      booted = false;
      override compact(events: Parameters<FileExecutionLog['compact']>[0]): Promise<void> {
        return this.booted ? Promise.reject(new Error('disk full')) : super.compact(events);
      }
    }
    const store = new FailingCompaction({ dir, onAppendFailed: () => undefined });
    const failures: unknown[] = [];
    const journal = new ExecutionJournal({
      store,
      retainedRuns: 10,
      compactAfter: 2,
      now: () => ++now,
      onDrop: () => undefined,
      onCompactionFailed: (error) => failures.push(error),
    });
    await journal.boot();
    store.booted = true;
    for (const id of ['e1', 'e2', 'e3', 'e4', 'e5']) accept(journal, id);
    await journal.durableNow();
    await journal.close(5_000);
    expect(failures.length).toBeGreaterThan(0);
    expect(failures[0]).toHaveProperty('message', 'disk full');
    const reopened = await open();
    for (const id of ['e1', 'e2', 'e3', 'e4', 'e5']) expect(reopened.run(id)).toBeDefined();
    await reopened.close(5_000);
  });

  const result = (seq: number) => ({
    seq,
    timestamp: new Date(seq).toISOString(),
    nodeId: 'out',
    messageId: `m${seq}`,
    payload: seq,
  });

  const openKeeping = async (
    outputsOf?: ConstructorParameters<typeof ExecutionJournal>[0]['outputsOf'],
  ): Promise<ExecutionJournal> => {
    const journal = new ExecutionJournal({
      store: new FileExecutionLog({ dir, onAppendFailed: () => undefined }),
      retainedRuns: 10,
      // Only with the registry's view can a compaction keep outputs: the first journal has none.
      compactAfter: outputsOf === undefined ? 100 : 3,
      now: () => ++now,
      onDrop: () => undefined,
      ...(outputsOf === undefined ? {} : { outputsOf }),
    });
    await journal.boot();
    return journal;
  };

  const run = (journal: ExecutionJournal, executionId: string): void => {
    accept(journal, executionId);
    journal.outputs({
      executionId,
      results: [result(1), result(2)],
      logs: [],
      resultsNotKept: false,
      logsNotKept: false,
    });
    journal.ended(executionId, 'COMPLETED', null);
  };

  it('reads them back at boot, and a compaction writes what the server keeps of them then', async () => {
    const first = await openKeeping();
    run(first, 'e1');
    await first.close(5_000);

    const second = await openKeeping(() => ({
      results: [result(2)],
      logs: [],
      resultsNotKept: true,
      logsNotKept: false,
    }));
    // Read at boot and held until the registry takes them; the boot compaction kept them.
    expect(second.run('e1')?.outputs?.results).toEqual([result(1), result(2)]);
    const taken = second.run('e1');
    if (taken !== undefined) taken.outputs = undefined;
    // Enough events for a compaction, which asks the registry what e1 keeps now.
    run(second, 'e2');
    await second.close(5_000);

    const third = await openKeeping();
    expect(third.run('e1')?.outputs).toMatchObject({
      results: [result(2)],
      resultsNotKept: true,
    });
    expect(third.run('e1')?.ended).toMatchObject({ status: 'COMPLETED', error: null });
    await third.close(5_000);
  });
});
