// Emits made lazily (`EmitStream`, plugin API): pulled at the pace of the children, never
// while the node is paused or after it ended, failing like a throw of `process`, with the ids
// an array would have had (SPEC "What the service does": back-pressure; CONTRACT 1: stable ids).
import { describe, expect, it } from 'vitest';
import { StepFailure } from '../../plugin-api/index.js';
import type { Emit, EmitStream, Message, ProcessResult } from '../../plugin-api/index.js';
import {
  chainOf as chain,
  createTestRun as harness,
  sourceOf as source,
  tick,
  waitFor,
  waitUntil,
} from '../testing/index.js';
import type { TestPluginType } from '../testing/index.js';
import { hang } from '../testing/control-fixtures.js';
import { childMessageId } from './message-ids.js';

const processor = (
  process: (message: Message) => ProcessResult | Promise<ProcessResult>,
): TestPluginType => ({ kind: 'processor', runtime: () => ({ process }) });

/** Counts what it is given and passes nothing on: a child that keeps little. */
function counter(): { type: TestPluginType; readonly seen: number } {
  const state = { seen: 0 };
  return {
    type: processor(() => {
      state.seen++;
      return undefined;
    }),
    get seen() {
      return state.seen;
    },
  };
}

/** Numbers from 0 on, for as long as they are asked for; tells how far it got and if it closed. */
function numbers(limit = Infinity): {
  stream: () => EmitStream;
  pulled: number;
  closed: boolean;
} {
  const probe = {
    pulled: 0,
    closed: false,
    stream: function* (): Generator<Emit> {
      try {
        for (let n = 0; n < limit; n++) {
          probe.pulled++;
          yield { payload: n };
        }
      } finally {
        probe.closed = true;
      }
    },
  };
  return probe;
}

const nodes = (config: Record<string, unknown> = {}) => [
  { nodeId: 'src', type: 'SRC' },
  { nodeId: 'gen', type: 'GEN', config },
  { nodeId: 'end', type: 'END' },
];

/** One message into a node whose answer is `probe`'s numbers, into a child that counts them. */
function numbersRun(probe: ReturnType<typeof numbers>) {
  const sink = counter();
  const h = harness(
    { SRC: source(['go']), GEN: processor(() => probe.stream()), END: sink.type },
    nodes(),
    chain('src', 'gen', 'end'),
  );
  h.run.start();
  return { h, sink };
}

describe('WorkflowRun: emits made lazily (plugin API EmitStream)', () => {
  it('pulls the next emit only when the child has room: never ahead of the edge capacity', async () => {
    const probe = numbers();
    const h = harness(
      { SRC: source(['go']), GEN: processor(() => probe.stream()), END: hang },
      nodes(),
      chain('src', 'gen', 'end'),
      { capacity: 4 },
    );
    h.run.start();
    await waitFor(() => probe.pulled > 0, 'the first pull');
    await tick(50);
    // One taken by the child, four in the channel, one waiting to be sent.
    expect(probe.pulled).toBeLessThanOrEqual(1 + 4 + 1);
    h.run.stop();
    await expect(h.run.done).resolves.toMatchObject({ status: 'STOPPED' });
    await waitFor(() => probe.closed, 'the stream closed');
  });

  it('stops pulling once the run is stopped, and closes the stream', async () => {
    const probe = numbers();
    const { h, sink } = numbersRun(probe);
    // The stream never has to wait, yet timers still get their turn while it runs.
    let fired = false;
    setTimeout(() => (fired = true), 20);
    await waitUntil(() => fired, 'a timer while the stream runs');
    expect(probe.pulled).toBeGreaterThan(0);
    h.run.stop();
    await expect(h.run.done).resolves.toMatchObject({ status: 'STOPPED' });
    expect(h.node('gen').status).toBe('STOPPED');
    // The node ended at once; its task closes the stream at its next step.
    await waitFor(() => probe.closed, 'the stream closed');
    const pulled = probe.pulled;
    await tick(20);
    expect(probe.pulled).toBe(pulled);
    expect(sink.seen).toBeLessThanOrEqual(pulled);
  });

  it('pulls nothing while the run is paused, and goes on where it was on resume', async () => {
    const probe = numbers(200_000);
    const { h, sink } = numbersRun(probe);
    await waitFor(() => probe.pulled > 1000, 'a thousand pulls');
    h.run.pause();
    await tick(5);
    const pulled = probe.pulled;
    await tick(50);
    expect(probe.pulled).toBe(pulled);
    expect(pulled).toBeLessThan(200_000);
    expect(h.node('gen').status).toBe('PAUSED');
    h.run.resume();
    await expect(h.run.done).resolves.toMatchObject({ status: 'COMPLETED' });
    expect(sink.seen).toBe(200_000);
  });

  it('gives each emit the id and headers an array would have had, sync or async', async () => {
    const emits: Emit[] = [
      { payload: 'a', headers: { index: 0 } },
      { payload: 'b', port: 'out' },
      { payload: 'c', headers: { index: 2 } },
    ];
    async function* later(): AsyncGenerator<Emit> {
      for (const emit of emits) yield await Promise.resolve(emit);
    }
    const shapes: Record<string, () => ProcessResult> = {
      array: () => emits,
      sync: () => emits.values(),
      async: () => later(),
    };
    const seen: Record<string, unknown> = {};
    for (const [shape, result] of Object.entries(shapes)) {
      const h = harness(
        { SRC: source(['go']), GEN: processor(result), END: processor(() => undefined) },
        [
          { nodeId: 'src', type: 'SRC' },
          { nodeId: 'gen', type: 'GEN' },
          { nodeId: 'end', type: 'SINK' },
        ],
        chain('src', 'gen', 'end'),
      );
      h.run.start();
      await expect(h.run.done).resolves.toMatchObject({ status: 'COMPLETED' });
      seen[shape] = h.results
        .get('end')
        ?.map(({ id, payload, headers }) => ({ id, payload, headers }));
    }
    expect(seen.sync).toEqual(seen.array);
    expect(seen.async).toEqual(seen.array);
    const ids = (seen.array as { id: string }[]).map(({ id }) => id);
    expect(new Set(ids).size).toBe(3);
  });

  it('fails the node like a throw of process when the stream throws (onError FAIL)', async () => {
    function* failing(): Generator<Emit> {
      yield { payload: 1 };
      throw StepFailure.nonRetryable('bad item');
    }
    const sink = counter();
    const h = harness(
      { SRC: source(['go']), GEN: processor(() => failing()), END: sink.type },
      nodes(),
      chain('src', 'gen', 'end'),
    );
    h.run.start();
    await h.run.done;
    expect(h.node('gen')).toMatchObject({ status: 'FAILURE', error: 'bad item', retries: 0 });
  });

  it('retries a message whose stream failed part-way: the retry emits again from the first item, same ids', async () => {
    let calls = 0;
    async function* flaky(attempt: number): AsyncGenerator<Emit> {
      yield await Promise.resolve({ payload: 'first' });
      if (attempt === 1) throw new Error('flaky');
      yield { payload: 'second' };
    }
    const h = harness(
      {
        SRC: source(['go']),
        GEN: processor((message) => {
          calls++;
          return flaky(message.headers.attempt);
        }),
      },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'gen', type: 'GEN', config: { engine: { retry: { maxAttempts: 2 } } } },
        { nodeId: 'end', type: 'SINK' },
      ],
      chain('src', 'gen', 'end'),
    );
    h.run.start();
    await expect(h.run.done).resolves.toMatchObject({ status: 'COMPLETED' });
    expect(calls).toBe(2);
    expect(h.node('gen').retries).toBe(1);
    const received = h.results.get('end') ?? [];
    expect(received.map((message) => message.payload)).toEqual(['first', 'first', 'second']);
    expect(received[0]?.id).toBe(received[1]?.id);
  });

  it('with onError ERROR_PORT emits the error after what went out, under the next index', async () => {
    function* failing(): Generator<Emit> {
      yield { payload: 1 };
      yield { payload: 2 };
      throw StepFailure.nonRetryable('third failed');
    }
    const h = harness(
      { SRC: source(['go']), GEN: processor(() => failing()) },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'gen', type: 'GEN', config: { onError: 'ERROR_PORT' } },
        { nodeId: 'end', type: 'SINK' },
      ],
      chain('src', 'gen', 'end'),
    );
    h.run.start();
    await expect(h.run.done).resolves.toMatchObject({ status: 'COMPLETED' });
    const received = h.results.get('end') ?? [];
    expect(received.map((message) => message.payload)).toEqual([
      1,
      2,
      expect.objectContaining({ error: 'third failed' }),
    ]);
    const input = h.results.get('end')?.[0]?.id.split('.').slice(0, -1).join('.') ?? '';
    expect(received.map((message) => message.id)).toEqual(
      [0, 1, 2].map((index) => childMessageId(input, '1', index)),
    );
  });

  it('ends a stream that waits too long for its next emit with the element timeout, as a failed attempt', async () => {
    async function* stalls(): AsyncGenerator<Emit> {
      yield { payload: 'first' };
      await new Promise(() => undefined);
    }
    const h = harness(
      { SRC: source(['go']), GEN: processor(() => stalls()) },
      [
        { nodeId: 'src', type: 'SRC' },
        { nodeId: 'gen', type: 'GEN', config: { engine: { elementTimeoutMs: 20 } } },
        { nodeId: 'end', type: 'SINK' },
      ],
      chain('src', 'gen', 'end'),
    );
    h.run.start();
    await h.run.done;
    expect(h.node('gen')).toMatchObject({ status: 'FAILURE' });
    expect(h.node('gen').error).toContain('longer than 20 ms');
    expect(h.payloads('end')).toEqual(['first']);
  });
});
