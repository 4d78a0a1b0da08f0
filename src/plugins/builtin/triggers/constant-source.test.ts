import { describe, expect, it } from 'vitest';
import { processAll } from '../../testing/index.js';
import { constantSourcePlugin } from './constant-source.js';

function runtimeOf(config: unknown) {
  return constantSourcePlugin.create!(constantSourcePlugin.configSchema.parse(config), {
    nodeId: 'n',
    settings: undefined,
  });
}

describe('CONSTANT_SOURCE', () => {
  it('emits one message per item of messages, in order (CONTRACT 2: CONSTANT_SOURCE)', async () => {
    const emits = await processAll(runtimeOf({ messages: [{ n: 1 }, 'two', [3], null] }), []);
    expect(emits).toEqual([
      { payload: { n: 1 } },
      { payload: 'two' },
      { payload: [3] },
      { payload: null },
    ]);
  });

  it('emits nothing when messages is absent or empty', async () => {
    expect(await processAll(runtimeOf({}), [])).toEqual([]);
    expect(await processAll(runtimeOf({ messages: [] }), [])).toEqual([]);
  });

  it('ignores the engine settings that share its config', async () => {
    const config = { messages: [1], timeoutSeconds: 5, onError: 'SKIP', engine: { deadlineMs: 9 } };
    expect(await processAll(runtimeOf(config), [])).toEqual([{ payload: 1 }]);
  });
});
