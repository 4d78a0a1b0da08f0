// JSONata at run time: compiled once per node, evaluated per message with the payload as
// input (CONTRACT section 1). An evaluation error is bad input: it is never retried.
import jsonata from 'jsonata';
import { errorText as messageOf } from './error-text.js';
import type { Message } from './message.js';
import { StepFailure } from './step-failure.js';

export interface CompiledExpression {
  readonly text: string;
  /** Evaluates over `input`; `$message` holds the whole message when one is given. */
  evaluate(input: unknown, message?: Message): Promise<unknown>;
}

export function compileExpression(text: string): CompiledExpression {
  let compiled: jsonata.Expression;
  try {
    compiled = jsonata(text);
  } catch (error) {
    // Validation checks the syntax before a workflow is saved; this guards direct use.
    throw StepFailure.nonRetryable(
      `Invalid JSONata expression '${text}': ${messageOf(error)}`,
      error,
    );
  }
  return {
    text,
    async evaluate(input, message) {
      try {
        const bindings = message === undefined ? undefined : { message };
        return plain(await compiled.evaluate(input, bindings));
      } catch (error) {
        throw StepFailure.nonRetryable(`Expression '${text}' failed: ${messageOf(error)}`, error);
      }
    },
  };
}

/** JSONata's truthiness for predicates: an empty sequence or undefined is false. */
export function isTruthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0 && value.some(isTruthy);
  return Boolean(value);
}

/** JSONata marks result arrays as sequences; payloads are plain JSON values. */
function plain(value: unknown): unknown {
  return Array.isArray(value) ? Array.from(value as unknown[]) : value;
}
