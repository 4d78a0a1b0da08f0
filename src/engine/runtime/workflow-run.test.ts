// The stream engine through its own surface: streams, ids, back-pressure, trigger rules and
// cancellation (SPEC "What the service does", "States and transitions").
import { describe, expect, it } from 'vitest';
import { StepFailure } from '../../plugin-api/index.js';
import {
  chainOf as chain,
  createTestRun as harness,
  processorOf as processor,
  sourceOf as source,
  tick,
} from '../testing/index.js';

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
