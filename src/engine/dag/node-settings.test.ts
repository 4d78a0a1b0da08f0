import { describe, expect, it } from 'vitest';
import { NO_WORKERS_MESSAGE, parseNodeSettings } from './node-settings.js';

const workers = { workers: true };

function errorsOf(config: Record<string, unknown>, options = workers) {
  const result = parseNodeSettings(config, options);
  return result.ok ? [] : result.errors;
}

describe('parseNodeSettings', () => {
  it('applies the defaults of CONTRACT section 2 to an empty configuration', () => {
    expect(parseNodeSettings({}, workers)).toEqual({
      ok: true,
      value: { onError: 'FAIL', retry: { maxAttempts: 1, backoffMs: 0 }, trigger: 'ALL_SUCCESS' },
    });
  });

  it('reads every engine setting CONTRACT section 2 places inside config', () => {
    const config = {
      expression: 'plugin keys are left to the plugin',
      timeoutSeconds: 2.5,
      onError: 'ERROR_PORT',
      engine: {
        deadlineMs: 60_000,
        elementTimeoutMs: 500,
        retry: { maxAttempts: 10, backoffMs: 0 },
        edgeBuffer: { size: 100_000, overflow: 'DROP_NEWEST' },
        trigger: 'ONE_SUCCESS',
        placement: 'gpu',
      },
    };
    expect(parseNodeSettings(config, workers)).toEqual({
      ok: true,
      value: {
        timeoutSeconds: 2.5,
        onError: 'ERROR_PORT',
        deadlineMs: 60_000,
        elementTimeoutMs: 500,
        retry: { maxAttempts: 10, backoffMs: 0 },
        edgeBuffer: { size: 100_000, overflow: 'DROP_NEWEST' },
        trigger: 'ONE_SUCCESS',
        placement: 'gpu',
      },
    });
  });

  it('drops the oldest message of a full edge buffer unless told otherwise (CONTRACT section 2)', () => {
    const result = parseNodeSettings({ engine: { edgeBuffer: { size: 1 } } }, workers);
    expect(result.ok && result.value.edgeBuffer).toEqual({ size: 1, overflow: 'DROP_OLDEST' });
  });

  it.each([
    [{ timeoutSeconds: 0 }, 'config.timeoutSeconds', 'Must be greater than 0'],
    [{ onError: 'IGNORE' }, 'config.onError', 'Must be one of FAIL, SKIP, ERROR_PORT, DEAD_LETTER'],
    [
      { engine: { deadlineMs: 1.5 } },
      'config.engine.deadlineMs',
      'Expected an integer, got a number',
    ],
    [
      { engine: { elementTimeoutMs: 0 } },
      'config.engine.elementTimeoutMs',
      'Must be greater than 0',
    ],
    [
      { engine: { retry: { maxAttempts: 0 } } },
      'config.engine.retry.maxAttempts',
      'Must be at least 1',
    ],
    [
      { engine: { retry: { maxAttempts: 11 } } },
      'config.engine.retry.maxAttempts',
      'Must be at most 10',
    ],
    [
      { engine: { retry: { backoffMs: -1 } } },
      'config.engine.retry.backoffMs',
      'Must be at least 0',
    ],
    [
      { engine: { edgeBuffer: { size: 0 } } },
      'config.engine.edgeBuffer.size',
      'Must be at least 1',
    ],
    [
      { engine: { edgeBuffer: { size: 100_001 } } },
      'config.engine.edgeBuffer.size',
      'Must be at most 100000',
    ],
    [
      { engine: { edgeBuffer: {} } },
      'config.engine.edgeBuffer.size',
      "Missing required key 'size'",
    ],
    [
      { engine: { edgeBuffer: { size: 5, overflow: 'BLOCK' } } },
      'config.engine.edgeBuffer.overflow',
      'Must be one of DROP_OLDEST, DROP_NEWEST',
    ],
    [
      { engine: { trigger: 'ANY' } },
      'config.engine.trigger',
      'Must be one of ALL_SUCCESS, ALL_DONE, ONE_SUCCESS',
    ],
    [{ engine: { placement: '' } }, 'config.engine.placement', 'Must not be empty'],
    [{ engine: 'fast' }, 'config.engine', 'Expected an object, got a string'],
  ])('refuses %j (SPEC Node-level engine settings)', (config, field, message) => {
    expect(errorsOf(config)).toEqual([{ field, message }]);
  });

  it('refuses an unknown key under engine, naming it (CONTRACT section 2)', () => {
    expect(errorsOf({ engine: { retries: 3, retry: { max: 2 } } })).toEqual([
      { field: 'config.engine.retry.max', message: "Unknown key 'max'" },
      { field: 'config.engine.retries', message: "Unknown key 'retries'" },
    ]);
  });

  it('leaves unknown keys outside engine to the plugin', () => {
    expect(errorsOf({ anything: { goes: true } })).toEqual([]);
  });

  it('refuses engine.placement when the build has no remote workers (SPEC Node-level engine settings)', () => {
    expect(errorsOf({ engine: { placement: 'gpu' } }, { workers: false })).toEqual([
      { field: 'config.engine.placement', message: NO_WORKERS_MESSAGE },
    ]);
  });
});
