import { describe, expect, it } from 'vitest';
import { turnOffPretenuring } from './garbage-collector.js';

describe('turnOffPretenuring', () => {
  it('turns pretenuring off when the process was started without a word about it', () => {
    expect(turnOffPretenuring([])).toBe(true);
    expect(turnOffPretenuring(['--expose-gc', '--max-old-space-size=512'])).toBe(true);
  });

  it("leaves the operator's own choice, in any of V8's spellings", () => {
    for (const flag of [
      '--allocation-site-pretenuring',
      '--no-allocation-site-pretenuring',
      '--allocation_site_pretenuring',
      '--allocation-site-pretenuring=true',
    ]) {
      expect(turnOffPretenuring(['--expose-gc', flag]), flag).toBe(false);
    }
  });
});
