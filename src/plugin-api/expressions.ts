// JSONata at run time: compiled once per node, evaluated per message with the payload as
// input (CONTRACT section 1). An evaluation error is bad input: it is never retried.
import jsonata from 'jsonata';
import { errorText as messageOf } from './error-text.js';
import { EvaluationBudget } from './evaluation-budget.js';
import type { EvaluationScope } from './evaluation-budget.js';
import type { Message } from './message.js';
import { StepFailure } from './step-failure.js';

export interface CompiledExpression {
  readonly text: string;
  /**
   * Evaluates over `input`; `$message` holds the whole message when one is given. Pass the
   * node's context as `scope` so that stopping, pausing or timing out the node reaches the
   * evaluation (docs/containment.md).
   */
  evaluate(input: unknown, message?: Message, scope?: EvaluationScope): Promise<unknown>;
}

/**
 * How deep an evaluation may nest: a recursive function may call itself about 5,000 times.
 * Without it a runaway recursion that is not a tail call grows the heap by gigabytes before
 * its time runs out; at the limit it holds about 25 MB.
 */
export const MAX_EVALUATION_DEPTH = 15_000;

/**
 * Where an evaluation's budget is bound. The space keeps it out of reach of expressions:
 * `$ budget` is not a variable name JSONata can read.
 */
const BUDGET = ' budget';
/** JSONata calls the function bound to this symbol before every step of an evaluation. */
const EVALUATE_ENTRY = Symbol.for('jsonata.__evaluate_entry');

interface Frame {
  readonly base: { lookup(name: string): unknown };
}

/** Each step of an evaluation goes through its budget, found in the evaluation's own frame. */
function budgetStep(_expr: unknown, _input: unknown, frame: Frame): Promise<void> | undefined {
  return (frame.base.lookup(BUDGET) as EvaluationBudget | undefined)?.step();
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
    compiled = jsonata(text, { stack: MAX_EVALUATION_DEPTH });
    // JSONata's typing names variables by string; its own hooks are bound by symbol.
    compiled.assign(EVALUATE_ENTRY as unknown as string, budgetStep);
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
  const problem = expressionLimitProblem(text);
  // Validation refuses such a text before a workflow is saved; this guards direct use.
  if (problem !== undefined) throw StepFailure.nonRetryable(`Expression refused: ${problem}`);
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
    async evaluate(input, message, scope) {
      try {
        const budget = new EvaluationBudget(scope);
        const bindings =
          message === undefined ? { [BUDGET]: budget } : { message, [BUDGET]: budget };
        return plain(await compiled.evaluate(input, bindings));
      } catch (error) {
        // A stopped or timed-out node ends as its signal says, not as a failed expression.
        if (scope?.signal.aborted === true && error === scope.signal.reason) throw error;
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

/** What an expression may hold; within them compiling takes a few milliseconds at most. */
export const EXPRESSION_LIMITS = {
  chars: 32_768,
  /** Brackets, braces and parentheses open inside one another. */
  depth: 100,
} as const;

const OPENERS = new Set(['(', '[', '{']);
const CLOSERS = new Set([')', ']', '}']);

/**
 * Why an expression is refused before JSONata parses it (its parser recurses once per level
 * of nesting), naming the limit; undefined when it is within them.
 */
export function expressionLimitProblem(text: string): string | undefined {
  if (text.length > EXPRESSION_LIMITS.chars) {
    return `Expression is ${text.length} characters long; the limit is ${EXPRESSION_LIMITS.chars}`;
  }
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] ?? '';
    if (char === '"' || char === "'" || char === '`') i = closingQuote(text, i);
    else if (char === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 1;
    } else if (OPENERS.has(char)) deepest = Math.max(deepest, ++depth);
    else if (CLOSERS.has(char)) depth--;
  }
  if (deepest > EXPRESSION_LIMITS.depth) {
    return `Expression nests brackets ${deepest} deep; the limit is ${EXPRESSION_LIMITS.depth}`;
  }
  return undefined;
}

/** Where the string or name opened at `start` ends; the text's end when it never does. */
function closingQuote(text: string, start: number): number {
  const quote = text[start];
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === quote) return i;
  }
  return text.length;
}
