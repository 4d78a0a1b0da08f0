import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileExecutionLog } from '../stores/index.js';
import { ExecutionJournal } from './execution-journal.js';

describe('the execution journal: control commands (SPEC Events 8)', () => {
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
});
