// A plugin failure that says whether a retry can help (Temporal's ApplicationFailure).

/**
 * The mark of a StepFailure, shared by every copy of the plugin API: a plugin that bundles a
 * copy of its own (or is loaded by a module runner that makes one) still fails the way it
 * says, since `instanceof` checks the mark rather than the class.
 */
const STEP_FAILURE = Symbol.for('workflow-service.step-failure');

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
    Object.defineProperty(this, STEP_FAILURE, { value: true });
  }

  static override [Symbol.hasInstance](value: unknown): value is StepFailure {
    return typeof value === 'object' && value !== null && STEP_FAILURE in value;
  }

  static retryable(message: string, cause?: unknown): StepFailure {
    return new StepFailure(message, true, cause);
  }

  static nonRetryable(message: string, cause?: unknown): StepFailure {
    return new StepFailure(message, false, cause);
  }
}
