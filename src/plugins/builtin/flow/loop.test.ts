import { describe, expect, it } from 'vitest';
import { isEmitStream } from '../../../plugin-api/index.js';
import type { MessageProcessor } from '../../../plugin-api/index.js';
import { createTestContext, message, processAll } from '../../testing/index.js';
import { loopPredicatePlugin, loopStreamPlugin } from './loop.js';

type LoopPlugin = typeof loopPredicatePlugin;

function loop(plugin: LoopPlugin, config: Record<string, unknown>): MessageProcessor {
  const runtime = plugin.create!(plugin.configSchema.parse(config), {
    nodeId: 'n',
    settings: undefined,
  });
  if ('run' in runtime) throw new Error(`${plugin.type} is a per-message processor`);
  return runtime;
}

const countToThree = { condition: 'n < 3', expression: '{"n": n + 1}' };

describe('LOOP_PREDICATE', () => {
  it('applies the expression while the condition holds and emits the final value once, with header iterations', async () => {
    const emits = await processAll(loop(loopPredicatePlugin, countToThree), [message({ n: 0 })]);
    expect(emits).toEqual([{ payload: { n: 3 }, headers: { iterations: 3 } }]);
  });

  it('emits the payload unchanged with iterations 0 when the condition is false at once', async () => {
    const emits = await processAll(loop(loopPredicatePlugin, countToThree), [message({ n: 7 })]);
    expect(emits).toEqual([{ payload: { n: 7 }, headers: { iterations: 0 } }]);
  });

  it('handles each message on its own', async () => {
    const emits = await processAll(loop(loopPredicatePlugin, countToThree), [
      message({ n: 1 }),
      message({ n: 2 }),
    ]);
    expect(emits.map((emit) => emit.headers)).toEqual([{ iterations: 2 }, { iterations: 1 }]);
  });

  it('succeeds when the condition turns false on the last allowed iteration', async () => {
    const node = loop(loopPredicatePlugin, { ...countToThree, maxIterations: 3 });
    const emits = await processAll(node, [message({ n: 0 })]);
    expect(emits).toEqual([{ payload: { n: 3 }, headers: { iterations: 3 } }]);
  });

  it('fails without retry, naming the limit, when maxIterations is reached with the condition still true', async () => {
    const node = loop(loopPredicatePlugin, { ...countToThree, maxIterations: 2 });
    await expect(processAll(node, [message({ n: 0 })])).rejects.toMatchObject({
      name: 'StepFailure',
      retryable: false,
      message: 'LOOP_PREDICATE reached maxIterations (2) with the condition still true',
    });
  });

  it('stops at 100 iterations by default', async () => {
    const node = loop(loopPredicatePlugin, { condition: 'true', expression: '$ + 1' });
    await expect(processAll(node, [message(0)])).rejects.toThrow('maxIterations (100)');
    const emits = await processAll(
      loop(loopPredicatePlugin, { condition: '$ < 100', expression: '$ + 1' }),
      [message(0)],
    );
    expect(emits).toEqual([{ payload: 100, headers: { iterations: 100 } }]);
  });

  it('is a guard without expression: passes a payload whose condition is false, fails one whose condition is true', async () => {
    const node = loop(loopPredicatePlugin, { condition: 'n < 3' });
    expect(await processAll(node, [message({ n: 5 })])).toEqual([
      { payload: { n: 5 }, headers: { iterations: 0 } },
    ]);
    await expect(processAll(node, [message({ n: 1 })])).rejects.toMatchObject({
      retryable: false,
      message: 'LOOP_PREDICATE condition is true and no expression is set to change the payload',
    });
  });

  it('binds $message to the incoming message in condition and expression', async () => {
    const node = loop(loopPredicatePlugin, {
      condition: '$ < $message.headers.limit',
      expression: '$ + $message.payload',
    });
    const emits = await processAll(node, [message(2, { limit: 7 })]);
    expect(emits).toEqual([{ payload: 8, headers: { iterations: 3 } }]);
  });

  it('continues with null when the expression yields nothing', async () => {
    const node = loop(loopPredicatePlugin, { condition: '$exists(n)', expression: 'missing' });
    expect(await processAll(node, [message({ n: 1 })])).toEqual([
      { payload: null, headers: { iterations: 1 } },
    ]);
  });

  it('fails without retry when an expression fails', async () => {
    const node = loop(loopPredicatePlugin, { condition: 'true', expression: '$error("boom")' });
    await expect(processAll(node, [message(1)])).rejects.toMatchObject({ retryable: false });
  });

  it('stops between iterations when the signal aborts', async () => {
    const ctx = createTestContext();
    ctx.abort(new Error('stopped'));
    const node = loop(loopPredicatePlugin, countToThree);
    await expect(processAll(node, [message({ n: 0 })], ctx)).rejects.toThrow('stopped');
  });
});

describe('LOOP_STREAM', () => {
  it('emits the value after each step in order, with header iteration counted from 1', async () => {
    const emits = await processAll(loop(loopStreamPlugin, countToThree), [message({ n: 0 })]);
    expect(emits).toEqual([
      { payload: { n: 1 }, headers: { iteration: 1 } },
      { payload: { n: 2 }, headers: { iteration: 2 } },
      { payload: { n: 3 }, headers: { iteration: 3 } },
    ]);
  });

  it('emits nothing for a message whose condition is false at once', async () => {
    expect(await processAll(loop(loopStreamPlugin, countToThree), [message({ n: 3 })])).toEqual([]);
  });

  it('emits each iteration as it is made, then fails without retry at maxIterations with the condition still true', async () => {
    const node = loop(loopStreamPlugin, { ...countToThree, maxIterations: 2 });
    const emitted: unknown[] = [];
    const pulling = (async () => {
      const result = await node.process(message({ n: 0 }), createTestContext());
      if (!isEmitStream(result)) throw new Error('LOOP_STREAM emits a stream');
      for await (const emit of result) emitted.push(emit.payload);
    })();
    await expect(pulling).rejects.toMatchObject({
      retryable: false,
      message: 'LOOP_STREAM reached maxIterations (2) with the condition still true',
    });
    expect(emitted).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('makes the next iteration only when the one before is asked for', async () => {
    const node = loop(loopStreamPlugin, {
      condition: 'true',
      expression: '$ + 1',
      maxIterations: 1e9,
    });
    const result = await node.process(message(0), createTestContext());
    if (!isEmitStream(result) || !(Symbol.asyncIterator in result)) throw new Error('a stream');
    const iterator = result[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toEqual({ payload: 1, headers: { iteration: 1 } });
    expect((await iterator.next()).value).toEqual({ payload: 2, headers: { iteration: 2 } });
    await iterator.return?.();
  });

  it('fails a payload whose condition is true when no expression is set', async () => {
    const node = loop(loopStreamPlugin, { condition: 'n < 3' });
    await expect(processAll(node, [message({ n: 1 })])).rejects.toMatchObject({
      retryable: false,
    });
    expect(await processAll(node, [message({ n: 3 })])).toEqual([]);
  });
});
