// The engine's checkpoint seam (SPEC Checkpoint, ARCHITECTURE "Checkpoints and replay"):
// every emitted message is recorded in order, an end marker is durable before children see
// the completion, a failed marker leaves the node unmarked, and a replay emits what was
// recorded with the same ids while left-out nodes do not run.
import { describe, expect, it } from 'vitest';
import type {
  CheckpointWriter,
  NodeRecorder,
  RecordedApproval,
  RecordedMessage,
} from '../checkpoints.js';
import { chainOf, createTestRun, processorOf, sourceOf, tick, waitFor } from '../testing/index.js';

/** A writer that keeps everything in arrays; `hold` delays end markers until released. */
class ArrayWriter implements CheckpointWriter {
  readonly messages = new Map<string, RecordedMessage[]>();
  readonly ended: string[] = [];
  /** Every event in order: `record:<node>` and `end:<node>`. */
  readonly events: string[] = [];
  failing = new Set<string>();
  hold = false;
  /** Set: every record answers this promise, as a store with too much unwritten does. */
  recordWait: Promise<void> | undefined;
  readonly #held: (() => void)[] = [];

  node(nodeId: string): NodeRecorder {
    const list = this.messages.get(nodeId) ?? [];
    this.messages.set(nodeId, list);
    return {
      record: (message) => {
        list.push(message);
        this.events.push(`record:${nodeId}`);
        return this.recordWait;
      },
      end: () => {
        if (this.failing.has(nodeId)) return Promise.reject(new Error('disk full'));
        const mark = (): void => {
          this.ended.push(nodeId);
          this.events.push(`end:${nodeId}`);
        };
        if (!this.hold) {
          mark();
          return undefined;
        }
        return new Promise<void>((resolve) => {
          this.#held.push(() => {
            mark();
            resolve();
          });
        });
      },
    };
  }

  release(): void {
    for (const done of this.#held.splice(0)) done();
  }

  get heldCount(): number {
    return this.#held.length;
  }

  approval(_answer: RecordedApproval): undefined {
    return undefined;
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

const double = processorOf((message) => ({ payload: (message.payload as number) * 2 }));

describe('checkpoints in the engine', () => {
  it('records every emitted message in order with its id and port, and marks completed nodes', async () => {
    const writer = new ArrayWriter();
    const test = createTestRun(
      { SRC: sourceOf([1, 2, 3]), DOUBLE: double },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'double', type: 'DOUBLE' },
        { nodeId: 'sink', type: 'SINK' },
      ],
      chainOf('src', 'double', 'sink'),
      { checkpoints: writer },
    );
    test.run.start();
    expect((await test.run.done).status).toBe('COMPLETED');
    expect(writer.messages.get('src')?.map((m) => m.payload)).toEqual([1, 2, 3]);
    expect(writer.messages.get('double')?.map((m) => [m.payload, m.port])).toEqual([
      [2, 'out'],
      [4, 'out'],
      [6, 'out'],
    ]);
    expect(writer.messages.get('double')?.map((m) => m.id)).toEqual(
      test.results.get('sink')?.map((m) => m.id),
    );
    expect(writer.ended).toEqual(['src', 'double', 'sink']);
  });

  it('hands what the store made of a payload back when a node passes that payload on unchanged, and only then', async () => {
    // A store that encodes each payload once, and says which records got an encoding back.
    const handedBack: string[] = [];
    const encodings: string[] = [];
    const writer: CheckpointWriter = {
      node: (nodeId) => ({
        record: (message) => {
          if (message.encoded === undefined) {
            message.encoded = `${nodeId}:${JSON.stringify(message.payload)}`;
            encodings.push(message.encoded as string);
          } else {
            handedBack.push(`${nodeId} got ${message.encoded as string}`);
          }
          return undefined;
        },
        end: () => undefined,
      }),
      approval: () => undefined,
      close: () => Promise.resolve(),
    };
    const test = createTestRun(
      {
        SRC: sourceOf([{ n: 1 }]),
        PASS: processorOf((message) => ({ payload: message.payload })),
        COPY: processorOf((message) => ({ payload: { ...(message.payload as object) } })),
        FORK: processorOf((message) => [
          { payload: message.payload },
          { payload: message.payload, port: 'out' },
        ]),
      },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'pass', type: 'PASS' },
        { nodeId: 'copy', type: 'COPY' },
        { nodeId: 'fork', type: 'FORK' },
        { nodeId: 'sink', type: 'SINK' },
      ],
      chainOf('src', 'pass', 'copy', 'fork', 'sink'),
      { checkpoints: writer },
    );
    test.run.start();
    expect((await test.run.done).status).toBe('COMPLETED');
    // The copy is an equal but new object: it is encoded anew, and what the fork passes on
    // twice is the copy's encoding.
    expect(encodings).toEqual(['src:{"n":1}', 'copy:{"n":1}']);
    expect(handedBack).toEqual([
      'pass got src:{"n":1}',
      'fork got copy:{"n":1}',
      'fork got copy:{"n":1}',
    ]);
  });

  it('records plain message ids also when the lineage has characters JSON escapes', async () => {
    const writer = new ArrayWriter();
    const test = createTestRun(
      { SRC: sourceOf([1, 2]), DOUBLE: double },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'double', type: 'DOUBLE' },
        { nodeId: 'sink', type: 'SINK' },
      ],
      chainOf('src', 'double', 'sink'),
      { checkpoints: writer, lineage: 'say "hi"\n' },
    );
    test.run.start();
    expect((await test.run.done).status).toBe('COMPLETED');
    const ids = [...writer.messages.values()].flat().map((message) => message.id);
    expect(ids).toHaveLength(4);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9._-]+$/);
  });

  it('writes the end marker before the children see the completion', async () => {
    const writer = new ArrayWriter();
    writer.hold = true;
    const test = createTestRun(
      { SRC: sourceOf([1]) },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'sink', type: 'SINK' },
      ],
      chainOf('src', 'sink'),
      { checkpoints: writer },
    );
    test.run.start();
    await waitFor(() => writer.heldCount === 1, 'the source marker');
    await tick(10);
    // The source's marker is not durable yet: the source has not finished, the sink waits.
    expect(test.node('src').endedAt).toBeNull();
    expect(test.node('sink').endedAt).toBeNull();
    writer.release();
    await waitFor(() => writer.heldCount === 1, 'the sink marker');
    expect(test.node('src').status).toBe('COMPLETED');
    writer.release();
    expect((await test.run.done).status).toBe('COMPLETED');
    expect(writer.events.indexOf('end:src')).toBeLessThan(writer.events.indexOf('end:sink'));
  });

  it('goes on when a marker cannot be saved, reporting the node', async () => {
    const writer = new ArrayWriter();
    writer.failing.add('src');
    const test = createTestRun(
      { SRC: sourceOf([1]) },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'sink', type: 'SINK' },
      ],
      chainOf('src', 'sink'),
      { checkpoints: writer },
    );
    test.run.start();
    expect((await test.run.done).status).toBe('COMPLETED');
    expect(test.checkpointFailures).toEqual(['src']);
    expect(writer.ended).toEqual(['sink']);
    expect(test.payloads('sink')).toEqual([1]);
  });

  it('marks no node that failed or was stopped', async () => {
    const writer = new ArrayWriter();
    const test = createTestRun(
      {
        SRC: sourceOf([1]),
        BOOM: processorOf(() => {
          throw new Error('boom');
        }),
      },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'boom', type: 'BOOM', config: { engine: { retry: { maxAttempts: 1 } } } },
        { nodeId: 'sink', type: 'SINK' },
      ],
      chainOf('src', 'boom', 'sink'),
      { checkpoints: writer },
    );
    test.run.start();
    expect((await test.run.done).status).toBe('FAILED');
    expect(writer.ended).toEqual(['src']);
  });

  it('makes a node wait while its recorder holds too much unwritten (back-pressure)', async () => {
    const writer = new ArrayWriter();
    let release: () => void = () => undefined;
    writer.recordWait = new Promise((resolve) => {
      release = resolve;
    });
    const test = createTestRun(
      { SRC: sourceOf([1, 2, 3]) },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'sink', type: 'SINK' },
      ],
      chainOf('src', 'sink'),
      { checkpoints: writer },
    );
    test.run.start();
    await tick(20);
    expect(test.node('src').messagesOut).toBe(1);
    writer.recordWait = undefined;
    release();
    expect((await test.run.done).status).toBe('COMPLETED');
    expect(test.payloads('sink')).toEqual([1, 2, 3]);
  });

  it('replays recorded output with the same ids and leaves out what is not needed', async () => {
    const writer = new ArrayWriter();
    const types = {
      SRC: sourceOf([1, 2]),
      DOUBLE: double,
      SIDE: processorOf((message) => ({ payload: message.payload })),
    };
    const nodes = [
      { nodeId: 'src', type: 'SRC' },
      { nodeId: 'double', type: 'DOUBLE' },
      { nodeId: 'sink', type: 'SINK' },
      { nodeId: 'side', type: 'SIDE' },
      { nodeId: 'sideSink', type: 'SINK' },
    ];
    const edges = [...chainOf('src', 'double', 'sink'), ...chainOf('src', 'side', 'sideSink')];
    const first = createTestRun(types, nodes, edges, { checkpoints: writer });
    first.run.start();
    await first.run.done;

    // Restart from `sink`: `double` feeds it and is replayed; the rest is left out.
    let called = 0;
    const again = createTestRun(
      {
        ...types,
        DOUBLE: processorOf(() => {
          called++;
          return undefined;
        }),
      },
      nodes,
      edges,
      {
        replay: {
          outputs: new Map([['double', writer.messages.get('double') ?? []]]),
          omitted: new Set(['src', 'side', 'sideSink']),
        },
      },
    );
    again.run.start();
    expect((await again.run.done).status).toBe('COMPLETED');
    expect(called).toBe(0);
    expect(again.results.get('sink')?.map((m) => [m.id, m.payload])).toEqual(
      first.results.get('sink')?.map((m) => [m.id, m.payload]),
    );
    expect(again.results.has('sideSink')).toBe(false);
    expect(again.run.nodes.map((node) => [node.nodeId, node.status])).toEqual([
      ['double', 'COMPLETED'],
      ['sink', 'COMPLETED'],
    ]);
  });

  it('holds a replay at a run pause like any source, and steps it one message at a time', async () => {
    const test = createTestRun(
      { SRC: sourceOf([]) },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'sink', type: 'SINK' },
      ],
      chainOf('src', 'sink'),
      {
        replay: {
          outputs: new Map([
            [
              'src',
              [
                { id: 'a', port: 'out', payload: 1, headers: { attempt: 1 } },
                { id: 'b', port: 'out', payload: 2, headers: { attempt: 1 } },
              ],
            ],
          ]),
          omitted: new Set(),
        },
      },
    );
    test.run.pause();
    test.run.start();
    await tick(10);
    expect(test.payloads('sink')).toEqual([]);
    expect(test.run.step()).toBe('src');
    await tick(10);
    // One recorded message left the replayed node; the paused sink holds it.
    expect(test.node('src').messagesOut).toBe(1);
    expect(test.payloads('sink')).toEqual([]);
    test.run.resume();
    expect((await test.run.done).status).toBe('COMPLETED');
    expect(test.results.get('sink')?.map((m) => m.id)).toEqual(['a', 'b']);
  });
});
