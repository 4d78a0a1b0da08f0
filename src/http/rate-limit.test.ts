import { describe, expect, it } from 'vitest';
import { RequestRateLimiter, isRateLimitedPath } from './rate-limit.js';

describe('RequestRateLimiter', () => {
  it('lets a burst up to the limit through, then one request per share of the minute', () => {
    let now = 0;
    const limiter = new RequestRateLimiter({ requestsPerMinute: 3, now: () => now });
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([0, 0, 0]);
    // The bucket refills one request every 20 s.
    expect(limiter.take('a')).toBe(20);
    now += 10_000;
    expect(limiter.take('a')).toBe(10);
    now += 10_000;
    expect(limiter.take('a')).toBe(0);
    expect(limiter.take('a')).toBe(20);
  });

  it('keeps a bucket per caller', () => {
    const limiter = new RequestRateLimiter({ requestsPerMinute: 1, now: () => 0 });
    expect(limiter.take('key:a')).toBe(0);
    expect(limiter.take('key:b')).toBe(0);
    expect(limiter.take('key:a')).toBe(60);
  });

  it('limits the API and the tool endpoint only', () => {
    expect(['/api', '/api/sessions', '/mcp'].map(isRateLimitedPath)).toEqual([true, true, true]);
    expect(['/actuator/health', '/', '/v3/api-docs', '/apix'].map(isRateLimitedPath)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});
