import { mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExecutionLogEvent } from './execution-log-events.js';
import { EXECUTION_LOG_FILE, FileExecutionLog } from './file-execution-log.js';

const started = (executionId: string): ExecutionLogEvent => ({
  type: 'run.started',
  at: 1,
  executionId,
});

describe('the file execution log', () => {
  let dir: string;
  const failures: string[] = [];
  const make = (): FileExecutionLog =>
    new FileExecutionLog({ dir, onAppendFailed: (type) => failures.push(type) });

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'execution-log-'));
    failures.length = 0;
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await rm(dir, { recursive: true, force: true });
  });

  /** Holds the next fsync until `release` is called. */
  function holdNextSync(prototype: FileHandle) {
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const syncs = vi.spyOn(prototype, 'sync').mockImplementationOnce(() => held);
    return {
      syncs,
      release: () => {
        release();
      },
    };
  }

  /** The prototype every FileHandle shares, to hold or fail the log's system calls. */
  async function fileHandlePrototype(): Promise<FileHandle> {
    const handle = await open(path.join(dir, 'probe'), 'w');
    await handle.close();
    await rm(path.join(dir, 'probe'));
    return Object.getPrototypeOf(handle) as FileHandle;
  }

  it('keeps every appended event, in order, across a reopen', async () => {
    const log = make();
    expect(await log.open()).toEqual([]);
    for (let i = 0; i < 100; i++) log.append(started(`e${i}`));
    await log.durableNow();
    await log.close(5000);
    const again = make();
    const events = await again.open();
    expect(events.map((event) => (event as { executionId: string }).executionId)).toEqual(
      Array.from({ length: 100 }, (_, i) => `e${i}`),
    );
    await again.close(5000);
  });

  it('ignores a torn last line and appends after it on a line of its own', async () => {
    await writeFile(
      path.join(dir, EXECUTION_LOG_FILE),
      `${JSON.stringify(started('a'))}\n{"type":"run.sta`,
    );
    const log = make();
    expect(await log.open()).toEqual([started('a')]);
    log.append(started('b'));
    await log.close(5000);
    const events = await make().open();
    expect(events).toEqual([started('a'), started('b')]);
  });

  it('refuses to open a log damaged before its last line, naming the line', async () => {
    await writeFile(
      path.join(dir, EXECUTION_LOG_FILE),
      `garbage\n${JSON.stringify(started('a'))}\n`,
    );
    await expect(make().open()).rejects.toThrow(/damaged at line 1/);
  });

  it('compacts to the given events and keeps appending after them', async () => {
    const log = make();
    await log.open();
    for (let i = 0; i < 10; i++) log.append(started(`old${i}`));
    await log.compact([started('kept')]);
    log.append(started('after'));
    await log.close(5000);
    const text = await readFile(path.join(dir, EXECUTION_LOG_FILE), 'utf8');
    expect(
      text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual([started('kept'), started('after')]);
  });

  it('counts appends after close as failed, by type', async () => {
    const log = make();
    await log.open();
    await log.close(5000);
    log.append(started('late'));
    log.append({ type: 'node.started', at: 1, executionId: 'x', nodeId: 'n', nodeType: 'T' });
    expect(failures).toEqual(['run', 'node']);
  });

  it('counts events as pending until their batch is on storage (svc.tracker.queue.depth)', async () => {
    const prototype = await fileHandlePrototype();
    const log = make();
    await log.open();
    const { syncs, release } = holdNextSync(prototype);
    for (let i = 0; i < 3; i++) log.append(started(`e${i}`));
    expect(log.pending).toBe(3);
    await vi.waitFor(() => {
      expect(syncs).toHaveBeenCalledTimes(1);
    });
    // The batch is written and waits for its sync: still not on storage.
    log.append(started('next'));
    expect(log.pending).toBe(4);
    release();
    await log.durableNow();
    expect(log.pending).toBe(0);
    await log.close(5000);
  });

  it('counts every event of a batch that cannot be written as failed, by type', async () => {
    const prototype = await fileHandlePrototype();
    const log = make();
    await log.open();
    vi.spyOn(prototype, 'write').mockRejectedValueOnce(new Error('ENOSPC: no space left'));
    log.append(started('lost'));
    log.append({ type: 'node.started', at: 1, executionId: 'lost', nodeId: 'n', nodeType: 'T' });
    await log.durableNow();
    expect(failures).toEqual(['run', 'node']);
    expect(log.pending).toBe(0);
    log.append(started('kept'));
    await log.durableNow();
    await log.close(5000);
    expect((await make().open()).map((event) => event.type)).toEqual(['run.started']);
  });

  it('stops waiting for queued events at the close timeout (SPEC graceful shutdown step 4)', async () => {
    const prototype = await fileHandlePrototype();
    const log = make();
    await log.open();
    vi.spyOn(prototype, 'sync').mockImplementationOnce(() => new Promise<void>(() => undefined));
    log.append(started('stuck'));
    await vi.waitFor(() => {
      expect(log.pending).toBe(1);
    });
    const began = Date.now();
    await log.close(200);
    expect(Date.now() - began).toBeGreaterThanOrEqual(150);
    expect(Date.now() - began).toBeLessThan(2000);
  });

  it('writes events appended while a compaction waits into the new file, never the replaced one', async () => {
    const prototype = await fileHandlePrototype();
    const log = make();
    await log.open();
    const { syncs, release } = holdNextSync(prototype);
    log.append(started('old'));
    await vi.waitFor(() => {
      expect(syncs).toHaveBeenCalledTimes(1);
    });
    // A batch is on its way; one more event waits; the compaction stands for both.
    log.append(started('queued'));
    const compacted = log.compact([started('old'), started('queued')]);
    log.append(started('after'));
    release();
    await compacted;
    await log.durableNow();
    expect(log.pending).toBe(0);
    await log.close(5000);
    const events = await make().open();
    expect(events.map((event) => (event as { executionId: string }).executionId)).toEqual([
      'old',
      'queued',
      'after',
    ]);
  });
});
