import { describe, expect, it } from 'vitest';
import { message, processAll } from '../../testing/index.js';
import { filterPlugin } from './filter.js';

function runtimeOf(expression: string) {
  return filterPlugin.create!(filterPlugin.configSchema.parse({ expression }), {
    nodeId: 'n',
    settings: undefined,
  });
}

describe('FILTER', () => {
  it('sends a message whose predicate is true to out, payload unchanged (CONTRACT 2: FILTER)', async () => {
    const payload = { n: 5 };
    const emits = await processAll(runtimeOf('n > 3'), [message(payload)]);
    expect(emits).toEqual([{ payload, port: 'out' }]);
    expect(emits[0]?.payload).toBe(payload);
  });

  it('sends a message whose predicate is false to rejected (CONTRACT 2: FILTER)', async () => {
    expect(await processAll(runtimeOf('n > 3'), [message({ n: 1 })])).toEqual([
      { payload: { n: 1 }, port: 'rejected' },
    ]);
  });

  it('reads JSONata truthiness: a missing field or an empty sequence is false', async () => {
    const emits = await processAll(runtimeOf('tags'), [
      message({ tags: ['a'] }),
      message({ tags: [] }),
      message({}),
    ]);
    expect(emits.map((emit) => emit.port)).toEqual(['out', 'rejected', 'rejected']);
  });

  it('gives the expression the whole message as $message', async () => {
    const emits = await processAll(runtimeOf('$message.headers.attempt = 1'), [message({})]);
    expect(emits).toEqual([{ payload: {}, port: 'out' }]);
  });

  it('fails a message whose expression cannot be evaluated, without retry', async () => {
    const failing = processAll(runtimeOf('$number(n) > 1'), [message({ n: 'abc' })]);
    await expect(failing).rejects.toThrow(/^Expression '\$number\(n\) > 1' failed/);
    await expect(failing).rejects.toHaveProperty('retryable', false);
  });
});
