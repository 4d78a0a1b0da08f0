// Bounded polling for what a test observes through the public surface.
import type { HttpAnswer, TestServer } from './server.js';

/**
 * Reads until `check` holds (by default: until the value read is truthy); fails after
 * `timeoutMs` with the last value read.
 */
export async function eventually<T>(
  read: () => Promise<T>,
  check: (value: T) => boolean = Boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await read();
    if (check(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`condition not reached; last value: ${JSON.stringify(last)}`);
}

/** Statuses an execution leaves (CONTRACT section 1: all others are terminal). */
const UNDER_WAY = ['QUEUED', 'RUNNING', 'PAUSED'];

/** Waits for the execution to end; answers its record. */
export async function endOf(
  server: Pick<TestServer, 'call'>,
  executionId: string,
  timeoutMs = 15_000,
): Promise<HttpAnswer['json']> {
  const answer = await eventually(
    () => server.call('GET', `/api/executions/${executionId}`),
    (record) => record.status === 200 && !UNDER_WAY.includes(record.json.data.status),
    timeoutMs,
  );
  return answer.json.data;
}

/** Settles as `value` does unless `timeoutMs` passes first: for what may never happen. */
export async function within<T>(value: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`${what} did not happen within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    return await Promise.race([value, late]);
  } finally {
    clearTimeout(timer);
  }
}
