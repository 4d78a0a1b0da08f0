// Bounded waits on conditions, for unit tests of every layer: a test waits for what it
// expects to happen, never sleeps and hopes.

/** Lets `times` turns of the event loop pass. */
export async function tick(times = 5): Promise<void> {
  for (let i = 0; i < times; i++) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Waits until `condition` holds, for at most `turns` turns of the event loop: for what code
 * driven by promises alone (no timers, no I/O) does next.
 */
export async function waitFor(condition: () => boolean, what: string, turns = 500): Promise<void> {
  for (let i = 0; i < turns; i++) {
    if (condition()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`Still waiting for ${what} after ${turns} turns of the event loop`);
}

/**
 * Waits until `condition` holds, polling for at most `timeoutMs`: for what real timers, child
 * processes or I/O bring about.
 */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 5_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Still waiting for ${what} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
