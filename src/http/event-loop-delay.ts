// The event loop's delay as `/actuator/threaddump` shows it.
import type { Histogram } from 'node:perf_hooks';

/**
 * The event loop's delay in milliseconds. A histogram with no sample yet (the first 20 ms of the
 * server) has no mean (NaN) and a huge minimum: it reads as no delay, not as a broken answer.
 */
export function delayMsOf(
  delay: Histogram,
): Record<'min' | 'max' | 'mean' | 'p50' | 'p99', number> {
  if (delay.count === 0) return { min: 0, max: 0, mean: 0, p50: 0, p99: 0 };
  return {
    min: delay.min / 1e6,
    max: delay.max / 1e6,
    mean: delay.mean / 1e6,
    p50: delay.percentile(50) / 1e6,
    p99: delay.percentile(99) / 1e6,
  };
}
