import { describe, expect, it } from 'vitest';
import { createTestContext, processAll } from '../../testing/index.js';
import { apiTriggerPlugin } from './api-trigger.js';

async function emitsOf(config: unknown, startPayload: unknown) {
  const runtime = apiTriggerPlugin.create!(apiTriggerPlugin.configSchema.parse(config), {
    nodeId: 'n',
    settings: undefined,
  });
  return processAll(runtime, [], createTestContext({ startPayload }));
}

describe('API_TRIGGER', () => {
  it("emits the start request's payload as one message (CONTRACT 1: API_TRIGGER)", async () => {
    expect(await emitsOf({}, { order: 7 })).toEqual([{ payload: { order: 7 } }]);
  });

  it('emits an empty object when the start request has no payload', async () => {
    expect(await emitsOf({}, undefined)).toEqual([{ payload: {} }]);
  });

  it('emits an array payload as one message unless splitArray is true', async () => {
    expect(await emitsOf({}, [1, 2])).toEqual([{ payload: [1, 2] }]);
    expect(await emitsOf({ splitArray: false }, [1, 2])).toEqual([{ payload: [1, 2] }]);
  });

  it('emits one message per item when splitArray is true and the payload is an array (CONTRACT 1: API_TRIGGER)', async () => {
    expect(await emitsOf({ splitArray: true }, [1, { b: 2 }])).toEqual([
      { payload: 1 },
      { payload: { b: 2 } },
    ]);
    expect(await emitsOf({ splitArray: true }, [])).toEqual([]);
  });

  it('emits a payload that is not an array as one message even when splitArray is true', async () => {
    expect(await emitsOf({ splitArray: true }, { a: 1 })).toEqual([{ payload: { a: 1 } }]);
    expect(await emitsOf({ splitArray: true }, undefined)).toEqual([{ payload: {} }]);
  });
});
