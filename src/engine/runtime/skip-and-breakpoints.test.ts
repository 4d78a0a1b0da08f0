// Skip and breakpoints through the run's own surface (CONTRACT section 1 WAITING and SKIPPED,
// section 4 node controls and breakpoints).
import { describe, expect, it } from 'vitest';
import { childMessageId, sourceMessageId } from './message-ids.js';
import {
  chainOf,
  createTestRun,
  pass,
  passChain,
  processorOf,
  pushSource,
  refusal,
  sourceOf,
  tick,
  waitFor,
} from '../testing/index.js';
import { isNodeEnded, isTerminalNodeStatus } from './node-state.js';

describe('WorkflowRun controls: skip (CONTRACT 4 node controls)', () => {
  it('passes each message unchanged on port out while a processor is skipped, and calls it again after unskip', async () => {
    const feed = pushSource();
    let calls = 0;
    const h = createTestRun(
      {
        FEED: feed.type,
        DOUBLE: processorOf((message) => {
          calls++;
          return { payload: (message.payload as number) * 2 };
        }),
      },
      [
        { nodeId: 'feed', type: 'FEED' },
        { nodeId: 'double', type: 'DOUBLE' },
        { nodeId: 'end', type: 'SINK' },
      ],
      chainOf('feed', 'double', 'end'),
    );
    h.run.skipNode('double');
    expect(h.node('double').status).toBe('SKIPPED');
    h.run.start();
    feed.push(1);
    feed.push(2);
    await waitFor(() => h.payloads('end').length === 2, 'two passed messages');
    expect(calls).toBe(0);
    expect(h.payloads('end')).toEqual([1, 2]);
    const first = h.results.get('end')?.[0];
    // Keys are the topological indexes: feed 0, double 1.
    expect(first?.id).toBe(childMessageId(sourceMessageId('e1', '0', 0), '1', 0));
    expect(first?.headers).toEqual({ trace: 't0', attempt: 1 });
    expect(h.node('double')).toMatchObject({ status: 'SKIPPED', messagesIn: 2, messagesOut: 2 });

    h.run.unskipNode('double');
    expect(h.node('double').status).toBe('RUNNING');
    feed.push(3);
    await waitFor(() => h.payloads('end').length === 3, 'a processed message');
    expect(h.payloads('end')).toEqual([1, 2, 6]);
    expect(calls).toBe(1);
    feed.close();
    await expect(h.run.done).resolves.toMatchObject({ status: 'COMPLETED' });
    expect(h.node('double').status).toBe('COMPLETED');
  });

  it('ends a node that is skipped when it ends SKIPPED, and its sink child completes', async () => {
    const h = passChain([1, 2]);
    h.run.skipNode('pass');
    h.run.start();
    await expect(h.run.done).resolves.toEqual({ status: 'COMPLETED', error: null });
    expect(h.node('pass')).toMatchObject({ status: 'SKIPPED', error: null });
    expect(isNodeEnded(h.node('pass'))).toBe(true);
    expect(h.node('end').status).toBe('COMPLETED');
    expect(h.payloads('end')).toEqual([1, 2]);
    // SKIPPED is shown by a node that still passes messages, so the status alone is not final.
    expect(isTerminalNodeStatus('SKIPPED')).toBe(false);
  });

  it('refuses to skip a trigger or a terminal with NOT_A_PROCESSOR', () => {
    const h = passChain([1]);
    expect(refusal(h.run, 'skipNode', 'src')).toMatchObject({
      code: 'NOT_A_PROCESSOR',
      params: { nodeId: 'src', kind: 'trigger' },
    });
    expect(refusal(h.run, 'unskipNode', 'end')).toMatchObject({
      code: 'NOT_A_PROCESSOR',
      params: { nodeId: 'end', kind: 'terminal' },
    });
  });
});

describe('WorkflowRun controls: breakpoints (CONTRACT 1 WAITING, CONTRACT 4 breakpoints)', () => {
  it('holds each message at a breakpoint with the node WAITING and its clock frozen until a step or a resume', async () => {
    const h = createTestRun(
      { SRC: sourceOf([1, 2, 3]), PASS: pass },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'pass', type: 'PASS', config: { engine: { deadlineMs: 100 } } },
        { nodeId: 'end', type: 'SINK' },
      ],
      chainOf('src', 'pass', 'end'),
      { manualTime: true },
    );
    h.run.setBreakpoints(['pass']);
    expect(h.run.breakpoints).toEqual(['pass']);
    h.run.start();
    await waitFor(() => h.node('pass').status === 'WAITING', 'the first message held');
    expect(h.node('pass').messagesIn).toBe(0);
    // Holding freezes the node's clock: its deadline does not pass while it holds.
    expect(h.scheduler?.pending).toBe(0);
    h.scheduler?.advance(10_000);
    await tick(20);
    expect(h.node('pass')).toMatchObject({ status: 'WAITING', messagesIn: 0 });

    h.run.stepNode('pass');
    await waitFor(() => h.payloads('end').length === 1, 'the stepped message');
    await waitFor(() => h.node('pass').status === 'WAITING', 'the second message held');
    expect(h.node('pass').messagesIn).toBe(1);

    h.run.resume();
    await waitFor(() => h.payloads('end').length === 2, 'the resumed message');
    await waitFor(() => h.node('pass').status === 'WAITING', 'the third message held');
    expect(h.run.breakpoints).toEqual(['pass']);

    h.run.resumeNode('pass');
    await expect(h.run.done).resolves.toMatchObject({ status: 'COMPLETED' });
    expect(h.payloads('end')).toEqual([1, 2, 3]);
    expect(h.node('pass').status).toBe('COMPLETED');
  });

  it('lets the held message go on when its breakpoint is removed', async () => {
    const h = passChain([1, 2]);
    h.run.setBreakpoints(['pass', 'end']);
    h.run.start();
    await waitFor(() => h.node('pass').status === 'WAITING', 'the first message held');
    h.run.setBreakpoints([]);
    expect(h.run.breakpoints).toEqual([]);
    await expect(h.run.done).resolves.toMatchObject({ status: 'COMPLETED' });
    expect(h.payloads('end')).toEqual([1, 2]);
  });
});
