import { describe, expect, it } from 'vitest';
import { isStreamNode } from '../../../plugin-api/index.js';
import { createTestContext, processAll } from '../../testing/index.js';
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

  it('runs every node with one generator function: a run makes no function or prototype of its own', () => {
    const generators = [runtimeOf({ messages: [1] }), runtimeOf({ messages: [2] })].map(
      (runtime) => {
        if (!isStreamNode(runtime)) throw new Error('CONSTANT_SOURCE is a stream node');
        return runtime.run((async function* () {})(), createTestContext());
      },
    );
    // A generator's prototype is its function's: a generator method made per node would give
    // each run a function, a prototype and a map of its own (docs/performance.md).
    expect(Object.getPrototypeOf(generators[0])).toBe(Object.getPrototypeOf(generators[1]));
  });
});
