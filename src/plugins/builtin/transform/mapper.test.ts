import { afterEach, describe, expect, it } from 'vitest';
import type { Settings } from '../../../config/index.js';
import { createTestContext, message, processAll, setupOf } from '../../testing/index.js';
import { createMapperPlugin } from './mapper.js';
import type { ScriptPool } from './script-pool.js';

function runtimeOf(config: unknown, scripts = false) {
  const plugin = createMapperPlugin({ scripts });
  return plugin.create!(plugin.configSchema.parse(config), setupOf(plugin));
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

  it('ignores the engine settings that share its config', async () => {
    const config = { expression: 'a', timeoutSeconds: 3, onError: 'FAIL', engine: {} };
    expect(await processAll(runtimeOf(config), [message({ a: 1 })])).toEqual([{ payload: 1 }]);
  });
});

describe('MAPPER mode SCRIPT (script-js)', () => {
  const pools: ScriptPool[] = [];

  afterEach(async () => {
    await Promise.all(pools.splice(0).map((pool) => pool.close()));
  });

  function scripted(script: string, limits: Partial<Settings> = {}) {
    const plugin = createMapperPlugin({ scripts: true });
    const setup = setupOf(plugin, limits);
    pools.push(setup.settings.pool);
    return plugin.create!(plugin.configSchema.parse({ mode: 'SCRIPT', script }), setup);
  }

  it('runs the script as the body of function (payload, message) and emits what it returns', async () => {
    const runtime = scripted(
      'const total = payload.items.reduce((sum, item) => sum + item.price, 0);\n' +
        'return { total, id: message.id, attempt: message.headers.attempt };',
    );
    const input = message({ items: [{ price: 2 }, { price: 3 }] });
    expect(await processAll(runtime, [input])).toEqual([
      { payload: { total: 5, id: input.id, attempt: 1 } },
    ]);
  });

  it('makes the payload null when the script returns nothing, and writes console lines to the node log', async () => {
    const ctx = createTestContext();
    const runtime = scripted('console.log("seen", payload); console.warn("careful");');
    expect(await processAll(runtime, [message({ a: 1 })], ctx)).toEqual([{ payload: null }]);
    expect(ctx.logs).toEqual([
      { level: 'info', message: 'seen {"a":1}', fields: undefined },
      { level: 'warn', message: 'careful', fields: undefined },
    ]);
  });

  it('keeps state between the messages of a run, in its own sandbox without the server in reach', async () => {
    const runtime = scripted(
      'globalThis.count = (globalThis.count || 0) + 1;\n' +
        'return [globalThis.count, typeof process, typeof require, typeof fetch];',
    );
    const emitted = await processAll(runtime, [message(1), message(2)]);
    expect(emitted.map((emit) => emit.payload)).toEqual([
      [1, 'undefined', 'undefined', 'undefined'],
      [2, 'undefined', 'undefined', 'undefined'],
    ]);
  });

  it('fails a message whose script throws, without retry', async () => {
    const failing = processAll(scripted('throw new TypeError("bad input " + payload)'), [
      message(7),
    ]);
    await expect(failing).rejects.toThrow('Script failed: TypeError: bad input 7');
    await expect(failing).rejects.toHaveProperty('retryable', false);
  });

  it('stops a script over svc.script.timeout-ms, and one over svc.script.max-statements (SPEC Workflow-author safeguards)', async () => {
    const started = Date.now();
    // A statement limit out of reach: a fast machine runs the default 50 million in 200 ms.
    const endless = processAll(
      scripted('for (;;) {}', {
        'svc.script.timeout-ms': 200,
        'svc.script.max-statements': Number.MAX_SAFE_INTEGER,
      }),
      [message(1)],
    );
    await expect(endless).rejects.toThrow('Script ran longer than svc.script.timeout-ms (200 ms)');
    await expect(endless).rejects.toHaveProperty('retryable', false);
    expect(Date.now() - started).toBeLessThan(5000);
    const counted = processAll(
      scripted('let n = 0; for (let i = 0; i < 1e7; i++) n++; return n;', {
        'svc.script.max-statements': 100_000,
      }),
      [message(1)],
    );
    await expect(counted).rejects.toThrow(
      'Script ran more than svc.script.max-statements (100000) statements',
    );
    // Within the limits the same loop finishes.
    const finished = await processAll(
      scripted('let n = 0; for (let i = 0; i < 1e5; i++) n++; return n;'),
      [message(1)],
    );
    expect(finished).toEqual([{ payload: 100_000 }]);
  });

  it('refuses a script with a syntax error when the workflow is validated', () => {
    const plugin = createMapperPlugin({ scripts: true });
    const parsed = plugin.configSchema.safeParse({ mode: 'SCRIPT', script: 'return {' });
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toContain('Invalid script');
  });
});
