import { beforeEach, describe, expect, it, vi } from 'vitest';

// V8 has no way to read a flag back: what is checked is the flag handed to it.
const setFlagsFromString = vi.hoisted(() => vi.fn());
vi.mock('node:v8', () => ({ setFlagsFromString }));
const { turnOffPretenuring } = await import('./garbage-collector.js');

describe('turnOffPretenuring', () => {
  beforeEach(() => {
    setFlagsFromString.mockClear();
  });

  it('turns pretenuring off when the process was started without a word about it', () => {
    expect(turnOffPretenuring([])).toBe(true);
    expect(turnOffPretenuring(['--expose-gc', '--max-old-space-size=512'])).toBe(true);
    expect(setFlagsFromString.mock.calls).toEqual([
      ['--no-allocation-site-pretenuring'],
      ['--no-allocation-site-pretenuring'],
    ]);
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
    expect(setFlagsFromString).not.toHaveBeenCalled();
  });
});
