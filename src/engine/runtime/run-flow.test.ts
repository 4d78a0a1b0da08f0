// The flow a live run view reads: per-edge loads of shared inputs, node counts, and the node
// that holds the others back (SPEC What the service does: a slow consumer slows its producers).
import { describe, expect, it } from 'vitest';
import {
  createTestRun,
  holdingProcessor,
  pass,
  processorOf,
  sourceOf,
  waitFor,
} from '../testing/index.js';
import type { TestPluginType } from '../testing/index.js';

const payloads = (count: number): number[] => Array.from({ length: count }, (_, index) => index);

/** src (50 messages) -> fast -> slow -> end, every input holding 4. */
function srcFastSlowEnd(fast: TestPluginType, slow: TestPluginType) {
  return createTestRun(
    { SRC: sourceOf(payloads(50)), FAST: fast, SLOW: slow },
    [
      { nodeId: 'src', type: 'SRC' },
      { nodeId: 'fast', type: 'FAST' },
      { nodeId: 'slow', type: 'SLOW' },
      { nodeId: 'end', type: 'SINK' },
    ],
    [
      { source: 'src', target: 'fast' },
      { source: 'fast', target: 'slow' },
      { source: 'slow', target: 'end' },
    ],
    { capacity: 4 },
  );
}

describe('WorkflowRun.flow (live run view)', () => {
  it('reports a slow node’s incoming edge full while its parent waits, and names the slow node', async () => {
    const slow = holdingProcessor();
    const h = srcFastSlowEnd(pass, slow.type);
    h.run.start();
    const edge = (source: string) =>
      h.run.flow().edges.find((candidate) => candidate.source === source);
    await waitFor(
      () => edge('src')?.sourceWaiting === true && edge('fast')?.sourceWaiting === true,
      'the parents to wait on full edges',
    );
    const flow = h.run.flow();
    expect(edge('fast')).toMatchObject({ target: 'slow', queued: 4, capacity: 4 });
    expect(flow.heldBackBy).toBe('slow');
    const node = (nodeId: string) => flow.nodes.find((candidate) => candidate.nodeId === nodeId);
    expect(node('slow')).toMatchObject({ holdingBack: true, waitingToSend: false });
    // `fast` waits on `slow` and holds back `src` only because it is held back itself.
    expect(node('fast')).toMatchObject({ holdingBack: false, waitingToSend: true });
    expect(edge('slow')).toMatchObject({ queued: 0, sourceWaiting: false });
    slow.release();
    await h.run.done;
    const done = h.run.flow();
    expect(done.heldBackBy).toBeNull();
    expect(done.edges.map((entry) => [entry.source, entry.taken])).toEqual([
      ['src', 50],
      ['fast', 50],
      ['slow', 50],
    ]);
  });

  it('splits a shared input between its edges by parent', async () => {
    const slow = holdingProcessor();
    const h = createTestRun(
      { A: sourceOf(payloads(20)), B: sourceOf(payloads(3)), SLOW: slow.type },
      [
        { nodeId: 'a', type: 'A' },
        { nodeId: 'b', type: 'B' },
        { nodeId: 'slow', type: 'SLOW' },
        { nodeId: 'end', type: 'SINK' },
      ],
      [
        { source: 'a', target: 'slow' },
        { source: 'b', target: 'slow' },
        { source: 'slow', target: 'end' },
      ],
      { capacity: 8 },
    );
    h.run.start();
    const edge = (source: string) =>
      h.run.flow().edges.find((candidate) => candidate.source === source);
    await waitFor(() => edge('a')?.sourceWaiting === true, 'a to wait on the shared input');
    const a = edge('a');
    const b = edge('b');
    // One message is in the slow node's hands; the full input holds eight of both edges.
    expect((a?.queued ?? 0) + (b?.queued ?? 0)).toBe(8);
    expect(b?.queued).toBeGreaterThan(0);
    expect((a?.taken ?? 0) + (b?.taken ?? 0)).toBe(1);
    expect(b?.sourceWaiting).toBe(false);
    expect(h.run.flow().heldBackBy).toBe('slow');
    slow.release();
    await h.run.done;
    expect(edge('a')).toMatchObject({ queued: 0, taken: 20 });
    expect(edge('b')).toMatchObject({ queued: 0, taken: 3 });
  });

  it('names the slow node at an instant its parent is between taking a message and sending it', async () => {
    // The parent's next message is in its hands, not waiting for room: the full input below it
    // still holds it back, and the cause is still the slow node.
    const slow = holdingProcessor();
    let holdFast = false;
    const heldByFast: (() => void)[] = [];
    const fast = processorOf((message) =>
      holdFast
        ? new Promise((resolve) =>
            heldByFast.push(() => {
              resolve({ payload: message.payload });
            }),
          )
        : { payload: message.payload },
    );
    const h = srcFastSlowEnd(fast, slow.type);
    h.run.start();
    const edge = (source: string) =>
      h.run.flow().edges.find((candidate) => candidate.source === source);
    await waitFor(() => edge('fast')?.sourceWaiting === true, 'fast to wait on the full input');
    // The slow node lets one go: fast's waiting message fills the input again, and fast holds
    // its next one.
    holdFast = true;
    slow.held.shift()?.();
    await waitFor(() => heldByFast.length === 1, 'fast to hold its next message');
    const flow = h.run.flow();
    expect(edge('fast')).toMatchObject({ queued: 4, capacity: 4, sourceWaiting: false });
    expect(flow.heldBackBy).toBe('slow');
    const node = (nodeId: string) => flow.nodes.find((candidate) => candidate.nodeId === nodeId);
    expect(node('fast')).toMatchObject({ holdingBack: false, waitingToSend: false });
    expect(node('slow')).toMatchObject({ holdingBack: true });
    holdFast = false;
    for (const release of heldByFast.splice(0)) release();
    slow.release();
    await h.run.done;
  });
});
