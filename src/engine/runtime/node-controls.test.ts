// Node controls through the run's own surface: pause, resume, step and stop of one node, and
// of a whole-stream processor (CONTRACT section 1 node statuses, section 4 node controls).
import { describe, expect, it } from 'vitest';
import {
  chainOf,
  createTestRun,
  passChain,
  pushSource,
  refusal,
  sourceOf,
  tick,
  waitFor,
} from '../testing/index.js';
import { isNodeEnded } from './node-state.js';
import type { TestPluginType } from '../testing/index.js';

describe('WorkflowRun controls: node pause, resume and step (CONTRACT 4 node controls)', () => {
  it('pauses one node: it takes no message and shows PAUSED while its parent runs into back-pressure', async () => {
    const h = passChain([1, 2, 3, 4, 5], { capacity: 2 });
    h.run.pauseNode('pass');
    expect(h.node('pass').status).toBe('PAUSED');
    h.run.start();
    // One message held by the paused node, two in its input, one its parent waits to write.
    await waitFor(() => h.node('src').messagesOut === 4, 'the parent to fill the edge');
    await tick(20);
    expect(h.node('src')).toMatchObject({ status: 'RUNNING', messagesOut: 4 });
    expect(h.node('pass')).toMatchObject({ status: 'PAUSED', messagesIn: 0 });

    h.run.stepNode('pass');
    await waitFor(() => h.payloads('end').length === 1, 'the stepped message at the terminal');
    await tick(20);
    expect(h.node('pass')).toMatchObject({ status: 'PAUSED', messagesIn: 1, messagesOut: 1 });
    expect(h.payloads('end')).toEqual([1]);

    // A run step passes over a node paused on its own: nothing else holds a message, so a
    // step is refused rather than answered as if something moved.
    h.run.pause();
    await tick(20);
    expect(refusal(h.run, 'step')).toMatchObject({
      code: 'NOTHING_TO_STEP',
      params: { executionId: 'e1' },
    });
    h.run.resume();

    h.run.resumeNode('pass');
    await expect(h.run.done).resolves.toMatchObject({ status: 'COMPLETED' });
    expect(h.payloads('end')).toEqual([1, 2, 3, 4, 5]);
    expect(h.statusesOf('pass')).toEqual(['PAUSED', 'RUNNING', 'PAUSED', 'RUNNING', 'COMPLETED']);
  });

  it('lets the next message through a paused node when a step comes before any message waits', async () => {
    const h = passChain([1, 2, 3]);
    h.run.pauseNode('pass');
    h.run.stepNode('pass');
    h.run.start();
    await waitFor(() => h.payloads('end').length === 1, 'the stepped message');
    await tick(20);
    expect(h.payloads('end')).toEqual([1]);
    expect(h.node('pass')).toMatchObject({ status: 'PAUSED', messagesIn: 1 });
    h.run.resumeNode('pass');
    await h.run.done;
    expect(h.payloads('end')).toEqual([1, 2, 3]);
  });

  it('freezes the sleeps of a paused trigger, which then keep their remaining time', async () => {
    const cron: TestPluginType = {
      kind: 'trigger',
      runtime: () => ({
        async *run(_input, ctx) {
          for (let i = 0; i < 3; i++) {
            await ctx.sleep(1000);
            yield { payload: i };
          }
        },
      }),
    };
    const h = createTestRun(
      { CRON: cron },
      [
        { nodeId: 'cron', type: 'CRON' },
        { nodeId: 'end', type: 'SINK' },
      ],
      chainOf('cron', 'end'),
      { manualTime: true },
    );
    h.run.start();
    await tick();
    h.scheduler?.advance(1000);
    await waitFor(() => h.payloads('end').length === 1, 'the first tick');
    h.scheduler?.advance(400);
    h.run.pauseNode('cron');
    expect(h.node('cron').status).toBe('PAUSED');
    expect(h.scheduler?.pending).toBe(0);
    h.scheduler?.advance(100_000);
    await tick(20);
    expect(h.payloads('end')).toEqual([0]);
    h.run.resumeNode('cron');
    h.scheduler?.advance(599);
    await tick(20);
    expect(h.payloads('end')).toEqual([0]);
    h.scheduler?.advance(1);
    await waitFor(() => h.payloads('end').length === 2, 'the second tick');
    h.scheduler?.advance(1000);
    await expect(h.run.done).resolves.toMatchObject({ status: 'COMPLETED' });
    expect(h.payloads('end')).toEqual([0, 1, 2]);
  });
});

describe('WorkflowRun controls: node stop (CONTRACT 4 node controls, SPEC States and transitions rule 2)', () => {
  it('ends a stopped node STOPPED at once, aborts its signal, and its children end UPSTREAM_FAILED', async () => {
    let aborted = false;
    const h = createTestRun(
      {
        SRC: sourceOf([1]),
        WATCH: {
          kind: 'processor',
          runtime: () => ({
            process: (_message, ctx) =>
              new Promise<undefined>(() => {
                ctx.signal.addEventListener('abort', () => (aborted = true));
              }),
          }),
        },
      },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'watch', type: 'WATCH' },
        { nodeId: 'end', type: 'SINK' },
      ],
      chainOf('src', 'watch', 'end'),
    );
    h.run.start();
    await waitFor(() => h.node('watch').messagesIn === 1, 'the message inside the plugin');
    h.run.stopNode('watch');
    expect(h.node('watch').status).toBe('STOPPED');
    expect(isNodeEnded(h.node('watch'))).toBe(true);
    expect(aborted).toBe(true);
    expect(h.node('end').status).toBe('UPSTREAM_FAILED');
    await expect(h.run.done).resolves.toMatchObject({ status: 'FAILED' });
  });
});

describe('WorkflowRun controls: stop of a held node or run (CONTRACT 4)', () => {
  it('stops a node held at its gate, and stops a paused run, without waiting for a resume', async () => {
    const h = passChain([1, 2]);
    h.run.setBreakpoints(['end']);
    h.run.pauseNode('pass');
    h.run.start();
    await waitFor(() => h.node('src').status === 'COMPLETED', 'the source to complete');
    h.run.stopNode('pass');
    expect(h.node('pass').status).toBe('STOPPED');
    expect(h.node('end').status).toBe('UPSTREAM_FAILED');
    await expect(h.run.done).resolves.toMatchObject({ status: 'FAILED' });

    const paused = passChain([1, 2]);
    paused.run.pause();
    paused.run.start();
    await tick(10);
    paused.run.stop();
    await expect(paused.run.done).resolves.toMatchObject({ status: 'STOPPED' });
    expect(paused.run.nodes.map((node) => node.status)).toEqual(['STOPPED', 'STOPPED', 'STOPPED']);
  });
});

describe('WorkflowRun controls: a whole-stream processor (CONTRACT 4 node controls)', () => {
  /** Takes its input as a stream, as AGGREGATOR or SPLITTER do, and emits a tenfold copy. */
  const tenfold: TestPluginType = {
    kind: 'processor',
    runtime: () => ({
      async *run(input) {
        for await (const message of input) yield { payload: (message.payload as number) * 10 };
      },
    }),
  };

  it('holds a whole-stream processor at its input while paused, and passes its input on while skipped', async () => {
    const feed = pushSource();
    const h = createTestRun(
      { FEED: feed.type, TENFOLD: tenfold },
      [
        { nodeId: 'feed', type: 'FEED' },
        { nodeId: 'tenfold', type: 'TENFOLD' },
        { nodeId: 'end', type: 'SINK' },
      ],
      chainOf('feed', 'tenfold', 'end'),
    );
    h.run.start();
    feed.push(1);
    await waitFor(() => h.payloads('end').length === 1, 'the first message');
    h.run.pauseNode('tenfold');
    feed.push(2);
    await tick(20);
    expect(h.node('tenfold')).toMatchObject({ status: 'PAUSED', messagesIn: 1 });
    h.run.stepNode('tenfold');
    await waitFor(() => h.payloads('end').length === 2, 'the stepped message');
    h.run.skipNode('tenfold');
    h.run.resumeNode('tenfold');
    expect(h.node('tenfold').status).toBe('SKIPPED');
    feed.push(3);
    await waitFor(() => h.payloads('end').length === 3, 'the passed message');
    feed.close();
    await expect(h.run.done).resolves.toMatchObject({ status: 'COMPLETED' });
    expect(h.payloads('end')).toEqual([10, 20, 3]);
    expect(h.node('tenfold').status).toBe('SKIPPED');
  });
});
