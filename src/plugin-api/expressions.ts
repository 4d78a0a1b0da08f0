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

/**
 * Compiled expressions kept by text: enough for the expressions of many large workflows, and
 * bounded so that odd traffic (drafts validated with ever new texts) cannot grow the heap.
 */
const COMPILED_LIMIT = 2_000;
const compiledByText = new Map<string, jsonata.Expression>();

/**
 * JSONata compiled once per text for the whole server: validation compiles each expression
 * of a workflow when it is saved, and every run of it reuses that. Compiling is most of what a
 * short run of a mapper cost. A compiled expression can be shared: each evaluation binds its
 * input in a frame of its own. Throws JSONata's error for a text that does not compile.
 */
export function compiledJsonata(text: string): jsonata.Expression {
  let compiled = compiledByText.get(text);
  if (compiled === undefined) {
    compiled = jsonata(text);
    // The oldest text goes first; a text still in use is compiled again when next needed.
    if (compiledByText.size >= COMPILED_LIMIT) {
      const oldest = compiledByText.keys().next();
      if (oldest.done !== true) compiledByText.delete(oldest.value);
    }
    compiledByText.set(text, compiled);
  }
  return compiled;
}

export function compileExpression(text: string): CompiledExpression {
  let compiled: jsonata.Expression;
  try {
    compiled = compiledJsonata(text);
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
