// One message's attempts through the run's surface: retries with backoff, onError, element and
// idle timeouts, node and run deadlines (SPEC "Node-level engine settings", "Limits").
import { describe, expect, it } from 'vitest';
import { StepFailure } from '../../plugin-api/index.js';
import type { Message } from '../../plugin-api/index.js';
import {
  chainOf as chain,
  createTestRun as harness,
  processorOf as processor,
  sourceOf as source,
  tick,
} from '../testing/index.js';

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
  /** src -> flaky (fails message 1 on every attempt, with `onError`) -> end. */
  const flakyChain = (onError: string, attempts: number[]) =>
    harness(
      { SRC: source([1, 2]), FLAKY: alwaysFailing(attempts) },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'flaky', type: 'FLAKY', config: { onError, engine: { retry: retried } } },
        { nodeId: 'end', type: 'SINK' },
      ],
      chain('src', 'flaky', 'end'),
    );

  it('applies onError SKIP only after engine.retry.maxAttempts attempts have failed (SPEC Node-level engine settings, onError)', async () => {
    const attempts: number[] = [];
    const h = flakyChain('SKIP', attempts);
    h.run.start();
    await expect(h.run.done).resolves.toMatchObject({ status: 'COMPLETED' });
    expect(attempts).toEqual([1, 2, 3]);
    expect(h.node('flaky')).toMatchObject({ status: 'COMPLETED', retries: 2, skipped: 1 });
    expect(h.payloads('end')).toEqual([2]);
  });

  it('with onError DEAD_LETTER hands the message over with every attempt after the last one failed, and goes on (docs/dead-letters.md)', async () => {
    const attempts: number[] = [];
    const h = flakyChain('DEAD_LETTER', attempts);
    h.run.start();
    await expect(h.run.done).resolves.toMatchObject({ status: 'COMPLETED' });
    expect(attempts).toEqual([1, 2, 3]);
    expect(h.node('flaky')).toMatchObject({ status: 'COMPLETED', retries: 2, skipped: 1 });
    expect(h.payloads('end')).toEqual([2]);
    expect(h.deadLetters).toEqual([
      {
        nodeId: 'flaky',
        nodeType: 'FLAKY',
        message: expect.objectContaining({ payload: 1 }),
        error: 'down on attempt 3',
        attempts: [
          { attempt: 1, error: 'down on attempt 1' },
          { attempt: 2, error: 'down on attempt 2' },
          { attempt: 3, error: 'down on attempt 3' },
        ],
      },
    ]);
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
