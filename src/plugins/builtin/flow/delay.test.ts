import { describe, expect, it } from 'vitest';
import { createTestContext, message, processAll } from '../../testing/index.js';
import { delayPlugin } from './delay.js';

const runtime = delayPlugin.create!(delayPlugin.configSchema.parse({ delayMs: 1000 }), {
  nodeId: 'n',
  settings: undefined,
});

describe('DELAY', () => {
  it('passes each message on unchanged once delayMs has passed on the run clock (CONTRACT 2: DELAY)', async () => {
    const ctx = createTestContext({ instantSleep: false });
    const payload = { n: 1 };
    const passed = processAll(runtime, [message(payload)], ctx);
    await ctx.advance(999);
    expect(await Promise.race([passed, Promise.resolve('waiting')])).toBe('waiting');
    await ctx.advance(1);
    expect(await passed).toEqual([{ payload }]);
    expect(ctx.sleeps).toEqual([1000]);
  });

  it('holds the messages one after another, in order', async () => {
    const ctx = createTestContext();
    const start = ctx.now();
    const emits = await processAll(runtime, [message(1), message(2)], ctx);
    expect(emits).toEqual([{ payload: 1 }, { payload: 2 }]);
    expect(ctx.now() - start).toBe(2000);
  });

  it('stops waiting when the run ends', async () => {
    const ctx = createTestContext({ instantSleep: false });
    const waiting = processAll(runtime, [message(1)], ctx);
    ctx.abort(new Error('stopped'));
    await expect(waiting).rejects.toThrow('stopped');
  });
});
