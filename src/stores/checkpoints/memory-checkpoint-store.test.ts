import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { NodeRecorder } from '../../engine/index.js';
import {
  describeCheckpointStoreConformance,
  recordedMessage,
} from './checkpoint-store.conformance.js';
import {
  DEFAULT_BYTES_PER_NODE,
  DEFAULT_MESSAGES_PER_NODE,
  MemoryCheckpointStore,
  OTHER_PAYLOAD_BYTES,
  countedPayloadBytes,
} from './memory-checkpoint-store.js';

describeCheckpointStoreConformance('memory', () =>
  Promise.resolve({ store: new MemoryCheckpointStore(), cleanup: () => Promise.resolve() }),
);

const MIB = 1024 * 1024;

describe('MemoryCheckpointStore', () => {
  let store: MemoryCheckpointStore;

  beforeEach(async () => {
    store = new MemoryCheckpointStore();
    await store.open();
  });

  function recordPayloads(recorder: NodeRecorder, payloads: readonly unknown[]): void {
    payloads.forEach((payload, index) => {
      void recorder.record(recordedMessage(`m${index}`, payload));
    });
  }

  async function nodeSummary(executionId: string, nodeId: string) {
    return (await store.summary(executionId))?.find((node) => node.nodeId === nodeId);
  }

  it('is a volatile store of kind memory with the SPEC caps by default', () => {
    expect(store.kind).toBe('memory');
    expect(store.durable).toBe(false);
    expect(DEFAULT_MESSAGES_PER_NODE).toBe(200);
    expect(DEFAULT_BYTES_PER_NODE).toBe(4_194_304);
  });

  it('marks the end of a node at once, answering undefined', () => {
    const recorder = store.writer('e1').node('node');
    void recorder.record(recordedMessage('m1', 'x'));
    expect(recorder.end()).toBeUndefined();
    expect(store.writer('e1').approval({ nodeId: 'n', messageId: 'm', approved: true })).toBe(
      undefined,
    );
  });

  it('holds 200 messages of a node and truncates it at the 201st (SPEC Checkpoint caps)', async () => {
    const writer = store.writer('e1');
    const full = writer.node('full');
    recordPayloads(
      full,
      Array.from({ length: 200 }, (_, index) => index),
    );
    expect(full.end()).toBeUndefined();
    const over = writer.node('over');
    recordPayloads(
      over,
      Array.from({ length: 201 }, (_, index) => index),
    );
    expect(over.end()).toBeUndefined();
    expect(await nodeSummary('e1', 'full')).toEqual({
      nodeId: 'full',
      messages: 200,
      bytes: 200 * OTHER_PAYLOAD_BYTES,
      complete: true,
      truncated: false,
    });
    expect(await store.output('e1', 'full')).toHaveLength(200);
    // Every record counts; what was held is released.
    expect(await nodeSummary('e1', 'over')).toEqual({
      nodeId: 'over',
      messages: 201,
      bytes: 0,
      complete: false,
      truncated: true,
    });
    expect(await store.output('e1', 'over')).toBeUndefined();
    expect(store.bytes).toBe(200 * OTHER_PAYLOAD_BYTES);
  });

  it('counts strings by their length against the 4 MiB cap', async () => {
    const writer = store.writer('e1');
    const exact = writer.node('exact');
    recordPayloads(exact, ['a'.repeat(2 * MIB), 'b'.repeat(2 * MIB)]);
    expect(exact.end()).toBeUndefined();
    const over = writer.node('over');
    recordPayloads(over, ['a'.repeat(2 * MIB), 'b'.repeat(2 * MIB), 'c']);
    expect(over.end()).toBeUndefined();
    expect(await nodeSummary('e1', 'exact')).toMatchObject({
      bytes: 4 * MIB,
      complete: true,
      truncated: false,
    });
    expect(await nodeSummary('e1', 'over')).toMatchObject({
      messages: 3,
      complete: false,
      truncated: true,
    });
  });

  it('counts a string in UTF-16 code units, not UTF-8 bytes', () => {
    expect(countedPayloadBytes('abc')).toBe(3);
    expect(countedPayloadBytes('\u00fc\u00fc')).toBe(2);
    expect(countedPayloadBytes('\u{1F600}')).toBe(2);
  });

  it('counts byte arrays by their bytes and every other payload as 1 KiB', () => {
    expect(countedPayloadBytes(Buffer.alloc(10))).toBe(10);
    expect(countedPayloadBytes(new Uint8Array(7))).toBe(7);
    expect(countedPayloadBytes(new Uint8Array(new ArrayBuffer(16), 4, 8))).toBe(8);
    for (const payload of [{ big: 'x'.repeat(10_000) }, 1, null, undefined, [1, 2], true]) {
      expect(countedPayloadBytes(payload)).toBe(1024);
    }
  });

  it('holds 4096 objects of 1 KiB each and truncates at the next one', async () => {
    const roomy = new MemoryCheckpointStore({ messagesPerNode: 10_000 });
    const writer = roomy.writer('e1');
    const full = writer.node('full');
    recordPayloads(
      full,
      Array.from({ length: 4096 }, (_, index) => ({ index })),
    );
    expect(full.end()).toBeUndefined();
    const over = writer.node('over');
    recordPayloads(
      over,
      Array.from({ length: 4097 }, (_, index) => ({ index })),
    );
    expect(over.end()).toBeUndefined();
    const summary = await roomy.summary('e1');
    expect(summary?.map((node) => [node.bytes, node.complete, node.truncated])).toEqual([
      [4 * MIB, true, false],
      [0, false, true],
    ]);
  });

  it('counts Buffer payloads by byteLength against the bytes cap', async () => {
    const writer = store.writer('e1');
    const exact = writer.node('exact');
    recordPayloads(exact, [Buffer.alloc(3 * MIB), new Uint8Array(MIB)]);
    expect(exact.end()).toBeUndefined();
    const over = writer.node('over');
    recordPayloads(over, [Buffer.alloc(3 * MIB), new Uint8Array(MIB), Buffer.alloc(1)]);
    expect(over.end()).toBeUndefined();
    expect(await nodeSummary('e1', 'exact')).toMatchObject({ bytes: 4 * MIB, complete: true });
    expect(await nodeSummary('e1', 'over')).toMatchObject({ truncated: true, complete: false });
    expect(store.bytes).toBe(4 * MIB);
  });

  it('never counts a truncated node complete, whatever comes after its cap', async () => {
    const tight = new MemoryCheckpointStore({ messagesPerNode: 2, bytesPerNode: 100 });
    const recorder = tight.writer('e1').node('node');
    recordPayloads(recorder, ['a', 'b', 'c']);
    expect(recorder.end()).toBeUndefined();
    recordPayloads(recorder, ['d']);
    expect(recorder.end()).toBeUndefined();
    expect(await tight.summary('e1')).toEqual([
      { nodeId: 'node', messages: 4, bytes: 0, complete: false, truncated: true },
    ]);
    expect(await tight.output('e1', 'node')).toBeUndefined();
  });

  it('truncates at the first record when the message cap is 0', async () => {
    const none = new MemoryCheckpointStore({ messagesPerNode: 0 });
    const recorder = none.writer('e1').node('node');
    expect(recorder.end()).toBeUndefined();
    expect(await none.output('e1', 'node')).toEqual([]);
    const other = none.writer('e1').node('other');
    recordPayloads(other, ['a']);
    expect(other.end()).toBeUndefined();
    expect(await none.summary('e1')).toEqual([
      { nodeId: 'node', messages: 0, bytes: 0, complete: true, truncated: false },
      { nodeId: 'other', messages: 1, bytes: 0, complete: false, truncated: true },
    ]);
  });

  it('keeps the byte total over nodes and executions, and releases it on truncation and drop', async () => {
    const first = store.writer('e1').node('node');
    recordPayloads(first, ['abc', Buffer.alloc(5)]);
    const second = store.writer('e2').node('node');
    recordPayloads(second, [{}]);
    expect(store.bytes).toBe(8 + 1024);
    recordPayloads(
      first,
      Array.from({ length: 200 }, () => 'x'),
    );
    expect(store.bytes).toBe(1024);
    await store.drop('e2');
    expect(store.bytes).toBe(0);
  });

  it('holds the emitted objects rather than copies, and hands out a copy of the list', async () => {
    const payload = { value: 1 };
    const recorder = store.writer('e1').node('node');
    void recorder.record(recordedMessage('m1', payload));
    expect(recorder.end()).toBeUndefined();
    const output = await store.output('e1', 'node');
    expect(output?.[0]?.payload).toBe(payload);
    (output as unknown[]).push('extra');
    expect(await store.output('e1', 'node')).toHaveLength(1);
  });

  it('forgets everything on close, as a restart would', async () => {
    const recorder = store.writer('e1').node('node');
    recordPayloads(recorder, ['a']);
    expect(recorder.end()).toBeUndefined();
    await store.close();
    expect(await store.executions()).toEqual([]);
    expect(store.bytes).toBe(0);
  });
});

describeCheckpointStoreConformance('memory with a byte budget', () =>
  Promise.resolve({
    store: new MemoryCheckpointStore({ maxBytes: 64 * MIB }),
    cleanup: () => Promise.resolve(),
  }),
);

describe('MemoryCheckpointStore byte budget (svc.restart.max-bytes, docs/limits.md)', () => {
  /** An object payload of about `size` bytes as the engine measured it. */
  const sized = (id: string, size: number) => ({
    ...recordedMessage(id, { data: 'x' }),
    size,
  });

  it('counts object payloads by the measured size, so large objects cannot pile up under SPEC per-node caps', async () => {
    const dropped: number[] = [];
    const store = new MemoryCheckpointStore({
      maxBytes: 10 * MIB,
      onBudgetDrop: (messages) => dropped.push(messages),
    });
    for (const executionId of ['e1', 'e2', 'e3']) {
      const node = store.writer(executionId).node('map');
      void node.record(sized(`${executionId}-m`, 4 * MIB));
      await node.end();
    }
    // SPEC's per-node count sees 1 KiB each; the budget sees 12 MiB and lets the oldest go.
    expect(store.bytes).toBe(2 * 1024);
    expect(dropped).toEqual([1]);
    const first = (await store.summary('e1'))?.[0];
    expect(first).toMatchObject({ complete: false, truncated: true });
    expect(await store.output('e1', 'map')).toBeUndefined();
    expect(await store.output('e3', 'map')).toHaveLength(1);
  });

  it('keeps what the recording execution holds: its node that does not fit goes over its cap', async () => {
    const dropped: number[] = [];
    const store = new MemoryCheckpointStore({
      maxBytes: 5 * MIB,
      onBudgetDrop: (messages) => dropped.push(messages),
    });
    const writer = store.writer('e1');
    const first = writer.node('first');
    void first.record(sized('a', 3 * MIB));
    await first.end();
    const second = writer.node('second');
    void second.record(sized('b', 3 * MIB));
    await second.end();
    expect(dropped).toEqual([]);
    const nodes = await store.summary('e1');
    expect(nodes?.map((node) => [node.nodeId, node.complete])).toEqual([
      ['first', true],
      ['second', false],
    ]);
  });

  it('with a spill directory moves the oldest output to a spill file, still replayable', async () => {
    const spillDir = await mkdtemp(path.join(os.tmpdir(), 'svc-budget-'));
    const dropped: number[] = [];
    const store = new MemoryCheckpointStore({
      maxBytes: 5 * MIB,
      spillDir,
      onBudgetDrop: (messages) => dropped.push(messages),
    });
    try {
      await store.open();
      const old = store.writer('old').node('map');
      void old.record(sized('a', 3 * MIB));
      expect(old.end()).toBeUndefined();
      const next = store.writer('next').node('map');
      void next.record(sized('b', 3 * MIB));
      await next.end();
      expect(dropped).toEqual([1]);
      expect(await store.output('old', 'map')).toEqual([recordedMessage('a', { data: 'x' })]);
      expect((await store.summary('old'))?.[0]).toMatchObject({ complete: true, truncated: false });
    } finally {
      await store.close();
      await rm(spillDir, { recursive: true, force: true });
    }
  });
});
