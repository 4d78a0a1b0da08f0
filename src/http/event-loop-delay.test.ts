import { createHistogram } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { delayMsOf } from './event-loop-delay.js';

describe('delayMsOf', () => {
  it('reads a histogram without samples as no delay, not NaN', () => {
    expect(delayMsOf(createHistogram())).toEqual({ min: 0, max: 0, mean: 0, p50: 0, p99: 0 });
  });

  it('gives the recorded delays in milliseconds', () => {
    const histogram = createHistogram();
    histogram.record(2_000_000);
    histogram.record(4_000_000);
    const delay = delayMsOf(histogram);
    expect(delay.min).toBeCloseTo(2, 1);
    expect(delay.max).toBeCloseTo(4, 1);
    expect(delay.mean).toBeCloseTo(3, 1);
  });
});
