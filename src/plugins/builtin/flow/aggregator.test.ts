import { describe, expect, it } from 'vitest';
import type { Emit, Message, StreamNode } from '../../../plugin-api/index.js';
import { collect, createTestContext, message } from '../../testing/index.js';
import { aggregatorPlugin } from './aggregator.js';

function aggregator(config: Record<string, unknown>): StreamNode {
  const runtime = aggregatorPlugin.create!(aggregatorPlugin.configSchema.parse(config), {
    nodeId: 'n',
    settings: undefined,
  });
  if (!('run' in runtime)) throw new Error('AGGREGATOR is a stream node');
  return runtime;
}

/** An input stream the test feeds by hand, so it can stay idle while the clock moves. */
function pushQueue() {
  const items: Message[] = [];
  let ended = false;
  let wake: () => void = () => undefined;
  let returned = false;
  async function* stream(): AsyncGenerator<Message> {
    try {
      for (;;) {
        const item = items.shift();
        if (item !== undefined) yield item;
        else if (ended) return;
        else await new Promise<void>((resolve) => (wake = resolve));
      }
    } finally {
      returned = true;
    }
  }
  return {
    stream: stream(),
    push(...payloads: unknown[]) {
      items.push(...payloads.map((payload) => message(payload)));
      wake();
    },
    end() {
      ended = true;
      wake();
    },
    get returned() {
      return returned;
    },
  };
}

/** Lets every pending promise reaction run; no time passes on any clock. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** Runs the node over `queue`, recording emits as they come. */
function start(node: StreamNode, queue: ReturnType<typeof pushQueue>, ctx = createTestContext()) {
  const emits: Emit[] = [];
  const done = (async () => {
    for await (const emit of node.run(queue.stream, ctx)) emits.push(emit);
  })();
  return { emits, done };
}

describe('AGGREGATOR', () => {
  it('emits the array of payloads each time size messages have arrived, with header count', async () => {
    const emits = await collect(
      aggregator({ size: 2 }),
      [1, 2, 3, 4].map((n) => message(n)),
    );
    expect(emits).toEqual([
      { payload: [1, 2], headers: { count: 2 } },
      { payload: [3, 4], headers: { count: 2 } },
    ]);
  });

  it('emits what is left as a partial batch when the input ends', async () => {
    const emits = await collect(
      aggregator({ size: 2 }),
      [1, 2, 3].map((n) => message(n)),
    );
    expect(emits.map((emit) => emit.payload)).toEqual([[1, 2], [3]]);
    expect(emits[1]?.headers).toEqual({ count: 1 });
  });

  it('never emits an empty batch', async () => {
    expect(await collect(aggregator({ size: 2 }), [])).toEqual([]);
    expect(
      await collect(
        aggregator({ size: 2 }),
        [1, 2].map((n) => message(n)),
      ),
    ).toHaveLength(1);
  });

  it('emits the expression evaluated over the array of payloads instead of the array', async () => {
    const emits = await collect(
      aggregator({ size: 3, expression: '{"total": $sum(n), "items": $count($)}' }),
      [1, 2, 3].map((n) => message({ n })),
    );
    expect(emits).toEqual([{ payload: { total: 6, items: 3 }, headers: { count: 3 } }]);
  });

  it('emits null when the expression yields nothing', async () => {
    const emits = await collect(aggregator({ size: 1, expression: 'missing' }), [message({})]);
    expect(emits).toEqual([{ payload: null, headers: { count: 1 } }]);
  });

  it('fails without retry when the expression fails over the batch', async () => {
    const node = aggregator({ size: 1, expression: '$error("bad batch")' });
    await expect(collect(node, [message(1)])).rejects.toMatchObject({
      name: 'StepFailure',
      retryable: false,
    });
  });

  it('emits a partial batch when timeoutMs passes while input is idle', async () => {
    const ctx = createTestContext({ instantSleep: false });
    const queue = pushQueue();
    const { emits, done } = start(aggregator({ size: 10, timeoutMs: 1000 }), queue, ctx);
    queue.push('a', 'b');
    await settle();
    await ctx.advance(999);
    expect(emits).toEqual([]);
    await ctx.advance(1);
    expect(emits).toEqual([{ payload: ['a', 'b'], headers: { count: 2 } }]);
    queue.end();
    await done;
    expect(emits).toHaveLength(1);
  });

  it('measures timeoutMs from the first message of each batch', async () => {
    const ctx = createTestContext({ instantSleep: false });
    const queue = pushQueue();
    const { emits, done } = start(aggregator({ timeoutMs: 1000 }), queue, ctx);
    await ctx.advance(5000);
    queue.push('a');
    await settle();
    await ctx.advance(600);
    queue.push('b');
    await settle();
    await ctx.advance(400);
    expect(emits.map((emit) => emit.payload)).toEqual([['a', 'b']]);
    queue.push('c');
    await settle();
    await ctx.advance(999);
    expect(emits).toHaveLength(1);
    await ctx.advance(1);
    expect(emits.map((emit) => emit.payload)).toEqual([['a', 'b'], ['c']]);
    queue.end();
    await done;
  });

  it('keeps at most one sleep pending however many batches fill by size', async () => {
    const ctx = createTestContext({ instantSleep: false });
    const emits = await collect(
      aggregator({ size: 2, timeoutMs: 1000 }),
      [1, 2, 3, 4, 5, 6].map((n) => message(n)),
      ctx,
    );
    expect(emits).toHaveLength(3);
    expect(ctx.sleeps).toEqual([1000]);
  });

  it('re-arms a sleep left by a batch filled by size for the time the open batch has left', async () => {
    const ctx = createTestContext({ instantSleep: false });
    const queue = pushQueue();
    const { emits, done } = start(aggregator({ size: 2, timeoutMs: 1000 }), queue, ctx);
    queue.push('a', 'b');
    await settle();
    await ctx.advance(600);
    queue.push('c');
    await settle();
    await ctx.advance(400);
    expect(emits.map((emit) => emit.payload)).toEqual([['a', 'b']]);
    expect(ctx.sleeps).toEqual([1000, 600]);
    await ctx.advance(599);
    expect(emits).toHaveLength(1);
    await ctx.advance(1);
    expect(emits.map((emit) => emit.payload)).toEqual([['a', 'b'], ['c']]);
    queue.end();
    await done;
  });

  it('stops quietly, without emitting the open batch, when the signal aborts while input is idle', async () => {
    const ctx = createTestContext({ instantSleep: false });
    const queue = pushQueue();
    const { emits, done } = start(aggregator({ size: 10, timeoutMs: 1000 }), queue, ctx);
    queue.push('a');
    await settle();
    ctx.abort();
    await done;
    expect(emits).toEqual([]);
  });

  it('stops quietly when the signal aborts with no timeout configured', async () => {
    const ctx = createTestContext({ instantSleep: false });
    const queue = pushQueue();
    const { emits, done } = start(aggregator({ size: 10 }), queue, ctx);
    queue.push('a');
    await settle();
    ctx.abort();
    await done;
    expect(emits).toEqual([]);
  });

  it('releases its input when the consumer stops pulling', async () => {
    const queue = pushQueue();
    queue.push(1, 2, 3, 4);
    const iterator = aggregator({ size: 2 }).run(queue.stream, createTestContext());
    for await (const emit of iterator) {
      expect(emit.payload).toEqual([1, 2]);
      break;
    }
    expect(queue.returned).toBe(true);
  });
});
