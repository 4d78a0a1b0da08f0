// A plugin failure that says whether a retry can help (Temporal's ApplicationFailure).

/**
 * A plugin failure that says whether a retry can help (retries repeat per message). Bad
 * input is never retried: fail it with `nonRetryable`. Any other thrown error counts as a
 * retryable failure.
 */
export class StepFailure extends Error {
  readonly retryable: boolean;

  private constructor(message: string, retryable: boolean, cause: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'StepFailure';
    this.retryable = retryable;
  }

  static retryable(message: string, cause?: unknown): StepFailure {
    return new StepFailure(message, true, cause);
  }

  static nonRetryable(message: string, cause?: unknown): StepFailure {
    return new StepFailure(message, false, cause);
  }
}
