import { describe, expect, it } from 'vitest';
import { isEmitStream } from '../../../plugin-api/index.js';
import type { MessageProcessor } from '../../../plugin-api/index.js';
import { createTestContext, message, processAll } from '../../testing/index.js';
import { splitterPlugin } from './splitter.js';

function runtimeOf(config: unknown): MessageProcessor {
  const runtime = splitterPlugin.create!(splitterPlugin.configSchema.parse(config), {
    nodeId: 'n',
    settings: undefined,
  });
  if ('run' in runtime) throw new Error('SPLITTER is a per-message processor');
  return runtime;
}

describe('SPLITTER', () => {
  it('emits one message per item of an array payload, with index and count headers (CONTRACT 2: SPLITTER)', async () => {
    expect(await processAll(runtimeOf({}), [message(['a', { b: 1 }])])).toEqual([
      { payload: 'a', headers: { index: 0, count: 2 } },
      { payload: { b: 1 }, headers: { index: 1, count: 2 } },
    ]);
  });

  it('splits the array the expression yields (CONTRACT 2: SPLITTER)', async () => {
    const emits = await processAll(runtimeOf({ expression: 'items' }), [
      message({ items: [1, 2, 3], other: true }),
    ]);
    expect(emits.map((emit) => emit.payload)).toEqual([1, 2, 3]);
    expect(emits.map((emit) => emit.headers)).toEqual([
      { index: 0, count: 3 },
      { index: 1, count: 3 },
      { index: 2, count: 3 },
    ]);
  });

  it('emits a value that is not an array as one item', async () => {
    expect(await processAll(runtimeOf({ expression: 'item' }), [message({ item: 'x' })])).toEqual([
      { payload: 'x', headers: { index: 0, count: 1 } },
    ]);
    expect(await processAll(runtimeOf({}), [message(null)])).toEqual([
      { payload: null, headers: { index: 0, count: 1 } },
    ]);
  });

  it('emits nothing for an empty array or when the expression yields nothing', async () => {
    expect(await processAll(runtimeOf({}), [message([])])).toEqual([]);
    expect(await processAll(runtimeOf({ expression: 'missing' }), [message({})])).toEqual([]);
  });

  it('makes the message of each item of a long array only when it is asked for', async () => {
    const items = Array.from({ length: 1_000_000 }, (_, index) => index);
    const result = await runtimeOf({}).process(message(items), createTestContext());
    if (!isEmitStream(result) || !(Symbol.iterator in result)) throw new Error('a stream');
    const iterator = result[Symbol.iterator]();
    expect(iterator.next().value).toEqual({ payload: 0, headers: { index: 0, count: 1_000_000 } });
    expect(iterator.next().value).toEqual({ payload: 1, headers: { index: 1, count: 1_000_000 } });
    iterator.return?.();
  });
});
