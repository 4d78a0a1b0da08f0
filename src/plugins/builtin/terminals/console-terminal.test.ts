import { describe, expect, it } from 'vitest';
import { createTestContext, message, processAll } from '../../testing/index.js';
import { consoleTerminalPlugin } from './console-terminal.js';

describe('CONSOLE_TERMINAL', () => {
  it('logs each message at info with its id and payload, and passes it on unchanged on out (CONTRACT 1: CONSOLE_TERMINAL)', async () => {
    const runtime = consoleTerminalPlugin.create!(consoleTerminalPlugin.configSchema.parse({}), {
      nodeId: 'n',
      settings: undefined,
    });
    const ctx = createTestContext();
    const payload = { total: 3 };
    const input = message(payload);
    const emits = await processAll(runtime, [input], ctx);
    expect(emits).toEqual([{ payload }]);
    expect(emits[0]?.payload).toBe(payload);
    expect(ctx.logs).toEqual([
      { level: 'info', message: 'message', fields: { messageId: input.id, payload } },
    ]);
  });
});
