// How long the server takes to answer its health check while something heavy runs: the
// measure of a server that keeps answering (docs/containment.md).
import type { TestServer } from './server.js';

export interface HealthLatency {
  readonly calls: number;
  /** The time of the answer that 90% of the answers were at least as fast as, in ms. */
  readonly p90Ms: number;
  readonly slowestMs: number;
}

/**
 * Calls `/actuator/health` one after another until `until` settles. The 90th percentile is
 * what to hold to a bound: on a shared machine the scheduler alone delays the odd answer of
 * an idle server by a hundred milliseconds or more, whereas a frozen event loop delays every
 * answer by seconds.
 */
export async function healthLatencyDuring(
  server: Pick<TestServer, 'call'>,
  until: Promise<unknown>,
): Promise<HealthLatency> {
  let done = false;
  const settled = until.then(
    () => (done = true),
    () => (done = true),
  );
  const times: number[] = [];
  while (!done) {
    const started = performance.now();
    const answer = await server.call('GET', '/actuator/health');
    if (answer.status !== 200) throw new Error(`health answered ${answer.status}`);
    times.push(performance.now() - started);
  }
  await settled;
  times.sort((a, b) => a - b);
  return {
    calls: times.length,
    p90Ms: times[Math.floor(times.length * 0.9)] ?? 0,
    slowestMs: times.at(-1) ?? 0,
  };
}
