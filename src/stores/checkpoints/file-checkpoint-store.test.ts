import {
  appendFile,
  mkdtemp,
  open,
  readFile,
  readdir,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NodeRecorder } from '../../engine/index.js';
import { fileNameForId } from '../file/file-name-for-id.js';
import type { SkippedLines, SkippedLinesListener } from '../file/skipped-lines.js';
import {
  describeCheckpointStoreConformance,
  recordedMessage,
} from './checkpoint-store.conformance.js';
import { CHECKPOINT_FILE_FORMAT } from './checkpoint-lines.js';
import { CHECKPOINT_FILE_EXTENSION, FileCheckpointStore } from './file-checkpoint-store.js';

function makeDir(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'svc-checkpoints-'));
}

function fileOf(dir: string, executionId: string): string {
  return path.join(dir, fileNameForId(executionId) + CHECKPOINT_FILE_EXTENSION);
}

/** What a crash in the middle of writing a message line leaves. */
const TORN_LINE = '{"n":"done","m":{"id":"torn","port":"out","payl';

describeCheckpointStoreConformance('file', async () => {
  const dir = await makeDir();
  return {
    store: new FileCheckpointStore({ dir }),
    reopen: () => Promise.resolve(new FileCheckpointStore({ dir })),
    unsavablePayloads: [1, 2n, 3],
    tear: (executionId) => appendFile(fileOf(dir, executionId), TORN_LINE),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});

/** The prototype every FileHandle shares, to count the store's system calls on. */
async function fileHandlePrototype(dir: string): Promise<FileHandle> {
  const handle = await open(path.join(dir, 'probe'), 'w');
  await handle.close();
  await rm(path.join(dir, 'probe'));
  return Object.getPrototypeOf(handle) as FileHandle;
}

describe('FileCheckpointStore', () => {
  let dir: string;
  const opened: FileCheckpointStore[] = [];

  beforeEach(async () => {
    dir = await makeDir();
  });

  afterEach(async () => {
    vi.restoreAllMocks();
    await Promise.all(opened.splice(0).map((store) => store.close()));
    await rm(dir, { recursive: true, force: true });
  });

  async function openStore(
    directory = dir,
    onSkippedLines?: SkippedLinesListener,
  ): Promise<FileCheckpointStore> {
    const store = new FileCheckpointStore({
      dir: directory,
      ...(onSkippedLines === undefined ? {} : { onSkippedLines }),
    });
    opened.push(store);
    await store.open();
    return store;
  }

  async function lines(executionId: string): Promise<unknown[]> {
    const content = await readFile(fileOf(dir, executionId), 'utf8');
    expect(content.endsWith('\n')).toBe(true);
    return content
      .slice(0, -1)
      .split('\n')
      .map((line) => JSON.parse(line) as unknown);
  }

  function recordMany(recorder: NodeRecorder, count: number): void {
    for (let index = 0; index < count; index++) {
      void recorder.record(
        recordedMessage(`m${index}`, { index, text: 'some text to make it longer' }),
      );
    }
  }

  it('is a durable store of kind file', async () => {
    const store = await openStore();
    expect(store.kind).toBe('file');
    expect(store.durable).toBe(true);
  });

  it('writes one JSON line per record, after a header naming the execution', async () => {
    const store = await openStore();
    const writer = store.writer('a b');
    const recorder = writer.node('node');
    void recorder.record(recordedMessage('m1', { x: 1 }, { headers: { attempt: 1, trace: 't' } }));
    void recorder.record(recordedMessage('m2', 'text', { port: 'error' }));
    void recorder.record(recordedMessage('m3', undefined));
    void recorder.record(recordedMessage('m4', Buffer.from('hi')));
    await recorder.end();
    await writer.approval({ nodeId: 'wait', messageId: 'm1', approved: true, comment: null });
    expect(await readdir(dir)).toEqual(['a%20b.jsonl']);
    expect(await lines('a b')).toEqual([
      { format: CHECKPOINT_FILE_FORMAT, execution: 'a b' },
      { n: 'node', begin: true },
      // The port `out` and the headers of a first attempt are left out.
      { n: 'node', m: { id: 'm1', payload: { x: 1 }, headers: { attempt: 1, trace: 't' } } },
      { n: 'node', m: { id: 'm2', port: 'error', payload: 'text' } },
      { n: 'node', m: { id: 'm3' } },
      { n: 'node', m: { id: 'm4', base64: 'aGk=' } },
      { n: 'node', end: true },
      { a: { nodeId: 'wait', messageId: 'm1', approved: true, comment: null } },
    ]);
  });

  it('encodes a payload once: hands its encoding out, and writes one handed back as it is', async () => {
    const store = await openStore();
    const writer = store.writer('e1');
    const first = { ...recordedMessage('m1', { x: 1 }), encoded: undefined as unknown };
    void writer.node('source').record(first);
    expect(first.encoded).toBe('","payload":{"x":1}');
    // What a node passing the payload on unchanged gets back from the engine; a different
    // text here proves the store writes it rather than encoding the payload again.
    const passed = {
      ...recordedMessage('m1.1', { x: 1 }, { port: 'kept' }),
      encoded: '","payload":7',
    };
    const recorder = writer.node('filter');
    void recorder.record(passed);
    await recorder.end();
    expect((await lines('e1')).slice(4, 5)).toEqual([
      { n: 'filter', m: { id: 'm1.1', payload: 7, port: 'kept' } },
    ]);
  });

  it('keeps the execution id inside a file whose name is a hash', async () => {
    const longId = 'e'.repeat(300);
    const store = await openStore();
    const recorder = store.writer(longId).node('node');
    recordMany(recorder, 1);
    await recorder.end();
    await store.close();
    const [name] = await readdir(dir);
    expect(name).toMatch(/^@sha256-[0-9a-f]{64}\.jsonl$/);
    expect(await (await openStore()).executions()).toEqual([longId]);
  });

  it('batches records into few writes and forces them once per end marker', async () => {
    const prototype = await fileHandlePrototype(dir);
    const store = await openStore();
    const writer = store.writer('e1');
    // The file exists before counting: its creation adds a header and a directory fsync.
    await writer.node('first').end();
    const sizeBefore = (await stat(fileOf(dir, 'e1'))).size;
    const writes = vi.spyOn(prototype, 'write');
    const syncs = vi.spyOn(prototype, 'sync');
    const recorder = writer.node('node');
    recordMany(recorder, 10_000);
    await recorder.end();
    const written = (await stat(fileOf(dir, 'e1'))).size - sizeBefore;
    expect(written).toBeGreaterThan(500_000);
    // About one write per 64 KiB, and one for the rest.
    expect(writes.mock.calls.length).toBeLessThanOrEqual(Math.ceil(written / 65_536) + 1);
    expect(syncs).toHaveBeenCalledTimes(1);
    expect(await lines('e1')).toHaveLength(3 + 10_002);
  });

  it('makes a node wait once more than a few MiB wait to be written, and lets it go when the pump takes them', async () => {
    const store = await openStore();
    const recorder = store.writer('big').node('node');
    const payload = 'x'.repeat(10_000);
    let held: Promise<void> | undefined;
    let count = 0;
    // Without yielding, as a run that never waits would.
    while (held === undefined && count < 10_000) {
      held = recorder.record(recordedMessage(`m${count++}`, payload));
    }
    expect(held).toBeInstanceOf(Promise);
    expect(count).toBeLessThan(1_000);
    await held;
    await recorder.end();
    expect((await store.output('big', 'node'))?.length).toBe(count);
  });

  it('serves every end marker waiting at once with one fsync (group commit)', async () => {
    const prototype = await fileHandlePrototype(dir);
    const store = await openStore();
    const writer = store.writer('e1');
    const first = writer.node('first');
    recordMany(first, 1);
    await first.end();
    const syncs = vi.spyOn(prototype, 'sync');
    const recorders = Array.from({ length: 20 }, (_, index) => writer.node(`n${index}`));
    for (const recorder of recorders) recordMany(recorder, 3);
    await Promise.all(
      recorders.map(async (recorder) => {
        await recorder.end();
      }),
    );
    expect(syncs).toHaveBeenCalledTimes(1);
  });

  it('follows a write and fsync under way with exactly one more for the markers that came meanwhile', async () => {
    const prototype = await fileHandlePrototype(dir);
    const store = await openStore();
    const writer = store.writer('e1');
    await writer.node('created').end();
    const first = writer.node('first');
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const syncs = vi.spyOn(prototype, 'sync').mockImplementationOnce(() => held);
    const firstEnd = first.end();
    await vi.waitFor(() => {
      expect(syncs).toHaveBeenCalledTimes(1);
    });
    // The first round is held in its fsync: these markers wait for the next round.
    const later = Array.from({ length: 10 }, (_, index) => writer.node(`n${index}`).end());
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await Promise.all([firstEnd, ...later]);
    expect(syncs).toHaveBeenCalledTimes(2);
  });

  /** Records `bytes` and more of output without waiting, as a run that never yields does. */
  async function recordBytes(recorder: NodeRecorder, bytes: number): Promise<void> {
    const payload = 'x'.repeat(64 * 1024);
    for (let index = 0; index * payload.length < bytes; index++) {
      await recorder.record(recordedMessage(`m${index}`, payload));
    }
  }

  it('forces a long output to storage at group-commit points while it is recorded, not all at its end marker', async () => {
    const prototype = await fileHandlePrototype(dir);
    const store = await openStore();
    const writer = store.writer('long');
    await writer.node('created').end();
    const datasyncs = vi.spyOn(prototype, 'datasync');
    const syncs = vi.spyOn(prototype, 'sync');
    const recorder = writer.node('node');
    await recordBytes(recorder, 40 * 1024 * 1024);
    await vi.waitFor(() => {
      expect(datasyncs.mock.calls.length).toBeGreaterThanOrEqual(1);
    });
    expect(syncs).not.toHaveBeenCalled();
    await recorder.end();
    expect(syncs).toHaveBeenCalledTimes(1);
    expect(store.syncs).toBe(2 + datasyncs.mock.calls.length);
    expect((await store.summary('long'))?.at(-1)).toMatchObject({ nodeId: 'node', complete: true });
  });

  it('rejects the end markers that follow a failed group-commit sync: pages before them may be lost', async () => {
    const prototype = await fileHandlePrototype(dir);
    const store = await openStore();
    const writer = store.writer('long');
    await writer.node('created').end();
    const datasyncs = vi
      .spyOn(prototype, 'datasync')
      .mockRejectedValueOnce(new Error('EIO: i/o error, fdatasync'));
    const recorder = writer.node('node');
    await recordBytes(recorder, 20 * 1024 * 1024);
    await expect(recorder.end()).rejects.toMatchObject({ code: 'STORE_FAILED' });
    expect(datasyncs).toHaveBeenCalledTimes(1);
    await expect(writer.node('after').end()).rejects.toMatchObject({ code: 'STORE_FAILED' });
    expect((await store.summary('long'))?.map((node) => [node.nodeId, node.complete])).toEqual([
      ['created', true],
      ['node', false],
    ]);
  });

  it('holds an end marker until a group-commit sync under way succeeds, and rejects it when that sync fails', async () => {
    const prototype = await fileHandlePrototype(dir);
    const store = await openStore();
    const writer = store.writer('long');
    await writer.node('created').end();
    let fail = (_error: Error): void => undefined;
    const held = new Promise<void>((_resolve, reject) => {
      fail = reject;
    });
    const datasyncs = vi.spyOn(prototype, 'datasync').mockImplementationOnce(() => held);
    const syncs = vi.spyOn(prototype, 'sync');
    const recorder = writer.node('node');
    await recordBytes(recorder, 20 * 1024 * 1024);
    await vi.waitFor(() => {
      expect(datasyncs).toHaveBeenCalledTimes(1);
    });
    let settled = false;
    const end = (recorder.end() ?? Promise.resolve()).finally(() => {
      settled = true;
    });
    await vi.waitFor(() => {
      expect(syncs).toHaveBeenCalledTimes(1);
    });
    // Proves that nothing settles the end while the held fdatasync is pending.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    fail(new Error('EIO: i/o error, fdatasync'));
    await expect(end).rejects.toMatchObject({ code: 'STORE_FAILED' });
  });

  it('fails only the node whose message cannot be JSON, without throwing from record()', async () => {
    const store = await openStore();
    const writer = store.writer('e1');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const broken = writer.node('broken');
    const fine = writer.node('fine');
    expect(() => {
      void broken.record(recordedMessage('m1', cyclic));
      void broken.record(recordedMessage('m2', 'after the failure'));
      void fine.record(recordedMessage('m1', 'fine'));
    }).not.toThrow();
    await expect(broken.end()).rejects.toMatchObject({ code: 'STORE_FAILED' });
    await fine.end();
    expect(
      (await store.summary('e1'))?.map((node) => [node.nodeId, node.messages, node.complete]),
    ).toEqual([
      ['broken', 0, false],
      ['fine', 1, true],
    ]);
  });

  it('rejects the markers of a failed write, cuts it off and takes nothing more', async () => {
    const prototype = await fileHandlePrototype(dir);
    const store = await openStore();
    const writer = store.writer('e1');
    const saved = writer.node('saved');
    recordMany(saved, 2);
    await saved.end();
    const sizeBefore = (await stat(fileOf(dir, 'e1'))).size;
    vi.spyOn(prototype, 'sync').mockRejectedValueOnce(new Error('EIO: i/o error, fsync'));
    const lost = writer.node('lost');
    recordMany(lost, 2);
    await expect(lost.end()).rejects.toMatchObject({ code: 'STORE_FAILED' });
    const after = writer.node('after');
    await expect(after.end()).rejects.toMatchObject({ code: 'STORE_FAILED' });
    expect((await stat(fileOf(dir, 'e1'))).size).toBe(sizeBefore);
    expect(store.bytes).toBe(sizeBefore);
    expect((await store.summary('e1'))?.map((node) => [node.nodeId, node.complete])).toEqual([
      ['saved', true],
    ]);
    await expect(writer.close()).rejects.toMatchObject({ code: 'STORE_FAILED' });
  });

  it('counts the bytes of its files, also after a reopen', async () => {
    const store = await openStore();
    for (const executionId of ['e1', 'e2']) {
      const recorder = store.writer(executionId).node('node');
      recordMany(recorder, 50);
      await recorder.end();
    }
    const total = (await stat(fileOf(dir, 'e1'))).size + (await stat(fileOf(dir, 'e2'))).size;
    expect(store.bytes).toBe(total);
    await store.close();
    expect((await openStore()).bytes).toBe(total);
  });

  it('cuts a torn tail off before appending to a file after a restart', async () => {
    const store = await openStore();
    const recorder = store.writer('e1').node('done');
    recordMany(recorder, 2);
    await recorder.end();
    await store.close();
    await appendFile(fileOf(dir, 'e1'), TORN_LINE);

    const reopened = await openStore();
    const resumed = reopened.writer('e1');
    const next = resumed.node('next');
    recordMany(next, 1);
    await next.end();
    expect(await lines('e1')).toHaveLength(8);
    expect(reopened.bytes).toBe((await stat(fileOf(dir, 'e1'))).size);
  });

  it('reports at open how many torn lines it found and in which files', async () => {
    const store = await openStore();
    for (const executionId of ['e1', 'e2', 'e3']) {
      const recorder = store.writer(executionId).node('done');
      recordMany(recorder, 1);
      await recorder.end();
    }
    await store.close();
    await appendFile(fileOf(dir, 'e1'), TORN_LINE);
    await appendFile(fileOf(dir, 'e3'), TORN_LINE);
    await writeFile(fileOf(dir, 'e4'), '{"format":1,"execu');
    const reports: SkippedLines[] = [];
    await openStore(dir, (skipped) => reports.push(skipped));
    expect(reports).toEqual([
      {
        lines: 3,
        files: expect.arrayContaining([fileOf(dir, 'e1'), fileOf(dir, 'e3'), fileOf(dir, 'e4')]),
      },
    ]);
    const quiet: SkippedLines[] = [];
    const clean = await mkdtemp(path.join(os.tmpdir(), 'checkpoints-clean-'));
    await openStore(clean, (skipped) => quiet.push(skipped));
    expect(quiet).toEqual([]);
    await rm(clean, { recursive: true, force: true });
  });

  it('removes a file whose header is torn, a crash while it was being created', async () => {
    await writeFile(fileOf(dir, 'e1'), '{"format":1,"execu');
    const store = await openStore();
    expect(await store.executions()).toEqual([]);
    expect(await readdir(dir)).toEqual([]);
    expect(store.bytes).toBe(0);
  });

  it('refuses to open with STORE_DAMAGED naming a file whose header is not a checkpoint header', async () => {
    const file = fileOf(dir, 'e1');
    await writeFile(file, '{"something":"else"}\n');
    await expect(openStore()).rejects.toMatchObject({ code: 'STORE_DAMAGED', params: { file } });
  });

  it('refuses to open with STORE_DAMAGED naming a file that holds another execution', async () => {
    const file = fileOf(dir, 'e1');
    await writeFile(file, `{"format":${CHECKPOINT_FILE_FORMAT},"execution":"e2"}\n`);
    await expect(openStore()).rejects.toMatchObject({ code: 'STORE_DAMAGED', params: { file } });
  });

  it('rejects reads with STORE_DAMAGED when a line before the last is broken', async () => {
    const store = await openStore();
    const recorder = store.writer('e1').node('node');
    recordMany(recorder, 1);
    await recorder.end();
    await store.close();
    const file = fileOf(dir, 'e1');
    const content = await readFile(file, 'utf8');
    await writeFile(file, content.replace('"m":{"id":"m0"', '"m":{"id":m0'));
    const reopened = await openStore();
    await expect(reopened.output('e1', 'node')).rejects.toMatchObject({
      code: 'STORE_DAMAGED',
      params: { file },
    });
  });

  it('ignores files that are not checkpoint files and creates a missing directory', async () => {
    const nested = path.join(dir, 'deeper', 'still');
    const store = await openStore(nested);
    await writeFile(path.join(nested, 'notes.txt'), 'not ours');
    await store.close();
    expect(await (await openStore(nested)).executions()).toEqual([]);
  });

  it('rejects use before open() and after close() with STORE_FAILED', async () => {
    const store = new FileCheckpointStore({ dir });
    expect(() => store.writer('e1')).toThrow(/is not open/);
    await expect(store.summary('e1')).rejects.toMatchObject({ code: 'STORE_FAILED' });
    await store.open();
    await store.close();
    await expect(store.executions()).rejects.toMatchObject({ code: 'STORE_FAILED' });
  });

  it('keeps the file of a closed writer readable and releases its handle', async () => {
    const store = await openStore();
    const writer = store.writer('e1');
    const recorder = writer.node('node');
    recordMany(recorder, 3);
    await recorder.end();
    await writer.close();
    await writer.close();
    expect(await store.output('e1', 'node')).toHaveLength(3);
    await store.drop('e1');
    expect(await readdir(dir)).toEqual([]);
  });
});
