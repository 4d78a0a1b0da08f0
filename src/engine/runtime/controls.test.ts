// Run and node controls through the run's own surface: pause, resume, step, stop, skip and
// breakpoints (CONTRACT section 1 node statuses, section 4 run and node controls; SPEC States
// and transitions rule 1). Deterministic: a manual clock where time matters, bounded waits.
import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/index.js';
import type { Message } from '../../plugin-api/index.js';
import type { TestPluginType } from '../dag/test-catalog.js';
import { childMessageId, sourceMessageId } from './message-ids.js';
import { chainOf, createTestRun, processorOf, sourceOf, tick, waitFor } from './test-run.js';
import type { TestRun } from './test-run.js';
import { isNodeEnded, isTerminalNodeStatus } from './node-state.js';
import type { WorkflowRun } from './workflow-run.js';

const pass = processorOf((message) => ({ payload: message.payload }));
const hang = processorOf(() => new Promise<undefined>(() => undefined));

/** A processor that keeps each message inside the plugin call until released. */
function holdingProcessor(): { type: TestPluginType; held: (() => void)[]; release(): void } {
  const held: (() => void)[] = [];
  let holding = true;
  return {
    held,
    type: processorOf((message: Message) =>
      holding
        ? new Promise((resolve) =>
            held.push(() => {
              resolve({ payload: message.payload });
            }),
          )
        : { payload: message.payload },
    ),
    release() {
      holding = false;
      for (const resolve of held.splice(0)) resolve();
    },
  };
}

/** A trigger that emits what the test pushes, with a header, until closed. */
function pushSource(): { type: TestPluginType; push(payload: unknown): void; close(): void } {
  const queue: unknown[] = [];
  let closed = false;
  let wake: (() => void) | undefined;
  const notify = (): void => {
    wake?.();
    wake = undefined;
  };
  return {
    type: {
      kind: 'trigger',
      runtime: () => ({
        async *run() {
          for (let index = 0; ; index++) {
            while (queue.length === 0 && !closed) await new Promise<void>((r) => (wake = r));
            if (queue.length === 0) return;
            yield { payload: queue.shift(), headers: { trace: `t${index}` } };
          }
        },
      }),
    },
    push(payload) {
      queue.push(payload);
      notify();
    },
    close() {
      closed = true;
      notify();
    },
  };
}

type NodeControl = 'pauseNode' | 'resumeNode' | 'stepNode' | 'stopNode' | 'skipNode' | 'unskipNode';
type Control = NodeControl | 'pause' | 'resume' | 'step' | 'setBreakpoints';

/** The error a control throws; fails the test when it does not throw one. */
function refusal<K extends Control>(
  run: WorkflowRun,
  control: K,
  ...args: Parameters<WorkflowRun[K]>
): AppError {
  try {
    (run[control] as (...values: unknown[]) => unknown).apply(run, args);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error(`${control} was not refused`);
}

/** Counters of every node, to prove that nothing moved. */
const counters = (h: TestRun): string =>
  JSON.stringify(h.run.nodes.map((n) => [n.nodeId, n.status, n.messagesIn, n.messagesOut]));

/** src -> hold -> end, paused while `hold` has its first message inside the plugin call. */
async function pausedMidFlow(): Promise<{ h: TestRun; hold: ReturnType<typeof holdingProcessor> }> {
  const hold = holdingProcessor();
  const h = createTestRun(
    { SRC: sourceOf([1, 2, 3, 4, 5, 6]), HOLD: hold.type },
    [
      { nodeId: 'src', type: 'SRC' },
      { nodeId: 'hold', type: 'HOLD' },
      { nodeId: 'end', type: 'SINK' },
    ],
    chainOf('src', 'hold', 'end'),
    { capacity: 2 },
  );
  h.run.start();
  await waitFor(() => hold.held.length === 1, 'the first message inside the plugin');
  h.run.pause();
  return { h, hold };
}

describe('WorkflowRun controls: run pause and resume (CONTRACT 4 run controls)', () => {
  it('holds every node while the run is paused: work inside a plugin call finishes and then no message moves', async () => {
    const { h, hold } = await pausedMidFlow();
    expect(h.run.paused).toBe(true);
    expect(h.runChanges).toEqual(['PAUSED']);
    expect(h.node('src').status).toBe('PAUSED');
    expect(h.node('hold').status).toBe('PAUSED');
    // A node that has not started yet has nothing to pause (CONTRACT 1: PAUSED was RUNNING).
    expect(h.node('end').status).toBe('PENDING');
    hold.release();
    await tick(20);
    const settled = counters(h);
    await tick(50);
    expect(counters(h)).toBe(settled);
    expect(h.node('hold')).toMatchObject({ messagesIn: 1, messagesOut: 1, status: 'PAUSED' });
    expect(h.node('end').messagesIn).toBe(0);
    expect(h.results.size).toBe(0);
    expect(h.run.ended).toBe(false);
  });

  it('resumes a paused run: every node goes back to RUNNING and no message is lost', async () => {
    const { h, hold } = await pausedMidFlow();
    hold.release();
    await tick(20);
    h.run.resume();
    expect(h.run.paused).toBe(false);
    expect(h.node('hold').status).toBe('RUNNING');
    await expect(h.run.done).resolves.toEqual({ status: 'COMPLETED', error: null });
    expect(h.payloads('end')).toEqual([1, 2, 3, 4, 5, 6]);
    expect(h.runChanges).toEqual(['PAUSED', 'RUNNING']);
    expect(h.statusesOf('hold')).toEqual(['RUNNING', 'PAUSED', 'RUNNING', 'COMPLETED']);
  });

  it('never times a node out for its idle timeout because of a pause (SPEC States and transitions rule 1)', async () => {
    const h = createTestRun(
      { SRC: sourceOf(['x']), HANG: hang },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'hang', type: 'HANG', config: { timeoutSeconds: 2 } },
        { nodeId: 'end', type: 'SINK' },
      ],
      chainOf('src', 'hang', 'end'),
      { manualTime: true },
    );
    h.run.start();
    await waitFor(() => h.node('hang').messagesIn === 1, 'the message inside the plugin');
    h.scheduler?.advance(1500);
    h.run.pause();
    expect(h.scheduler?.pending).toBe(0);
    h.scheduler?.advance(1_000_000);
    await tick();
    expect(h.node('hang').status).toBe('PAUSED');
    h.run.resume();
    h.scheduler?.advance(499);
    await tick();
    expect(h.node('hang').status).toBe('RUNNING');
    h.scheduler?.advance(1);
    await h.run.done;
    expect(h.node('hang').status).toBe('TIMED_OUT');
  });

  it('never ends a run at its deadline because of a pause: the deadline keeps its remaining time (SPEC States and transitions rule 1)', async () => {
    const h = createTestRun(
      { SRC: sourceOf(['x']), HANG: hang },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'hang', type: 'HANG' },
        { nodeId: 'end', type: 'SINK' },
      ],
      chainOf('src', 'hang', 'end'),
      { manualTime: true, deadlineMs: 1000 },
    );
    h.run.start();
    await tick();
    h.scheduler?.advance(600);
    h.run.pause();
    expect(h.scheduler?.pending).toBe(0);
    h.scheduler?.advance(1_000_000);
    await tick();
    expect(h.run.ended).toBe(false);
    h.run.resume();
    h.scheduler?.advance(399);
    await tick();
    expect(h.run.ended).toBe(false);
    h.scheduler?.advance(1);
    await expect(h.run.done).resolves.toMatchObject({ status: 'TIMED_OUT' });
  });
});

describe('WorkflowRun controls: run step (CONTRACT 4 run controls)', () => {
  it('moves exactly one message through one node per step, the first waiting node in topological order', async () => {
    const h = createTestRun(
      { SRC: sourceOf([1, 2]), PASS: pass },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'pass', type: 'PASS' },
        { nodeId: 'end', type: 'SINK' },
      ],
      chainOf('src', 'pass', 'end'),
    );
    h.run.pause();
    h.run.start();
    await tick(20);
    const moved = (): number[] => [
      h.node('src').messagesOut,
      h.node('pass').messagesIn,
      h.node('pass').messagesOut,
      h.node('end').messagesIn,
    ];
    expect(moved()).toEqual([0, 0, 0, 0]);
    expect(h.node('src').status).toBe('PAUSED');

    const stepAndSettle = async (expected: string, after: number[]): Promise<void> => {
      expect(h.run.step()).toBe(expected);
      await waitFor(() => JSON.stringify(moved()) === JSON.stringify(after), `${expected} moved`);
      await tick(20);
      expect(moved()).toEqual(after);
    };
    await stepAndSettle('src', [1, 0, 0, 0]);
    await stepAndSettle('src', [2, 0, 0, 0]);
    // The source is asked for a third message, has none, and completes.
    expect(h.run.step()).toBe('src');
    await waitFor(() => h.node('src').status === 'COMPLETED', 'the source to complete');
    await stepAndSettle('pass', [2, 1, 1, 0]);
    expect(h.node('pass').status).toBe('PAUSED');
    await stepAndSettle('pass', [2, 2, 2, 0]);
    await stepAndSettle('end', [2, 2, 2, 1]);
    expect(h.payloads('end')).toEqual([1]);
    expect(h.run.step()).toBe('end');
    await expect(h.run.done).resolves.toMatchObject({ status: 'COMPLETED' });
    expect(h.payloads('end')).toEqual([1, 2]);
  });

  it('lets time flow for the stepped node only: its delay completes while the run deadline stays frozen', async () => {
    const h = createTestRun(
      {
        SRC: sourceOf([1]),
        DELAY: {
          kind: 'processor',
          runtime: () => ({
            process: async (message, ctx) => {
              await ctx.sleep(500);
              return { payload: message.payload };
            },
          }),
        },
      },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'delay', type: 'DELAY' },
        { nodeId: 'end', type: 'SINK' },
      ],
      chainOf('src', 'delay', 'end'),
      { manualTime: true, deadlineMs: 1000 },
    );
    h.run.pause();
    h.run.start();
    await tick(10);
    expect(h.run.step()).toBe('src');
    await waitFor(() => h.node('src').messagesOut === 1, 'the first emit');
    expect(h.run.step()).toBe('src');
    await waitFor(() => h.node('src').status === 'COMPLETED', 'the source to complete');
    expect(h.run.step()).toBe('delay');
    await tick(10);
    // Only the stepped node's sleep is armed; the run deadline stands still.
    expect(h.scheduler?.pending).toBe(1);
    h.scheduler?.advance(5000);
    await waitFor(() => h.node('delay').messagesOut === 1, 'the delayed message');
    await tick(10);
    expect(h.run.ended).toBe(false);
    expect(h.scheduler?.pending).toBe(0);
    // Its input had ended: an end is no message, so the node completes on a paused run.
    expect(h.node('delay').status).toBe('COMPLETED');
    expect(h.node('end').messagesIn).toBe(0);
    h.run.resume();
    await expect(h.run.done).resolves.toMatchObject({ status: 'COMPLETED' });
    expect(h.payloads('end')).toEqual([1]);
  });

  it('refuses a run step while the run is not paused with EXECUTION_NOT_PAUSED', () => {
    const h = createTestRun(
      { SRC: sourceOf([1]) },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'end', type: 'SINK' },
      ],
      chainOf('src', 'end'),
    );
    expect(refusal(h.run, 'step')).toMatchObject({
      code: 'EXECUTION_NOT_PAUSED',
      params: { executionId: 'e1' },
    });
  });
});

describe('WorkflowRun controls: node pause, resume and step (CONTRACT 4 node controls)', () => {
  it('pauses one node: it takes no message and shows PAUSED while its parent runs into back-pressure', async () => {
    const h = createTestRun(
      { SRC: sourceOf([1, 2, 3, 4, 5]), PASS: pass },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'pass', type: 'PASS' },
        { nodeId: 'end', type: 'SINK' },
      ],
      chainOf('src', 'pass', 'end'),
      { capacity: 2 },
    );
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

    // A run step passes over a node paused on its own: nothing else waits, so nothing steps.
    h.run.pause();
    await tick(20);
    expect(h.run.step()).toBeNull();
    h.run.resume();

    h.run.resumeNode('pass');
    await expect(h.run.done).resolves.toMatchObject({ status: 'COMPLETED' });
    expect(h.payloads('end')).toEqual([1, 2, 3, 4, 5]);
    expect(h.statusesOf('pass')).toEqual(['PAUSED', 'RUNNING', 'PAUSED', 'RUNNING', 'COMPLETED']);
  });

  it('lets the next message through a paused node when a step comes before any message waits', async () => {
    const h = createTestRun(
      { SRC: sourceOf([1, 2, 3]), PASS: pass },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'pass', type: 'PASS' },
        { nodeId: 'end', type: 'SINK' },
      ],
      chainOf('src', 'pass', 'end'),
    );
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
    const h = createTestRun(
      { SRC: sourceOf([1, 2]), PASS: pass },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'pass', type: 'PASS' },
        { nodeId: 'end', type: 'SINK' },
      ],
      chainOf('src', 'pass', 'end'),
    );
    h.run.setBreakpoints(['end']);
    h.run.pauseNode('pass');
    h.run.start();
    await waitFor(() => h.node('src').status === 'COMPLETED', 'the source to complete');
    h.run.stopNode('pass');
    expect(h.node('pass').status).toBe('STOPPED');
    expect(h.node('end').status).toBe('UPSTREAM_FAILED');
    await expect(h.run.done).resolves.toMatchObject({ status: 'FAILED' });

    const paused = createTestRun(
      { SRC: sourceOf([1, 2]), PASS: pass },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'pass', type: 'PASS' },
        { nodeId: 'end', type: 'SINK' },
      ],
      chainOf('src', 'pass', 'end'),
    );
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
    const h = createTestRun(
      { SRC: sourceOf([1, 2]), PASS: pass },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'pass', type: 'PASS' },
        { nodeId: 'end', type: 'SINK' },
      ],
      chainOf('src', 'pass', 'end'),
    );
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
    const h = createTestRun(
      { SRC: sourceOf([1]), PASS: pass },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'pass', type: 'PASS' },
        { nodeId: 'end', type: 'SINK' },
      ],
      chainOf('src', 'pass', 'end'),
    );
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
    const h = createTestRun(
      { SRC: sourceOf([1, 2]), PASS: pass },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'pass', type: 'PASS' },
        { nodeId: 'end', type: 'SINK' },
      ],
      chainOf('src', 'pass', 'end'),
    );
    h.run.setBreakpoints(['pass', 'end']);
    h.run.start();
    await waitFor(() => h.node('pass').status === 'WAITING', 'the first message held');
    h.run.setBreakpoints([]);
    expect(h.run.breakpoints).toEqual([]);
    await expect(h.run.done).resolves.toMatchObject({ status: 'COMPLETED' });
    expect(h.payloads('end')).toEqual([1, 2]);
  });
});

describe('WorkflowRun controls: refusals (CONTRACT 4, docs/errors.md)', () => {
  it('refuses controls of an unknown node with NODE_NOT_FOUND and of an ended node with NODE_NOT_CONTROLLABLE', async () => {
    const h = createTestRun(
      { SRC: sourceOf([1]), PASS: pass, HANG: hang },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'pass', type: 'PASS' },
        { nodeId: 'done', type: 'SINK' },
        { nodeId: 'hang', type: 'HANG' },
        { nodeId: 'open', type: 'SINK' },
      ],
      [...chainOf('src', 'pass', 'done'), ...chainOf('src', 'hang', 'open')],
    );
    h.run.start();
    await waitFor(() => h.node('done').status === 'COMPLETED', 'one branch to complete');
    const notFound = { code: 'NODE_NOT_FOUND', params: { nodeId: 'nope', executionId: 'e1' } };
    expect(refusal(h.run, 'pauseNode', 'nope')).toMatchObject(notFound);
    expect(refusal(h.run, 'stopNode', 'nope')).toMatchObject(notFound);
    expect(refusal(h.run, 'setBreakpoints', ['hang', 'nope'])).toMatchObject(notFound);
    expect(h.run.breakpoints).toEqual([]);
    for (const [control, nodeId, action] of [
      ['pauseNode', 'pass', 'paused'],
      ['resumeNode', 'pass', 'resumed'],
      ['stepNode', 'pass', 'stepped'],
      ['stopNode', 'done', 'stopped'],
      ['skipNode', 'pass', 'skipped'],
      ['unskipNode', 'pass', 'unskipped'],
    ] as const) {
      expect(refusal(h.run, control, nodeId)).toMatchObject({
        code: 'NODE_NOT_CONTROLLABLE',
        params: { nodeId, action },
      });
    }
    h.run.stop();
    await h.run.done;
  });

  it('refuses every control of an ended run with EXECUTION_NOT_ACTIVE', async () => {
    const h = createTestRun(
      { SRC: sourceOf([1]), PASS: pass },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'pass', type: 'PASS' },
        { nodeId: 'end', type: 'SINK' },
      ],
      chainOf('src', 'pass', 'end'),
    );
    h.run.start();
    await h.run.done;
    const ended = {
      code: 'EXECUTION_NOT_ACTIVE',
      params: { executionId: 'e1', status: 'COMPLETED' },
    };
    expect(refusal(h.run, 'pause')).toMatchObject(ended);
    expect(refusal(h.run, 'resume')).toMatchObject(ended);
    expect(refusal(h.run, 'step')).toMatchObject(ended);
    expect(refusal(h.run, 'pauseNode', 'pass')).toMatchObject(ended);
    expect(refusal(h.run, 'skipNode', 'pass')).toMatchObject(ended);
    expect(refusal(h.run, 'setBreakpoints', [])).toMatchObject(ended);
  });
});
