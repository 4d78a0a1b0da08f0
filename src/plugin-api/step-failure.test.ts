import { describe, expect, it } from 'vitest';
import { StepFailure } from './step-failure.js';

describe('StepFailure', () => {
  it('says whether a retry can help', () => {
    expect(StepFailure.retryable('down').retryable).toBe(true);
    expect(StepFailure.nonRetryable('bad input').retryable).toBe(false);
    expect(StepFailure.nonRetryable('bad input')).toBeInstanceOf(Error);
  });

  it("is recognised when it comes from another copy of the plugin API, as a plugin's may", () => {
    const fromOtherCopy = Object.assign(new Error('bad input'), { retryable: false });
    Object.defineProperty(fromOtherCopy, Symbol.for('workflow-service.step-failure'), {
      value: true,
    });
    expect(fromOtherCopy instanceof StepFailure).toBe(true);
    expect(new Error('other') instanceof StepFailure).toBe(false);
    // What `null instanceof StepFailure` asks, which the compiler does not let a test write.
    expect(StepFailure[Symbol.hasInstance](null)).toBe(false);
  });
});
