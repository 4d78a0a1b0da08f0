import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCheckpointStore } from './create-checkpoint-store.js';
import { FileCheckpointStore } from './file-checkpoint-store.js';
import { MemoryCheckpointStore } from './memory-checkpoint-store.js';

describe('createCheckpointStore', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'svc-checkpoint-factory-'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const caps = { messagesPerNode: 200, bytesPerNode: 4_194_304 };

  it('makes the memory store when no spill directory is set (SPEC Checkpoint caps and stores)', () => {
    const store = createCheckpointStore({ type: 'memory', ...caps, spillDir: null });
    expect(store).toBeInstanceOf(MemoryCheckpointStore);
    expect(store.kind).toBe('memory');
  });

  it('makes the memory store with spill files when a spill directory is set', () => {
    const store = createCheckpointStore({ type: 'memory', ...caps, spillDir: dir });
    expect(store).toBeInstanceOf(MemoryCheckpointStore);
    expect(store.kind).toBe('spill');
  });

  it('makes the durable file store on a directory', () => {
    const store = createCheckpointStore({ type: 'file', dir });
    expect(store).toBeInstanceOf(FileCheckpointStore);
    expect([store.kind, store.durable]).toEqual(['file', true]);
  });

  it('passes the caps on to the memory store', async () => {
    const store = createCheckpointStore({
      type: 'memory',
      messagesPerNode: 1,
      bytesPerNode: 10,
      spillDir: null,
    });
    const recorder = store.writer('e1').node('node');
    void recorder.record({ id: 'm1', port: 'out', payload: 'a', headers: { attempt: 1 } });
    void recorder.record({ id: 'm2', port: 'out', payload: 'b', headers: { attempt: 1 } });
    await recorder.end();
    expect((await store.summary('e1'))?.[0]?.truncated).toBe(true);
  });
});
