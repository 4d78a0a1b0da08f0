// Bounded polling for what a test observes through the public surface.

/** Reads until `check` holds; fails after `timeoutMs` with the last value read. */
export async function eventually<T>(
  read: () => Promise<T>,
  check: (value: T) => boolean,
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
