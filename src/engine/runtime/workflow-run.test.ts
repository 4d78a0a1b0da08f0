// The stream engine through its own surface: streams, ids, retries, onError, timeouts,
// trigger rules and cancellation (SPEC "What the service does", "States and transitions").
import { describe, expect, it } from 'vitest';
import { StepFailure } from '../../plugin-api/index.js';
import type { Message } from '../../plugin-api/index.js';
import {
  chainOf as chain,
  createTestRun as harness,
  processorOf as processor,
  sourceOf as source,
  tick,
  waitFor,
} from './test-run.js';
import type { NodePlacement, PlacedNode } from './run-ports.js';

describe('WorkflowRun: messages flow (SPEC What the service does)', () => {
  it('runs a linear workflow to COMPLETED and delivers every message in order to the terminal', async () => {
    const h = harness(
      {
        SRC: source([1, 2, 3]),
        DOUBLE: processor((m) => ({ payload: (m.payload as number) * 2 })),
      },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'double', type: 'DOUBLE' },
        { nodeId: 'end', type: 'SINK' },
      ],
      chain('src', 'double', 'end'),
    );
    h.run.start();
    await expect(h.run.done).resolves.toEqual({ status: 'COMPLETED', error: null });
    expect(h.results.get('end')?.map((m) => m.payload)).toEqual([2, 4, 6]);
    expect(h.node('double')).toMatchObject({ status: 'COMPLETED', messagesIn: 3, messagesOut: 3 });
    expect(h.node('src').status).toBe('COMPLETED');
  });

  it('derives stable message ids from the parent id and the node, with attempt 1 (CONTRACT 1)', async () => {
    const make = () =>
      harness(
        {
          SRC: source(['a', 'b']),
          SPLIT: processor((m) => [{ payload: m.payload }, { payload: m.payload }]),
        },
        [
          { nodeId: 'src', type: 'SRC' },
          { nodeId: 'split', type: 'SPLIT' },
          { nodeId: 'end', type: 'SINK' },
        ],
        chain('src', 'split', 'end'),
      );
    const first = make();
    first.run.start();
    await first.run.done;
    const second = make();
    second.run.start();
    await second.run.done;
    const ids = first.results.get('end')?.map((m) => m.id) ?? [];
    expect(ids).toHaveLength(4);
    expect(new Set(ids).size).toBe(4);
    expect(second.results.get('end')?.map((m) => m.id)).toEqual(ids);
    expect(first.results.get('end')?.every((m) => m.headers.attempt === 1)).toBe(true);
  });

  it('routes by port: a message goes only to the edges of its port, and to edges without a port', async () => {
    const h = harness(
      {
        SRC: source([1, 2, 3, 4]),
        EVEN: {
          ...processor((m) => ({
            payload: m.payload,
            port: (m.payload as number) % 2 === 0 ? 'yes' : 'no',
          })),
          portsFrom: 'ports',
        },
      },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'even', type: 'EVEN', config: { ports: ['yes', 'no'] } },
        { nodeId: 'yes', type: 'SINK' },
        { nodeId: 'no', type: 'SINK' },
        { nodeId: 'all', type: 'SINK' },
      ],
      [
        { source: 'src', target: 'even' },
        { source: 'even', target: 'yes', sourcePort: 'yes' },
        { source: 'even', target: 'no', sourcePort: 'no' },
        { source: 'even', target: 'all' },
      ],
    );
    h.run.start();
    await h.run.done;
    expect(h.results.get('yes')?.map((m) => m.payload)).toEqual([2, 4]);
    expect(h.results.get('no')?.map((m) => m.payload)).toEqual([1, 3]);
    expect(h.results.get('all')?.map((m) => m.payload)).toEqual([1, 2, 3, 4]);
  });
});

describe('WorkflowRun: back-pressure (SPEC What the service does)', () => {
  it('slows a producer to the pace of a slow consumer and loses nothing', async () => {
    let produced = 0;
    let consumed = 0;
    let maxAhead = 0;
    const h = harness(
      {
        FAST: {
          kind: 'trigger',
          runtime: () => ({
            async *run() {
              for (let i = 0; i < 200; i++) {
                produced++;
                maxAhead = Math.max(maxAhead, produced - consumed);
                yield await Promise.resolve({ payload: i });
              }
            },
          }),
        },
        SLOW: processor(async (m) => {
          await new Promise((resolve) => setImmediate(resolve));
          consumed++;
          return { payload: m.payload };
        }),
      },
      [
        { nodeId: 'fast', type: 'FAST' },
        { nodeId: 'slow', type: 'SLOW' },
        { nodeId: 'end', type: 'SINK' },
      ],
      chain('fast', 'slow', 'end'),
      { capacity: 4 },
    );
    h.run.start();
    await h.run.done;
    expect(h.results.get('end')).toHaveLength(200);
    expect(h.results.get('end')?.map((m) => m.payload)).toEqual(
      Array.from({ length: 200 }, (_, i) => i),
    );
    // capacity 4, plus one message in the consumer's hands and one waiting in the producer
    expect(maxAhead).toBeLessThanOrEqual(7);
  });

  it('moves a node with several children at the pace of its slowest child', async () => {
    let produced = 0;
    let slowDone = 0;
    let maxAhead = 0;
    const h = harness(
      {
        SRC: {
          kind: 'trigger',
          runtime: () => ({
            async *run() {
              for (let i = 0; i < 100; i++) {
                produced++;
                maxAhead = Math.max(maxAhead, produced - slowDone);
                yield await Promise.resolve({ payload: i });
              }
            },
          }),
        },
        FASTSINK: { kind: 'terminal', runtime: () => ({ process: () => undefined }) },
        SLOWSINK: {
          kind: 'terminal',
          runtime: () => ({
            process: async () => {
              await new Promise((resolve) => setImmediate(resolve));
              slowDone++;
              return undefined;
            },
          }),
        },
      },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'fast', type: 'FASTSINK' },
        { nodeId: 'slow', type: 'SLOWSINK' },
      ],
      [
        { source: 'src', target: 'fast' },
        { source: 'src', target: 'slow' },
      ],
      { capacity: 2 },
    );
    h.run.start();
    await h.run.done;
    expect(h.results.get('fast')).toHaveLength(100);
    expect(h.results.get('slow')).toHaveLength(100);
    expect(maxAhead).toBeLessThanOrEqual(5);
  });

  it('drops the oldest messages at a full edge buffer instead of pacing the parent, and counts them', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const h = harness(
      {
        SRC: source(Array.from({ length: 10 }, (_, i) => i)),
        HOLD: processor(async (m) => {
          await gate;
          return { payload: m.payload };
        }),
      },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'hold', type: 'HOLD', config: { engine: { edgeBuffer: { size: 2 } } } },
        { nodeId: 'end', type: 'SINK' },
      ],
      chain('src', 'hold', 'end'),
    );
    h.run.start();
    await tick(20);
    expect(h.node('src').status).toBe('COMPLETED');
    release();
    await h.run.done;
    const got = h.results.get('end')?.map((m) => m.payload) ?? [];
    expect(got[0]).toBe(0);
    expect(got.slice(1)).toEqual([8, 9]);
    expect(h.node('hold').dropped).toBe(7);
  });
});

describe('WorkflowRun: a run that never waits shares the event loop', () => {
  it('gives the event loop a turn while a source emits without ever having to wait', async () => {
    const test = harness(
      {
        SYNC: {
          kind: 'trigger',
          runtime: () => ({
            *run() {
              for (let n = 0; n < 100_000; n++) yield { payload: n };
            },
          }),
        },
        // Takes every message and emits nothing: no result is recorded.
        DROP: processor(() => undefined),
      },
      [
        { nodeId: 'src', type: 'SYNC' },
        { nodeId: 'drop', type: 'DROP' },
      ],
      chain('src', 'drop'),
    );
    let receivedAtTurn = -1;
    setImmediate(() => {
      receivedAtTurn = test.node('drop').messagesIn;
    });
    test.run.start();
    expect((await test.run.done).status).toBe('COMPLETED');
    // Other work ran in the middle of the run, not only after it.
    expect(receivedAtTurn).toBeGreaterThan(0);
    expect(receivedAtTurn).toBeLessThan(100_000);
  });
});

describe('WorkflowRun: retries and onError (SPEC Node-level engine settings)', () => {
  it('retries a failing message with an increasing attempt header until it succeeds', async () => {
    const attempts: number[] = [];
    const h = harness(
      {
        SRC: source(['x']),
        FLAKY: processor((m) => {
          attempts.push(m.headers.attempt);
          if (m.headers.attempt < 3) throw new Error('flaky');
          return { payload: 'ok' };
        }),
      },
      [
        { nodeId: 'src', type: 'SRC' },
        {
          nodeId: 'flaky',
          type: 'FLAKY',
          config: { engine: { retry: { maxAttempts: 3, backoffMs: 0 } } },
        },
        { nodeId: 'end', type: 'SINK' },
      ],
      chain('src', 'flaky', 'end'),
    );
    h.run.start();
    await expect(h.run.done).resolves.toMatchObject({ status: 'COMPLETED' });
    expect(attempts).toEqual([1, 2, 3]);
    expect(h.node('flaky').retries).toBe(2);
    expect(h.results.get('end')?.[0]?.payload).toBe('ok');
  });

  it('never retries bad input (a non-retryable failure)', async () => {
    let calls = 0;
    const h = harness(
      {
        SRC: source(['x']),
        BAD: processor(() => {
          calls++;
          throw StepFailure.nonRetryable('bad input');
        }),
      },
      [
        { nodeId: 'src', type: 'SRC' },
        {
          nodeId: 'bad',
          type: 'BAD',
          config: { engine: { retry: { maxAttempts: 5, backoffMs: 0 } } },
        },
        { nodeId: 'end', type: 'SINK' },
      ],
      chain('src', 'bad', 'end'),
    );
    h.run.start();
    await h.run.done;
    expect(calls).toBe(1);
    expect(h.node('bad')).toMatchObject({ status: 'FAILURE', error: 'bad input', retries: 0 });
  });

  it('with onError SKIP drops the failing message, counts it and goes on', async () => {
    const h = harness(
      {
        SRC: source([1, 2, 3]),
        ODD: processor((m) => {
          if (m.payload === 2) throw StepFailure.nonRetryable('two');
          return { payload: m.payload };
        }),
      },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'odd', type: 'ODD', config: { onError: 'SKIP' } },
        { nodeId: 'end', type: 'SINK' },
      ],
      chain('src', 'odd', 'end'),
    );
    h.run.start();
    await expect(h.run.done).resolves.toMatchObject({ status: 'COMPLETED' });
    expect(h.results.get('end')?.map((m) => m.payload)).toEqual([1, 3]);
    expect(h.node('odd')).toMatchObject({ status: 'COMPLETED', skipped: 1 });
  });

  it('with onError ERROR_PORT emits {error, message} on port error', async () => {
    const h = harness(
      {
        SRC: source([1]),
        FAIL: processor(() => {
          throw StepFailure.nonRetryable('nope');
        }),
      },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'fail', type: 'FAIL', config: { onError: 'ERROR_PORT' } },
        { nodeId: 'errors', type: 'SINK' },
      ],
      [
        { source: 'src', target: 'fail' },
        { source: 'fail', target: 'errors', sourcePort: 'error' },
      ],
    );
    h.run.start();
    await expect(h.run.done).resolves.toMatchObject({ status: 'COMPLETED' });
    const payload = h.results.get('errors')?.[0]?.payload as { error: string; message: Message };
    expect(payload.error).toBe('nope');
    expect(payload.message.payload).toBe(1);
  });

  // A message that fails retryably on every attempt: the last attempt's reason names it.
  const alwaysFailing = (attempts: number[]) =>
    processor((m) => {
      if (m.payload !== 1) return { payload: m.payload };
      attempts.push(m.headers.attempt);
      throw StepFailure.retryable(`down on attempt ${m.headers.attempt}`);
    });
  const retried = { maxAttempts: 3, backoffMs: 0 };

  it('applies onError SKIP only after engine.retry.maxAttempts attempts have failed (SPEC Node-level engine settings, onError)', async () => {
    const attempts: number[] = [];
    const h = harness(
      { SRC: source([1, 2]), FLAKY: alwaysFailing(attempts) },
      [
        { nodeId: 'src', type: 'SRC' },
        {
          nodeId: 'flaky',
          type: 'FLAKY',
          config: { onError: 'SKIP', engine: { retry: retried } },
        },
        { nodeId: 'end', type: 'SINK' },
      ],
      chain('src', 'flaky', 'end'),
    );
    h.run.start();
    await expect(h.run.done).resolves.toMatchObject({ status: 'COMPLETED' });
    expect(attempts).toEqual([1, 2, 3]);
    expect(h.node('flaky')).toMatchObject({ status: 'COMPLETED', retries: 2, skipped: 1 });
    expect(h.payloads('end')).toEqual([2]);
  });

  it('emits on port error only after engine.retry.maxAttempts attempts have failed, with the last reason (SPEC Node-level engine settings, onError)', async () => {
    const attempts: number[] = [];
    const h = harness(
      { SRC: source([1, 2]), FLAKY: alwaysFailing(attempts) },
      [
        { nodeId: 'src', type: 'SRC' },
        {
          nodeId: 'flaky',
          type: 'FLAKY',
          config: { onError: 'ERROR_PORT', engine: { retry: retried } },
        },
        { nodeId: 'end', type: 'SINK' },
        { nodeId: 'errors', type: 'SINK' },
      ],
      [
        { source: 'src', target: 'flaky' },
        { source: 'flaky', target: 'end', sourcePort: 'out' },
        { source: 'flaky', target: 'errors', sourcePort: 'error' },
      ],
    );
    h.run.start();
    await expect(h.run.done).resolves.toMatchObject({ status: 'COMPLETED' });
    expect(attempts).toEqual([1, 2, 3]);
    expect(h.node('flaky')).toMatchObject({ status: 'COMPLETED', retries: 2, skipped: 0 });
    const errors = h.payloads('errors') as { error: string; message: Message }[];
    expect(errors).toHaveLength(1);
    expect(errors[0]?.error).toBe('down on attempt 3');
    expect(errors[0]?.message.payload).toBe(1);
    expect(h.payloads('end')).toEqual([2]);
  });
});

describe('WorkflowRun: time (SPEC Node-level engine settings)', () => {
  it('fails an attempt that passes engine.elementTimeoutMs, so retry applies', async () => {
    const attempts: number[] = [];
    const h = harness(
      {
        SRC: source(['x']),
        HANG: processor(async (m) => {
          attempts.push(m.headers.attempt);
          if (m.headers.attempt === 1) await new Promise(() => undefined);
          return { payload: 'late but fine' };
        }),
      },
      [
        { nodeId: 'src', type: 'SRC' },
        {
          nodeId: 'hang',
          type: 'HANG',
          config: { engine: { elementTimeoutMs: 50, retry: { maxAttempts: 2, backoffMs: 0 } } },
        },
        { nodeId: 'end', type: 'SINK' },
      ],
      chain('src', 'hang', 'end'),
      { manualTime: true },
    );
    h.run.start();
    await tick();
    h.scheduler?.advance(50);
    await expect(h.run.done).resolves.toMatchObject({ status: 'COMPLETED' });
    expect(attempts).toEqual([1, 2]);
  });

  it('aborts the signal of an attempt whose engine.elementTimeoutMs passes, so its work stops', async () => {
    const aborted: number[] = [];
    const h = harness(
      {
        SRC: source(['x']),
        WATCH: {
          kind: 'processor',
          runtime: () => ({
            process: (m, ctx) =>
              new Promise((resolve) => {
                if (m.headers.attempt > 1) {
                  resolve({ payload: 'second attempt' });
                  return;
                }
                ctx.signal.addEventListener('abort', () => {
                  aborted.push(m.headers.attempt);
                });
              }),
          }),
        },
      },
      [
        { nodeId: 'src', type: 'SRC' },
        {
          nodeId: 'watch',
          type: 'WATCH',
          config: { engine: { elementTimeoutMs: 50, retry: { maxAttempts: 2, backoffMs: 0 } } },
        },
        { nodeId: 'end', type: 'SINK' },
      ],
      chain('src', 'watch', 'end'),
      { manualTime: true },
    );
    h.run.start();
    await tick();
    h.scheduler?.advance(50);
    await expect(h.run.done).resolves.toMatchObject({ status: 'COMPLETED' });
    expect(aborted).toEqual([1]);
    expect(h.results.get('end')?.[0]?.payload).toBe('second attempt');
  });

  it('ends a node TIMED_OUT when it is idle longer than timeoutSeconds, and the run FAILED', async () => {
    const h = harness(
      {
        SRC: source(['x']),
        HANG: processor(() => new Promise(() => undefined)),
      },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'hang', type: 'HANG', config: { timeoutSeconds: 2 } },
        { nodeId: 'end', type: 'SINK' },
      ],
      chain('src', 'hang', 'end'),
      { manualTime: true },
    );
    h.run.start();
    await tick();
    h.scheduler?.advance(1999);
    await tick();
    expect(h.node('hang').status).toBe('RUNNING');
    h.scheduler?.advance(1);
    const outcome = await h.run.done;
    expect(h.node('hang').status).toBe('TIMED_OUT');
    expect(h.node('end').status).toBe('UPSTREAM_FAILED');
    expect(outcome.status).toBe('FAILED');
  });

  it('fails a signal wait without retries when nothing in the run answers signals', async () => {
    let attempts = 0;
    const h = harness(
      {
        SRC: source(['x']),
        ASK: {
          kind: 'processor',
          runtime: () => ({
            process: async (message, ctx) => {
              attempts++;
              await ctx.awaitSignal({
                messageId: message.id,
                payload: message.payload,
                prompt: null,
                timeoutMs: 1000,
              });
              return undefined;
            },
          }),
        },
      },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'ask', type: 'ASK', config: { engine: { retry: { maxAttempts: 3 } } } },
        { nodeId: 'end', type: 'SINK' },
      ],
      chain('src', 'ask', 'end'),
    );
    h.run.start();
    await h.run.done;
    expect(h.node('ask')).toMatchObject({
      status: 'FAILURE',
      error: expect.stringContaining('Signals cannot be received in this run') as unknown,
    });
    expect(attempts).toBe(1);
  });

  it('aborts the signal of a node that ends TIMED_OUT on its idle timeout, so the work it started stops', async () => {
    let aborted: unknown;
    const h = harness(
      {
        SRC: source(['x']),
        HANG: {
          kind: 'processor',
          runtime: () => ({
            process: (_message, ctx) =>
              new Promise<undefined>(() => {
                ctx.signal.addEventListener('abort', () => {
                  aborted = ctx.signal.reason;
                });
              }),
          }),
        },
      },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'hang', type: 'HANG', config: { timeoutSeconds: 2 } },
        { nodeId: 'end', type: 'SINK' },
      ],
      chain('src', 'hang', 'end'),
      { manualTime: true },
    );
    h.run.start();
    await tick();
    h.scheduler?.advance(1999);
    await tick();
    expect(aborted).toBeUndefined();
    h.scheduler?.advance(1);
    await h.run.done;
    expect(h.node('hang').status).toBe('TIMED_OUT');
    expect(aborted).toMatchObject({ status: 'TIMED_OUT' });
  });

  // A plugin type that declares a default idle timeout, as the built-in types that wait on
  // the outside world do (30 s), and whose work never finishes.
  const hangingWithDefault = {
    ...processor(() => new Promise(() => undefined)),
    defaultTimeoutSeconds: 30,
  };

  it('ends a node TIMED_OUT when the plugin default idle timeout passes and it sets no timeoutSeconds (SPEC Limits, Node-level engine settings)', async () => {
    const h = harness(
      { SRC: source(['x']), CALL: hangingWithDefault },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'call', type: 'CALL' },
        { nodeId: 'end', type: 'SINK' },
      ],
      chain('src', 'call', 'end'),
      { manualTime: true },
    );
    h.run.start();
    await tick();
    h.scheduler?.advance(29_999);
    await tick();
    expect(h.node('call').status).toBe('RUNNING');
    h.scheduler?.advance(1);
    await tick();
    expect(h.node('call')).toMatchObject({ status: 'TIMED_OUT', error: 'Node was idle for 30 s' });
    const outcome = await h.run.done;
    expect(h.node('end').status).toBe('UPSTREAM_FAILED');
    expect(outcome.status).toBe('FAILED');
  });

  it('lets timeoutSeconds replace the plugin default idle timeout (SPEC Limits, Node-level engine settings)', async () => {
    const h = harness(
      { SRC: source(['x']), CALL: hangingWithDefault },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'call', type: 'CALL', config: { timeoutSeconds: 45 } },
        { nodeId: 'end', type: 'SINK' },
      ],
      chain('src', 'call', 'end'),
      { manualTime: true },
    );
    h.run.start();
    await tick();
    h.scheduler?.advance(44_999);
    await tick();
    expect(h.node('call').status).toBe('RUNNING');
    h.scheduler?.advance(1);
    await h.run.done;
    expect(h.node('call')).toMatchObject({ status: 'TIMED_OUT', error: 'Node was idle for 45 s' });
  });

  it('ends a node TIMED_OUT when engine.deadlineMs passes', async () => {
    const h = harness(
      { SRC: source(['x']), HANG: processor(() => new Promise(() => undefined)) },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'hang', type: 'HANG', config: { engine: { deadlineMs: 100 } } },
        { nodeId: 'end', type: 'SINK' },
      ],
      chain('src', 'hang', 'end'),
      { manualTime: true },
    );
    h.run.start();
    await tick();
    h.scheduler?.advance(100);
    await h.run.done;
    expect(h.node('hang').status).toBe('TIMED_OUT');
  });

  it('ends the run TIMED_OUT at the run deadline and cancels the nodes still going', async () => {
    const h = harness(
      { SRC: source(['x']), HANG: processor(() => new Promise(() => undefined)) },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'hang', type: 'HANG' },
        { nodeId: 'end', type: 'SINK' },
      ],
      chain('src', 'hang', 'end'),
      { manualTime: true, deadlineMs: 1000 },
    );
    h.run.start();
    await tick();
    h.scheduler?.advance(1000);
    await expect(h.run.done).resolves.toMatchObject({ status: 'TIMED_OUT' });
    expect(h.node('hang').status).toBe('CANCELLED');
    expect(h.scheduler?.pending).toBe(0);
  });
});

describe('WorkflowRun: failure (SPEC States and transitions, rule 2)', () => {
  const failing = processor(() => {
    throw StepFailure.nonRetryable('broken');
  });
  const pass = processor((m) => ({ payload: m.payload }));

  it('ends only the failing node FAILURE and every node behind it UPSTREAM_FAILED', async () => {
    const h = harness(
      { SRC: source([1]), FAIL: failing, PASS: pass },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'fail', type: 'FAIL' },
        { nodeId: 'after', type: 'PASS' },
        { nodeId: 'end', type: 'SINK' },
      ],
      chain('src', 'fail', 'after', 'end'),
    );
    h.run.start();
    const outcome = await h.run.done;
    expect(outcome.status).toBe('FAILED');
    expect(h.node('src').status).toBe('COMPLETED');
    expect(h.node('fail')).toMatchObject({ status: 'FAILURE', error: 'broken' });
    expect(h.node('after').status).toBe('UPSTREAM_FAILED');
    expect(h.node('end').status).toBe('UPSTREAM_FAILED');
  });

  it('lets a node with engine.trigger ALL_DONE go on after a parent failed', async () => {
    const h = harness(
      { SRC: source([1]), FAIL: failing, PASS: pass },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'fail', type: 'FAIL' },
        { nodeId: 'ok', type: 'PASS' },
        { nodeId: 'join', type: 'PASS', config: { engine: { trigger: 'ALL_DONE' } } },
        { nodeId: 'end', type: 'SINK' },
      ],
      [
        { source: 'src', target: 'fail' },
        { source: 'src', target: 'ok' },
        { source: 'fail', target: 'join' },
        { source: 'ok', target: 'join' },
        { source: 'join', target: 'end' },
      ],
    );
    h.run.start();
    await expect(h.run.done).resolves.toMatchObject({ status: 'COMPLETED' });
    expect(h.node('join').status).toBe('COMPLETED');
    expect(h.results.get('end')?.map((m) => m.payload)).toEqual([1]);
  });

  it('with ONE_SUCCESS goes on while one parent completes, and fails upstream when none does', async () => {
    const make = (secondType: string) =>
      harness(
        { SRC: source([1]), FAIL: failing, PASS: pass },
        [
          { nodeId: 'src', type: 'SRC' },
          { nodeId: 'a', type: 'FAIL' },
          { nodeId: 'b', type: secondType },
          { nodeId: 'join', type: 'PASS', config: { engine: { trigger: 'ONE_SUCCESS' } } },
          { nodeId: 'end', type: 'SINK' },
        ],
        [
          { source: 'src', target: 'a' },
          { source: 'src', target: 'b' },
          { source: 'a', target: 'join' },
          { source: 'b', target: 'join' },
          { source: 'join', target: 'end' },
        ],
      );
    const oneOk = make('PASS');
    oneOk.run.start();
    await oneOk.run.done;
    expect(oneOk.node('join').status).toBe('COMPLETED');
    const noneOk = make('FAIL');
    noneOk.run.start();
    await noneOk.run.done;
    expect(noneOk.node('join').status).toBe('UPSTREAM_FAILED');
  });

  it('ends the run when a sink fails and cancels other branches, releasing what they hold', async () => {
    let aborted = false;
    const h = harness(
      {
        SRC: source([1]),
        FAIL: failing,
        FOREVER: processor(
          (_m) =>
            new Promise<undefined>(() => {
              /* never settles: only cancellation ends it */
            }),
        ),
        WATCH: {
          kind: 'processor',
          runtime: () => ({
            process: (_m, ctx) =>
              new Promise<undefined>((_resolve, reject) => {
                ctx.signal.addEventListener('abort', () => {
                  aborted = true;
                  reject(new Error('aborted'));
                });
              }),
          }),
        },
      },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'fail', type: 'FAIL' },
        { nodeId: 'long', type: 'WATCH' },
        { nodeId: 'end2', type: 'SINK' },
      ],
      [
        { source: 'src', target: 'fail' },
        { source: 'src', target: 'long' },
        { source: 'long', target: 'end2' },
      ],
    );
    h.run.start();
    const outcome = await h.run.done;
    expect(outcome.status).toBe('FAILED');
    expect(outcome.error).toContain("'fail'");
    expect(h.node('long').status).toBe('CANCELLED');
    expect(aborted).toBe(true);
  });

  it('stops: every node still going ends STOPPED', async () => {
    const h = harness(
      { SRC: source([1]), HANG: processor(() => new Promise(() => undefined)) },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'hang', type: 'HANG' },
        { nodeId: 'end', type: 'SINK' },
      ],
      chain('src', 'hang', 'end'),
    );
    h.run.start();
    await tick();
    h.run.stop();
    await expect(h.run.done).resolves.toMatchObject({ status: 'STOPPED' });
    expect(h.node('hang').status).toBe('STOPPED');
    expect(h.node('end').status).toBe('STOPPED');
  });
});

describe('WorkflowRun: placed nodes (SPEC Node-level engine settings, engine.placement)', () => {
  it('takes a placed node runtime from the placement port, with its configuration unresolved, and closes it when the node ends', async () => {
    const placed: PlacedNode[] = [];
    let closed = 0;
    const placement: NodePlacement = {
      runtimeFor: (node) => {
        placed.push(node);
        return {
          process: (m) => ({ payload: `${String(m.payload)} on ${node.pool}` }),
          close: () => {
            closed++;
          },
        };
      },
    };
    const h = harness(
      { SRC: source(['a', 'b']), WORK: processor(() => ({ payload: 'here' })) },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'work', type: 'WORK', config: { x: '${env.X}', engine: { placement: 'gpu' } } },
        { nodeId: 'end', type: 'SINK' },
      ],
      chain('src', 'work', 'end'),
      {
        placement,
        // Resolving here would fail the node: a placed node's configuration is not resolved here.
        resolveConfig: (config) =>
          'x' in config
            ? { ok: false, error: 'resolved on the control plane' }
            : { ok: true, config },
      },
    );
    h.run.start();
    await expect(h.run.done).resolves.toEqual({ status: 'COMPLETED', error: null });
    expect(h.payloads('end')).toEqual(['a on gpu', 'b on gpu']);
    expect(placed).toMatchObject([
      {
        executionId: 'e1',
        sessionId: 's1',
        workflowId: 'w',
        nodeId: 'work',
        type: 'WORK',
        pool: 'gpu',
        config: { x: '${env.X}', engine: { placement: 'gpu' } },
      },
    ]);
    expect(closed).toBe(1);
  });

  it('retries a placed node whose runtime fails retryably, as for a local one (engine.retry waits for a worker)', async () => {
    let attempts = 0;
    const placement: NodePlacement = {
      runtimeFor: () => ({
        process: (m) => {
          attempts++;
          if (m.headers.attempt < 3) throw StepFailure.retryable('no worker yet');
          return { payload: m.headers.attempt };
        },
      }),
    };
    const h = harness(
      { SRC: source([1]), WORK: processor(() => undefined) },
      [
        { nodeId: 'src', type: 'SRC' },
        {
          nodeId: 'work',
          type: 'WORK',
          config: { engine: { placement: 'gpu', retry: { maxAttempts: 3 } } },
        },
        { nodeId: 'end', type: 'SINK' },
      ],
      chain('src', 'work', 'end'),
      { placement },
    );
    h.run.start();
    await expect(h.run.done).resolves.toMatchObject({ status: 'COMPLETED' });
    expect(attempts).toBe(3);
    expect(h.payloads('end')).toEqual([3]);
    expect(h.node('work').retries).toBe(2);
  });

  it('aborts the signal of a placed call when the run stops', async () => {
    let aborted = false;
    const placement: NodePlacement = {
      runtimeFor: () => ({
        process: (_m, ctx) =>
          new Promise((_resolve, reject) => {
            ctx.signal.addEventListener('abort', () => {
              aborted = true;
              reject(new Error('cancelled'));
            });
          }),
      }),
    };
    const h = harness(
      { SRC: source([1]), WORK: processor(() => undefined) },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'work', type: 'WORK', config: { engine: { placement: 'gpu' } } },
        { nodeId: 'end', type: 'SINK' },
      ],
      chain('src', 'work', 'end'),
      { placement },
    );
    h.run.start();
    await waitFor(() => h.node('work').messagesIn === 1, 'the placed call');
    h.run.stop();
    await expect(h.run.done).resolves.toMatchObject({ status: 'STOPPED' });
    expect(aborted).toBe(true);
    expect(h.node('work').status).toBe('STOPPED');
  });
});
