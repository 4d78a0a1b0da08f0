// Run controls through the run's own surface: pause, resume and step, and the refusals of every
// control (CONTRACT section 4 run controls; SPEC States and transitions rule 1). Deterministic:
// a manual clock where time matters, bounded waits.
import { describe, expect, it } from 'vitest';
import {
  chainOf,
  counters,
  createTestRun,
  hang,
  pass,
  passChain,
  pausedMidFlow,
  refusal,
  sourceOf,
  tick,
  waitFor,
} from '../testing/index.js';
import type { SignalAnswer } from '../../plugin-api/index.js';
import type { TestPluginType, TestRun } from '../testing/index.js';

/** A processor that holds each message for `ms` of its node's clock. */
const delayOf = (ms: number): TestPluginType => ({
  kind: 'processor',
  runtime: () => ({
    process: async (message, ctx) => {
      await ctx.sleep(ms);
      return { payload: message.payload };
    },
  }),
});

/**
 * src -> delay (500 ms of manual time) -> end, paused once the source has completed and the
 * first message sleeps inside the delay.
 */
async function pausedInDelay(payloads: readonly unknown[]): Promise<TestRun> {
  const h = createTestRun(
    { SRC: sourceOf(payloads), DELAY: delayOf(500) },
    [
      { nodeId: 'src', type: 'SRC' },
      { nodeId: 'delay', type: 'DELAY' },
      { nodeId: 'end', type: 'SINK' },
    ],
    chainOf('src', 'delay', 'end'),
    { manualTime: true },
  );
  h.run.start();
  await waitFor(
    () => h.node('src').status === 'COMPLETED' && h.scheduler?.pending === 1,
    'the first message inside the delay',
  );
  h.run.pause();
  await tick(10);
  return h;
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
    const h = passChain([1, 2]);
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

  it('lets the work a node has under way inside its plugin finish on a step of a paused run, then holds the node again', async () => {
    const h = await pausedInDelay([1, 2]);
    // No node waits at its gate: the delay's sleep is what holds the first message.
    expect(h.run.step()).toBe('delay');
    expect(h.node('delay').status).toBe('RUNNING');
    h.scheduler?.advance(500);
    await waitFor(() => h.node('delay').messagesOut === 1, 'the delayed message');
    await tick(10);
    // The work is done: the node is held again with the second message at its gate.
    expect(h.node('delay')).toMatchObject({ status: 'PAUSED', messagesIn: 1 });
    expect(h.node('end').messagesIn).toBe(0);
    expect(h.run.step()).toBe('delay');
    await waitFor(() => h.node('delay').messagesIn === 2, 'the second message taken');
    h.scheduler?.advance(500);
    await waitFor(() => h.node('delay').status === 'COMPLETED', 'the delay to complete');
    expect(h.run.step()).toBe('end');
    expect(h.run.step()).toBe('end');
    await expect(h.run.done).resolves.toMatchObject({ status: 'COMPLETED' });
    expect(h.payloads('end')).toEqual([1, 2]);
  });

  it('refuses a step with NOTHING_TO_STEP when no node holds a message it could move', async () => {
    const h = await pausedInDelay([1]);
    expect(h.run.step()).toBe('delay');
    // The only message is already moving, and nothing waits behind it.
    expect(refusal(h.run, 'step')).toMatchObject({
      code: 'NOTHING_TO_STEP',
      params: { executionId: 'e1' },
    });
    h.scheduler?.advance(500);
    await waitFor(() => h.node('delay').status === 'COMPLETED', 'the delay to complete');
    expect(h.run.step()).toBe('end');
    await expect(h.run.done).resolves.toMatchObject({ status: 'COMPLETED' });
  });

  it('passes over a signal wait, which only its answer ends: with nothing else held the step is refused', async () => {
    const answers: ((answer: SignalAnswer) => void)[] = [];
    const h = createTestRun(
      {
        SRC: sourceOf([1]),
        ASK: {
          kind: 'processor',
          runtime: () => ({
            process: async (message, ctx) => {
              const answer = await ctx.awaitSignal({
                messageId: message.id,
                payload: message.payload,
                prompt: null,
                timeoutMs: 1000,
              });
              return { payload: answer.approved };
            },
          }),
        },
      },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'ask', type: 'ASK' },
        { nodeId: 'end', type: 'SINK' },
      ],
      chainOf('src', 'ask', 'end'),
      {
        manualTime: true,
        awaitSignal: () => ({
          answer: new Promise<SignalAnswer>((resolve) => answers.push(resolve)),
          cancel: () => undefined,
        }),
      },
    );
    h.run.start();
    await waitFor(
      () => h.node('src').status === 'COMPLETED' && h.node('ask').status === 'WAITING',
      'the signal wait',
    );
    h.run.pause();
    expect(refusal(h.run, 'step')).toMatchObject({ code: 'NOTHING_TO_STEP' });
    // The wait's time stays frozen: the timeout does not pass during the pause.
    h.scheduler?.advance(5000);
    await tick(10);
    expect(h.node('ask').status).toBe('WAITING');
    answers[0]?.({ approved: true });
    await waitFor(() => h.node('ask').messagesOut === 1, 'the answered message');
    expect(h.run.step()).toBe('end');
    await expect(h.run.done).resolves.toMatchObject({ status: 'COMPLETED' });
    expect(h.payloads('end')).toEqual([true]);
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
    const h = passChain([1]);
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
