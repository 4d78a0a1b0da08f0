import { DEFAULT_SAFEGUARDS } from '../../../plugin-api/index.js';
import { describe, expect, it } from 'vitest';
import { message, processAll } from '../../testing/fake-context.js';
import { SCRIPT_NOT_RUNNABLE, createMapperPlugin } from './mapper.js';

function runtimeOf(config: unknown, scripts = false) {
  const plugin = createMapperPlugin({ scripts });
  return plugin.create!(plugin.configSchema.parse(config), {
    nodeId: 'n',
    safeguards: DEFAULT_SAFEGUARDS,
  });
}

describe('MAPPER', () => {
  it("replaces the payload by the projection's value in mode PROJECTION (CONTRACT 2: MAPPER)", async () => {
    const runtime = runtimeOf({ mode: 'PROJECTION', expression: '{ "total": $sum(items.price) }' });
    expect(await processAll(runtime, [message({ items: [{ price: 2 }, { price: 3 }] })])).toEqual([
      { payload: { total: 5 } },
    ]);
  });

  it('projects by default, and gives the expression the whole message as $message', async () => {
    const input = message({ a: 1 });
    expect(await processAll(runtimeOf({ expression: '$message.id' }), [input])).toEqual([
      { payload: input.id },
    ]);
  });

  it('makes the payload null when the projection yields nothing', async () => {
    expect(await processAll(runtimeOf({ expression: 'missing' }), [message({})])).toEqual([
      { payload: null },
    ]);
  });

  it('fails a message whose projection cannot be evaluated, without retry', async () => {
    const failing = processAll(runtimeOf({ expression: '$number(a)' }), [message({ a: 'x' })]);
    await expect(failing).rejects.toThrow(/^Expression '\$number\(a\)' failed/);
    await expect(failing).rejects.toHaveProperty('retryable', false);
  });

  it('replaces the payload by the rendered template in mode TEMPLATE, unescaped (CONTRACT 1: templates)', async () => {
    const runtime = runtimeOf({ mode: 'TEMPLATE', template: 'Hi {{name}}: {{{note}}} {{note}}' });
    expect(await processAll(runtime, [message({ name: 'Ann & Bo', note: '<b>' })])).toEqual([
      { payload: 'Hi Ann & Bo: <b> <b>' },
    ]);
  });

  it('renders a missing field as empty text', async () => {
    const runtime = runtimeOf({ mode: 'TEMPLATE', template: '[{{user.name}}]' });
    expect(await processAll(runtime, [message({})])).toEqual([{ payload: '[]' }]);
  });

  it('fails a message whose template cannot be rendered, without retry', async () => {
    const runtime = runtimeOf({ mode: 'TEMPLATE', template: '{{shout name}}' });
    const failing = processAll(runtime, [message({ name: 'x' })]);
    await expect(failing).rejects.toThrow('Template failed: Missing helper: "shout"');
    await expect(failing).rejects.toHaveProperty('retryable', false);
  });

  it('cannot run mode SCRIPT, even in a build that accepts it', () => {
    expect(() => runtimeOf({ mode: 'SCRIPT', script: 'return 1' }, true)).toThrow(
      SCRIPT_NOT_RUNNABLE,
    );
  });

  it('ignores the engine settings that share its config', async () => {
    const config = { expression: 'a', timeoutSeconds: 3, onError: 'FAIL', engine: {} };
    expect(await processAll(runtimeOf(config), [message({ a: 1 })])).toEqual([{ payload: 1 }]);
  });
});
