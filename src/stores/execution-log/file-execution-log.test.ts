import { mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  describeExecutionLogStoreConformance,
  runStarted as started,
} from './execution-log-store.conformance.js';
import type { SkippedLines } from '../file/skipped-lines.js';
import { EXECUTION_LOG_FILE, FileExecutionLog } from './file-execution-log.js';

/** The prototype every FileHandle shares, to hold or fail the log's system calls. */
async function fileHandlePrototype(dir: string): Promise<FileHandle> {
  const handle = await open(path.join(dir, 'probe'), 'w');
  await handle.close();
  await rm(path.join(dir, 'probe'));
  return Object.getPrototypeOf(handle) as FileHandle;
}

describeExecutionLogStoreConformance('file', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'execution-log-'));
  const prototype = await fileHandlePrototype(dir);
  return {
    create: (onAppendFailed) => new FileExecutionLog({ dir, onAppendFailed }),
    // A batch is written and then forced: holding the fsync holds it.
    holdNextWrite: () => {
      let release = (): void => undefined;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const syncs = vi.spyOn(prototype, 'sync').mockImplementationOnce(() => held);
      return Promise.resolve({
        blocked: () =>
          vi.waitFor(() => {
            expect(syncs).toHaveBeenCalledTimes(1);
          }),
        release: () => {
          release();
          return Promise.resolve();
        },
      });
    },
    breakWrites: () => {
      const writes = vi
        .spyOn(prototype, 'write')
        .mockRejectedValue(new Error('ENOSPC: no space left'));
      return Promise.resolve(() => {
        writes.mockRestore();
        return Promise.resolve();
      });
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});

describe('the file execution log', () => {
  let dir: string;
  const make = (): FileExecutionLog =>
    new FileExecutionLog({ dir, onAppendFailed: () => undefined });

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'execution-log-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('skips a torn last line, reports it, and appends after it on a line of its own', async () => {
    await writeFile(
      path.join(dir, EXECUTION_LOG_FILE),
      `${JSON.stringify(started('a'))}\n{"type":"run.sta`,
    );
    const reports: SkippedLines[] = [];
    const log = new FileExecutionLog({
      dir,
      onAppendFailed: () => undefined,
      onSkippedLines: (skipped) => reports.push(skipped),
    });
    expect(await log.open()).toEqual([started('a')]);
    // Reported once, and gone: the next open finds nothing to skip.
    expect(reports).toEqual([{ lines: 1, files: [path.join(dir, EXECUTION_LOG_FILE)] }]);
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

  it('rewrites the file to the compacted events, one JSON line each', async () => {
    const log = make();
    await log.open();
    for (let i = 0; i < 10; i++) log.append(started(`old${i}`));
    await log.compact([started('kept')]);
    log.append(started('after'));
    await log.close(5000);
    const text = await readFile(path.join(dir, EXECUTION_LOG_FILE), 'utf8');
    expect(text).toBe(`${JSON.stringify(started('kept'))}\n${JSON.stringify(started('after'))}\n`);
  });
});
