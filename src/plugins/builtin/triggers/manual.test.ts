import { describe, expect, it } from 'vitest';
import { processAll } from '../../testing/index.js';
import { manualPlugin } from './manual.js';

describe('MANUAL', () => {
  it('emits one message with an empty object as payload (CONTRACT 1: MANUAL)', async () => {
    const runtime = manualPlugin.create!(manualPlugin.configSchema.parse({}), {
      nodeId: 'n',
      settings: undefined,
    });
    expect(await processAll(runtime, [])).toEqual([{ payload: {} }]);
  });
});
