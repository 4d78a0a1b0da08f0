// The memory checkpoint store with a spill directory (kind `spill`, SPEC "Checkpoint caps and
// stores"): output beyond a cap goes to a spill file, so the node stays replayable.
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NodeRecorder, RecordedMessage } from '../../engine/index.js';
import {
  describeCheckpointStoreConformance,
  recordedMessage,
} from './checkpoint-store.conformance.js';
import { MemoryCheckpointStore } from './memory-checkpoint-store.js';
import { SPILL_FILE_PREFIX } from './spill-file.js';

function makeSpillDir(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'svc-spill-'));
}

// Small caps, so that most of the suite's nodes spill.
describeCheckpointStoreConformance('spill', async () => {
  const spillDir = await makeSpillDir();
  return {
    store: new MemoryCheckpointStore({ messagesPerNode: 4, bytesPerNode: 4096, spillDir }),
    // A BigInt cannot be JSON, and the fifth message puts the node over its cap.
    unsavablePayloads: [1n, 1, 2, 3, 4],
    cleanup: () => rm(spillDir, { recursive: true, force: true }),
  };
});

describe('MemoryCheckpointStore with a spill directory', () => {
  let spillDir: string;
  let store: MemoryCheckpointStore;

  beforeEach(async () => {
    spillDir = await makeSpillDir();
    store = new MemoryCheckpointStore({ messagesPerNode: 3, bytesPerNode: 100, spillDir });
    await store.open();
  });

  afterEach(async () => {
    await store.close();
    await rm(spillDir, { recursive: true, force: true });
  });

  function recordPayloads(recorder: NodeRecorder, payloads: readonly unknown[]) {
    const messages = payloads.map((payload, index) => recordedMessage(`m${index}`, payload));
    for (const message of messages) void recorder.record({ ...message });
    return messages;
  }

  it('is a volatile store of kind spill', () => {
    expect(store.kind).toBe('spill');
    expect(store.durable).toBe(false);
  });

  it('spills a node over its message cap to a file and answers its whole output', async () => {
    const recorder = store.writer('e1').node('node');
    const messages: RecordedMessage[] = recordPayloads(recorder, [
      'a',
      { nested: [1, 2] },
      Buffer.from('bytes'),
      undefined,
      ...Array.from({ length: 2000 }, (_, index) => `message ${index}`),
    ]);
    await recorder.end();
    expect(await readdir(spillDir)).toHaveLength(1);
    expect((await readdir(spillDir))[0]).toMatch(new RegExp(`^${SPILL_FILE_PREFIX}`));
    expect(await store.summary('e1')).toEqual([
      expect.objectContaining({ messages: 2004, complete: true, truncated: false }),
    ]);
    // Read back as the file store would give it: bytes stay bytes.
    expect(await store.output('e1', 'node')).toEqual(messages);
    // Spilled output is not held in memory.
    expect(store.bytes).toBe(0);
  });

  it('spills a node over its bytes cap and keeps counting its bytes', async () => {
    const recorder = store.writer('e1').node('node');
    const messages = recordPayloads(recorder, ['x'.repeat(60), 'y'.repeat(60)]);
    await recorder.end();
    expect(await store.summary('e1')).toEqual([
      { nodeId: 'node', messages: 2, bytes: 120, complete: true, truncated: false },
    ]);
    expect(await store.output('e1', 'node')).toEqual(messages);
    expect(await readdir(spillDir)).toHaveLength(1);
  });

  it('keeps a node under its caps in memory, without a file', async () => {
    const recorder = store.writer('e1').node('node');
    recordPayloads(recorder, ['a', 'b']);
    await recorder.end();
    expect(await readdir(spillDir)).toEqual([]);
    expect(store.bytes).toBe(2);
  });

  it('is incomplete while the spill file is being written, complete once end() resolves', async () => {
    const recorder = store.writer('e1').node('node');
    recordPayloads(recorder, ['a', 'b', 'c', 'd']);
    const ending = recorder.end();
    expect(ending).toBeInstanceOf(Promise);
    expect((await store.summary('e1'))?.[0]?.complete).toBe(false);
    await ending;
    expect((await store.summary('e1'))?.[0]?.complete).toBe(true);
  });

  it('marks a node whose output cannot be spilled truncated, and rejects its end()', async () => {
    const recorder = store.writer('e1').node('node');
    recordPayloads(recorder, ['a', 'b', 'c', 1n]);
    await expect(recorder.end()).rejects.toMatchObject({ code: 'STORE_FAILED' });
    expect(await store.summary('e1')).toEqual([
      expect.objectContaining({ complete: false, truncated: true }),
    ]);
  });

  it('removes spill files when an execution is dropped', async () => {
    for (const executionId of ['dropped', 'kept']) {
      const recorder = store.writer(executionId).node('node');
      recordPayloads(recorder, ['a', 'b', 'c', 'd']);
      await recorder.end();
    }
    expect(await readdir(spillDir)).toHaveLength(2);
    await store.drop('dropped');
    expect(await readdir(spillDir)).toHaveLength(1);
    expect(await store.output('kept', 'node')).toHaveLength(4);
  });

  it('removes the old spill file of a node recorded again by a later writer', async () => {
    const first = store.writer('e1').node('node');
    recordPayloads(first, ['a', 'b', 'c', 'd']);
    await first.end();
    const again = store.writer('e1').node('node');
    recordPayloads(again, ['e']);
    await again.end();
    await vi.waitFor(async () => {
      expect(await readdir(spillDir)).toEqual([]);
    });
    expect((await store.output('e1', 'node'))?.map((message) => message.payload)).toEqual(['e']);
  });

  it('removes spill files on close, and leftovers of an earlier process on open', async () => {
    const recorder = store.writer('e1').node('node');
    recordPayloads(recorder, ['a', 'b', 'c', 'd']);
    await recorder.end();
    await store.close();
    expect(await readdir(spillDir)).toEqual([]);

    await writeFile(path.join(spillDir, `${SPILL_FILE_PREFIX}leftover-1`), 'old');
    await writeFile(path.join(spillDir, 'not-ours.txt'), 'keep');
    await store.open();
    expect(await readdir(spillDir)).toEqual(['not-ours.txt']);
  });

  it('creates a missing spill directory on open', async () => {
    const nested = path.join(spillDir, 'deeper', 'still');
    const other = new MemoryCheckpointStore({ messagesPerNode: 1, spillDir: nested });
    await other.open();
    const recorder = other.writer('e1').node('node');
    recordPayloads(recorder, ['a', 'b']);
    await recorder.end();
    expect(await readdir(nested)).toHaveLength(1);
    await other.close();
  });
});
