// Settlement of a trigger's messages (plugin API `Emit.settlement`, docs/brokers.md): a
// trigger's message settles exactly once, `done` only when everything descended from it has
// been dealt with, `failed` when one of them failed after retries, `cancelled` when the run
// ended first; its id derives from its key and the workflow, not the run.
import { describe, expect, it } from 'vitest';
import type {
  Emit,
  Message,
  SettlementFailure,
  SettlementOutcome,
  StreamNode,
} from '../../plugin-api/index.js';
import {
  chainOf as chain,
  createTestRun as harness,
  processorOf as processor,
  waitUntil,
} from '../testing/index.js';
import type { TestPluginType, TestRun } from '../testing/index.js';
import { hang } from '../testing/control-fixtures.js';

/** Outcomes by key, in the order they came, with what the sink had received by then. */
interface Settled {
  readonly key: string;
  readonly outcome: SettlementOutcome;
  readonly sinkHad: number;
  readonly failure?: SettlementFailure | undefined;
}

/** A trigger emitting `keys` with a settlement each; records every settlement. */
function keyedSource(keys: readonly string[], settled: Settled[], sink: () => number) {
  const type: TestPluginType = {
    kind: 'trigger',
    runtime: (): StreamNode => ({
      async *run() {
        for (const key of keys) {
          const emit: Emit = {
            payload: key,
            settlement: {
              key,
              onSettled: (outcome, failure) =>
                settled.push({ key, outcome, sinkHad: sink(), failure }),
            },
          };
          yield await Promise.resolve(emit);
        }
      },
    }),
  };
  return type;
}

/** A processor whose messages wait until the test lets them go. */
function gated() {
  const waiting: (() => void)[] = [];
  const type = processor(
    (message) =>
      new Promise<Emit>((resolve) => {
        waiting.push(() => {
          resolve({ payload: message.payload });
        });
      }),
  );
  return {
    type,
    get waiting() {
      return waiting.length;
    },
    releaseAll: () => {
      for (const go of waiting.splice(0)) go();
    },
  };
}

/** `keys` from a keyed trigger through `middle` (if any) into a gated node, then a sink. */
function throughSlow(keys: readonly string[], settled: Settled[], middle?: TestPluginType) {
  const slow = gated();
  const ids = middle === undefined ? ['src', 'slow', 'end'] : ['src', 'mid', 'slow', 'end'];
  const h = harness(
    {
      SRC: keyedSource(keys, settled, () => 0),
      SLOW: slow.type,
      ...(middle === undefined ? {} : { MID: middle }),
    },
    ids.map((nodeId) => ({ nodeId, type: nodeId === 'end' ? 'SINK' : nodeId.toUpperCase() })),
    chain(...ids),
  );
  return { h, slow };
}

const outcomes = (settled: readonly Settled[]): Record<string, SettlementOutcome> =>
  Object.fromEntries(settled.map((entry) => [entry.key, entry.outcome]));

function received(h: () => TestRun, nodeId: string): () => number {
  return () => h().results.get(nodeId)?.length ?? 0;
}

describe('WorkflowRun: settlement of a trigger message (plugin API Emit.settlement)', () => {
  it('settles done once the terminal took it, exactly once per message', async () => {
    const settled: Settled[] = [];
    const h: TestRun = harness(
      {
        SRC: keyedSource(
          ['a', 'b', 'c'],
          settled,
          received(() => h, 'end'),
        ),
        PASS: processor((m) => ({ payload: m.payload })),
      },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'mid', type: 'PASS' },
        { nodeId: 'end', type: 'SINK' },
      ],
      chain('src', 'mid', 'end'),
    );
    h.run.start();
    await expect(h.run.done).resolves.toMatchObject({ status: 'COMPLETED' });
    expect(settled.map((s) => [s.key, s.outcome])).toEqual([
      ['a', 'done'],
      ['b', 'done'],
      ['c', 'done'],
    ]);
    // Each settled after its own message reached the terminal, not before.
    expect(settled.map((s) => s.sinkHad)).toEqual([1, 2, 3]);
  });

  it('waits for every branch of a fan-out, the slowest included', async () => {
    const settled: Settled[] = [];
    const slow = gated();
    const h: TestRun = harness(
      {
        SRC: keyedSource(
          ['a'],
          settled,
          received(() => h, 'fast'),
        ),
        SLOW: slow.type,
      },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'fast', type: 'SINK' },
        { nodeId: 'slow', type: 'SLOW' },
        { nodeId: 'end', type: 'SINK' },
      ],
      [...chain('src', 'fast'), ...chain('src', 'slow', 'end')],
    );
    h.run.start();
    await waitUntil(
      () => slow.waiting === 1 && received(() => h, 'fast')() === 1,
      'the slow branch holding it',
    );
    expect(settled).toEqual([]);
    slow.releaseAll();
    await h.run.done;
    expect(outcomes(settled)).toEqual({ a: 'done' });
    expect(h.payloads('end')).toEqual(['a']);
  });

  it('counts every message a split made, and a message filtered out as done', async () => {
    const settled: Settled[] = [];
    const split = processor((m) =>
      m.payload === 'drop' ? undefined : [{ payload: 1 }, { payload: 2 }, { payload: 3 }],
    );
    const { h, slow } = throughSlow(['split', 'drop'], settled, split);
    h.run.start();
    await waitUntil(() => slow.waiting === 1 && settled.length === 1, 'the drop settled');
    expect(outcomes(settled)).toEqual({ drop: 'done' });
    slow.releaseAll();
    await waitUntil(() => slow.waiting === 1, 'a message held');
    slow.releaseAll();
    await waitUntil(() => slow.waiting === 1, 'a message held');
    expect(outcomes(settled)).toEqual({ drop: 'done' });
    slow.releaseAll();
    await h.run.done;
    expect(outcomes(settled)).toEqual({ drop: 'done', split: 'done' });
  });

  it('holds messages an aggregation took until what it emitted for them is done', async () => {
    const settled: Settled[] = [];
    // Pairs of messages into one; a message left over when the input ends is filtered out.
    const pairs: TestPluginType = {
      kind: 'processor',
      runtime: (): StreamNode => ({
        async *run(input: AsyncIterable<Message>) {
          let pair: unknown[] = [];
          for await (const message of input) {
            pair.push(message.payload);
            if (pair.length === 2) {
              yield { payload: pair };
              pair = [];
            }
          }
        },
      }),
    };
    const { h, slow } = throughSlow(['a', 'b', 'c'], settled, pairs);
    h.run.start();
    await waitUntil(() => slow.waiting === 1, 'a message held');
    // c was left over and the input ended: filtered out. a and b wait on their pair.
    await waitUntil(() => settled.length === 1, 'the leftover settled');
    expect(outcomes(settled)).toEqual({ c: 'done' });
    slow.releaseAll();
    await h.run.done;
    expect(outcomes(settled)).toEqual({ a: 'done', b: 'done', c: 'done' });
    expect(h.payloads('end')).toEqual([['a', 'b']]);
  });

  it('settles each of two triggers joined into one node on its own', async () => {
    const settled: Settled[] = [];
    const h = harness(
      {
        LEFT: keyedSource(['l1', 'l2'], settled, () => 0),
        RIGHT: keyedSource(['r1'], settled, () => 0),
        PASS: processor((m) => ({ payload: m.payload })),
      },
      [
        { nodeId: 'left', type: 'LEFT' },
        { nodeId: 'right', type: 'RIGHT' },
        { nodeId: 'join', type: 'PASS' },
        { nodeId: 'end', type: 'SINK' },
      ],
      [...chain('left', 'join', 'end'), ...chain('right', 'join')],
    );
    h.run.start();
    await expect(h.run.done).resolves.toMatchObject({ status: 'COMPLETED' });
    expect(outcomes(settled)).toEqual({ l1: 'done', l2: 'done', r1: 'done' });
    expect(settled).toHaveLength(3);
  });

  it.each(['SKIP', 'DEAD_LETTER'] as const)(
    'settles failed when a descendant fails after its retries (onError %s)',
    async (onError) => {
      const settled: Settled[] = [];
      let attempts = 0;
      const h = harness(
        {
          SRC: keyedSource(['ok', 'bad'], settled, () => 0),
          PICKY: processor((m) => {
            if (m.payload !== 'bad') return { payload: m.payload };
            attempts++;
            throw new Error('refused');
          }),
        },
        [
          { nodeId: 'src', type: 'SRC' },
          {
            nodeId: 'picky',
            type: 'PICKY',
            config: { onError, engine: { retry: { maxAttempts: 2, backoffMs: 0 } } },
          },
          { nodeId: 'end', type: 'SINK' },
        ],
        chain('src', 'picky', 'end'),
      );
      h.run.start();
      await expect(h.run.done).resolves.toMatchObject({ status: 'COMPLETED' });
      expect(attempts).toBe(2);
      expect(outcomes(settled)).toEqual({ ok: 'done', bad: 'failed' });
      expect(settled).toHaveLength(2);
      // What failed comes with the outcome, for a dead letter to tell.
      expect(settled.find((each) => each.key === 'bad')?.failure).toEqual({
        nodeId: 'picky',
        error: 'refused',
      });
      expect(settled.find((each) => each.key === 'ok')?.failure).toBeUndefined();
    },
  );

  it('settles failed when a node fails on it, and what was still under way cancelled', async () => {
    const settled: Settled[] = [];
    const h = harness(
      {
        SRC: keyedSource(['hang', 'bad'], settled, () => 0),
        BOOM: processor((m) => {
          if (m.payload === 'bad') throw new Error('broken');
          return { payload: m.payload };
        }),
        HANG: hang,
      },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'boom', type: 'BOOM', config: { onError: 'FAIL' } },
        { nodeId: 'hang', type: 'HANG' },
        { nodeId: 'end', type: 'SINK' },
      ],
      chain('src', 'boom', 'hang', 'end'),
    );
    h.run.start();
    await expect(h.run.done).resolves.toMatchObject({ status: 'FAILED' });
    expect(outcomes(settled)).toEqual({ hang: 'cancelled', bad: 'failed' });
    expect(settled.find((each) => each.key === 'bad')?.failure).toEqual({
      nodeId: 'boom',
      error: 'broken',
    });
  });

  it('settles cancelled what a stopped run still had under way', async () => {
    const settled: Settled[] = [];
    const { h, slow } = throughSlow(['a', 'b'], settled);
    h.run.start();
    await waitUntil(() => slow.waiting === 1, 'a message held');
    h.run.stop();
    await h.run.done;
    expect(outcomes(settled)).toEqual({ a: 'cancelled', b: 'cancelled' });
    slow.releaseAll();
    await Promise.resolve();
    expect(settled).toHaveLength(2);
  });

  it('gives a keyed message the same id in every run of the workflow', async () => {
    const ids: string[][] = [];
    for (const lineage of ['e1', 'e2']) {
      const h = harness(
        { SRC: keyedSource(['42', 'seq/7 x'], [], () => 0) },
        [
          { nodeId: 'src', type: 'SRC' },
          { nodeId: 'end', type: 'SINK' },
        ],
        chain('src', 'end'),
        { lineage },
      );
      h.run.start();
      await h.run.done;
      ids.push((h.results.get('end') ?? []).map((m) => m.id));
    }
    expect(ids[0]).toEqual(ids[1]);
    expect(new Set(ids[0]).size).toBe(2);
    for (const id of ids[0] ?? []) expect(id).toMatch(/^[A-Za-z0-9._-]+$/);
  });

  it('tells a trigger its credit: every input buffer below it plus one message each', async () => {
    const credits: (number | undefined)[] = [];
    const probe: TestPluginType = {
      kind: 'trigger',
      runtime: (): StreamNode => ({
        // eslint-disable-next-line require-yield
        *run(_input, ctx) {
          credits.push(ctx.credit);
        },
      }),
    };
    const h = harness(
      { SRC: probe, PASS: processor((m) => ({ payload: m.payload })) },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'a', type: 'PASS' },
        { nodeId: 'b', type: 'PASS', config: { engine: { edgeBuffer: { size: 5 } } } },
        { nodeId: 'end', type: 'SINK' },
      ],
      [...chain('src', 'a', 'end'), ...chain('src', 'b', 'end')],
      { capacity: 8 },
    );
    h.run.start();
    await h.run.done;
    // a: 8 + 1, b: 5 + 1, end: 8 + 1 (once, though two edges reach it), and the emit itself.
    expect(credits).toEqual([9 + 6 + 9 + 1]);
  });
});
