import { describe, expect, it } from 'vitest';
import { message, processAll } from '../../testing/index.js';
import { contentFilterPlugin } from './content-filter.js';

function runtimeOf(config: unknown) {
  return contentFilterPlugin.create!(contentFilterPlugin.configSchema.parse(config), {
    nodeId: 'n',
    settings: undefined,
  });
}

async function filtered(config: unknown, payload: unknown): Promise<unknown> {
  const emits = await processAll(runtimeOf(config), [message(payload)]);
  expect(emits).toHaveLength(1);
  return emits[0]?.payload;
}

describe('CONTENT_FILTER', () => {
  it('keeps only the listed top-level fields, leaving out missing ones', async () => {
    const payload = { id: 1, name: 'a', secret: 'x', nested: { deep: true } };
    expect(await filtered({ fields: ['id', 'nested', 'absent'] }, payload)).toEqual({
      id: 1,
      nested: { deep: true },
    });
  });

  it('keeps nested fields named by dotted paths', async () => {
    const payload = { user: { name: 'a', email: 'e', address: { city: 'c', zip: 'z' } }, x: 1 };
    const config = { fields: ['user.name', 'user.address.city'] };
    expect(await filtered(config, payload)).toEqual({
      user: { name: 'a', address: { city: 'c' } },
    });
  });

  it('keeps a field whole when it is also listed whole', async () => {
    const payload = { user: { name: 'a', email: 'e' } };
    expect(await filtered({ fields: ['user.name', 'user'] }, payload)).toEqual(payload);
  });

  it('does not reach into arrays or other values that are not objects', async () => {
    const payload = { items: [{ id: 1 }], count: 3 };
    expect(await filtered({ fields: ['items.id', 'count.value'] }, payload)).toEqual({});
  });

  it('keeps a field named __proto__ as a plain field', async () => {
    const payload: unknown = JSON.parse('{ "__proto__": { "polluted": true }, "a": 1 }');
    const result = await filtered({ fields: ['__proto__'] }, payload);
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.hasOwn(result as object, '__proto__')).toBe(true);
  });

  it('fails a payload that is not an object, without retry, when fields are listed', async () => {
    for (const [payload, kind] of [
      [[1], 'an array'],
      ['text', 'a string'],
      [null, 'null'],
    ] as const) {
      const failing = processAll(runtimeOf({ fields: ['a'] }), [message(payload)]);
      await expect(failing).rejects.toThrow(
        `CONTENT_FILTER fields need an object payload, got ${kind}`,
      );
      await expect(failing).rejects.toHaveProperty('retryable', false);
    }
  });

  it("replaces the payload by the expression's value, null when it yields nothing", async () => {
    expect(await filtered({ expression: 'user.name' }, { user: { name: 'a' } })).toBe('a');
    expect(await filtered({ expression: 'missing' }, {})).toBeNull();
  });

  it('applies the expression to the kept fields when both keys are set', async () => {
    const config = { fields: ['a'], expression: '$keys($)' };
    expect(await filtered(config, { a: 1, b: 2 })).toBe('a');
  });
});
