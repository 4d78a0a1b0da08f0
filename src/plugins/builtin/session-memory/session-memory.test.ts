// SESSION_MEMORY on a server without session memory; its histories are proven through a real
// server in test/session-memory.test.ts.
import { describe, expect, it } from 'vitest';
import { message, processAll, runtimeOf } from '../../testing/index.js';
import { sessionMemoryPlugin } from './session-memory.js';

describe('SESSION_MEMORY', () => {
  it('fails every message without retry where the server gives no session memory', async () => {
    const failing = processAll(runtimeOf(sessionMemoryPlugin, {}), [message(1)]);
    await expect(failing).rejects.toThrow('SESSION_MEMORY needs a server with session memory');
    await expect(failing).rejects.toHaveProperty('retryable', false);
  });
});
