import { describe, expect, it } from 'vitest';
import type { Emit, NodeContext, StreamNode } from '../../../plugin-api/index.js';
import { createTestContext, processAll } from '../../testing/index.js';
import { cronPlugin } from './cron.js';

const START = Date.parse('2026-01-01T00:00:30.000Z');

function runtimeOf(config: unknown): StreamNode {
  return cronPlugin.create!(cronPlugin.configSchema.parse(config), {
    nodeId: 'n',
    settings: undefined,
  }) as StreamNode;
}

/** The node's output, pulled one tick at a time as the engine does. */
function ticksOf(config: unknown, ctx: NodeContext): AsyncIterator<Emit> {
  const output = runtimeOf(config).run(noInput(), ctx) as AsyncIterable<Emit>;
  return output[Symbol.asyncIterator]();
}

async function* noInput() {}

describe('CRON', () => {
  it('emits on each tick with firedAt and ends after maxRuns (CONTRACT 2: CRON)', async () => {
    const ctx = createTestContext({ now: START });
    const emits = await processAll(runtimeOf({ schedule: '* * * * *', maxRuns: 3 }), [], ctx);
    expect(emits).toEqual([
      { payload: {}, headers: { firedAt: '2026-01-01T00:01:00.000Z' } },
      { payload: {}, headers: { firedAt: '2026-01-01T00:02:00.000Z' } },
      { payload: {}, headers: { firedAt: '2026-01-01T00:03:00.000Z' } },
    ]);
    expect(ctx.sleeps).toEqual([30_000, 60_000, 60_000]);
  });

  it('emits the configured payload on each tick, with seconds when the schedule has six fields', async () => {
    const ctx = createTestContext({ now: START });
    const config = { schedule: '*/10 * * * * *', payload: { ping: true }, maxRuns: 2 };
    const emits = await processAll(runtimeOf(config), [], ctx);
    expect(emits).toEqual([
      { payload: { ping: true }, headers: { firedAt: '2026-01-01T00:00:40.000Z' } },
      { payload: { ping: true }, headers: { firedAt: '2026-01-01T00:00:50.000Z' } },
    ]);
  });

  it('reads the schedule in UTC', async () => {
    const ctx = createTestContext({ now: START });
    const emits = await processAll(runtimeOf({ schedule: '0 9 * * *', maxRuns: 1 }), [], ctx);
    expect(emits[0]?.headers).toEqual({ firedAt: '2026-01-01T09:00:00.000Z' });
  });

  it('skips the ticks that passed while its children were busy, instead of catching up', async () => {
    const ctx = createTestContext({ now: START });
    const ticks = ticksOf({ schedule: '* * * * *' }, ctx);
    expect((await ticks.next()).value).toMatchObject({
      headers: { firedAt: '2026-01-01T00:01:00.000Z' },
    });
    await ctx.advance(150_000);
    expect((await ticks.next()).value).toMatchObject({
      headers: { firedAt: '2026-01-01T00:04:00.000Z' },
    });
    await ticks.return?.();
  });

  it('ends when the schedule has no further tick', async () => {
    const emits = await processAll(runtimeOf({ schedule: '0 0 0 1 1 * 2020' }), []);
    expect(emits).toEqual([]);
  });

  it('waits on the run clock and ends quietly when the run ends without maxRuns (CONTRACT 1: CRON)', async () => {
    const ctx = createTestContext({ now: START, instantSleep: false });
    const ticks = ticksOf({ schedule: '* * * * *' }, ctx);
    const first = ticks.next();
    await ctx.advance(29_999);
    expect(await Promise.race([first, Promise.resolve('waiting')])).toBe('waiting');
    await ctx.advance(1);
    expect((await first).value).toMatchObject({ headers: { firedAt: '2026-01-01T00:01:00.000Z' } });
    const second = ticks.next();
    ctx.abort();
    expect(await second).toEqual({ done: true, value: undefined });
  });

  it('ends at once, emitting nothing, when the run has already ended', async () => {
    const ctx = createTestContext({ now: START });
    ctx.abort();
    expect(await processAll(runtimeOf({ schedule: '* * * * *' }), [], ctx)).toEqual([]);
  });
});
