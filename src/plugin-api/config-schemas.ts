// Configuration schema pieces the built-in plugins share: syntax-checked JSONata, Handlebars
// and cron text, URLs, counts, and lists of names that become output ports.
import { CronPattern } from 'croner';
import Handlebars from 'handlebars';
import jsonata from 'jsonata';
import { z } from 'zod';
import { errorText as messageOf } from './error-text.js';
import { compiledJsonata, expressionLimitProblem } from './expressions.js';
import { templateLimitProblem } from './templates.js';

/**
 * Remembers the syntax check of each text: a workflow often repeats an expression, and
 * validation runs on every save and start. Bounded so odd traffic cannot grow it forever.
 */
class CheckMemo {
  static readonly #limit = 10_000;
  // Texts are the keys: their characters are bounded too, or long drafts would fill the heap.
  static readonly #charLimit = 4_000_000;
  readonly #results = new Map<string, string | undefined>();
  #chars = 0;

  has(text: string): boolean {
    return this.#results.has(text);
  }

  get(text: string): string | undefined {
    return this.#results.get(text);
  }

  /** Remembers `problem` for `text` and answers it. */
  set(text: string, problem: string | undefined): string | undefined {
    if (
      this.#results.size >= CheckMemo.#limit ||
      this.#chars + text.length > CheckMemo.#charLimit
    ) {
      this.#results.clear();
      this.#chars = 0;
    }
    this.#results.set(text, problem);
    this.#chars += text.length;
    return problem;
  }
}

function memoizeCheck(
  check: (text: string) => string | undefined,
): (text: string) => string | undefined {
  const memo = new CheckMemo();
  return (text) => (memo.has(text) ? memo.get(text) : memo.set(text, check(text)));
}

const jsonataMemo = new CheckMemo();
/** New expression texts met while checks are gathered (see `checkingExpressionsTogether`). */
let gathering: Set<string> | undefined;

/** Compiles without evaluating: syntax only, no data is touched. */
export function jsonataProblem(text: string): string | undefined {
  if (jsonataMemo.has(text)) return jsonataMemo.get(text);
  const limit = expressionLimitProblem(text);
  if (limit !== undefined) return jsonataMemo.set(text, limit);
  if (gathering !== undefined) {
    gathering.add(text);
    return undefined;
  }
  return jsonataMemo.set(text, compileProblem(text));
}

function compileProblem(text: string): string | undefined {
  try {
    // Kept compiled for the runs of the workflow being validated.
    compiledJsonata(text);
    return undefined;
  } catch (error) {
    const position =
      typeof error === 'object' && error !== null && 'position' in error
        ? ` at position ${String(error.position)}`
        : '';
    return `Invalid JSONata expression: ${messageOf(error)}${position}`;
  }
}

/**
 * Runs `check` (a validation) with the syntax checks of its new expressions made together:
 * JSONata builds its parser afresh for every text it compiles, which is most of what checking
 * a short expression costs, so the texts are parsed as one. When that shows them all sound,
 * the answer of `check` stands; otherwise each is checked on its own and `check` runs again
 * to report the problems. The runs of a workflow then compile each expression when first used.
 */
export function checkingExpressionsTogether<T>(check: () => T): T {
  if (gathering !== undefined) return check();
  const texts = new Set<string>();
  gathering = texts;
  let result: T;
  try {
    result = check();
  } finally {
    gathering = undefined;
  }
  if (texts.size === 0) return result;
  const list = [...texts];
  const problems = parseTogether(list) ? list.map(() => undefined) : list.map(compileProblem);
  list.forEach((text, index) => jsonataMemo.set(text, problems[index]));
  return problems.every((problem) => problem === undefined) ? result : check();
}

interface AstNode {
  readonly type: string;
  readonly value?: unknown;
  readonly position?: number;
  readonly expressions?: readonly AstNode[];
}

/**
 * Whether every text parses on its own, judged from one parse of `[(t1),(t2),...]`. Each item
 * must be a bare block of one expression starting where its text was put: a text that
 * reached past its parentheses (an open string or comment, a stray bracket, a `;` that only a
 * block allows) breaks that shape, and is then checked on its own.
 */
function parseTogether(texts: readonly string[]): boolean {
  if (texts.length < 2) return false;
  const starts: number[] = [];
  let batch = '[';
  for (const text of texts) {
    if (starts.length > 0) batch += ',';
    starts.push(batch.length);
    batch += `(${text})`;
  }
  batch += ']';
  let root: AstNode;
  try {
    root = jsonata(batch).ast();
  } catch {
    return false;
  }
  const items = root.type === 'unary' && root.value === '[' ? root.expressions : undefined;
  return (
    items?.length === texts.length &&
    items.every(
      (item, index) =>
        item.type === 'block' &&
        Object.keys(item).length === 3 &&
        item.position === (starts[index] ?? 0) + 1 &&
        item.expressions?.length === 1,
    )
  );
}

export const handlebarsProblem = memoizeCheck((text) => {
  // Measured first: parsing an oversized template is what would take the time.
  const limit = templateLimitProblem(text);
  if (limit !== undefined) return limit;
  try {
    Handlebars.precompile(text);
    return undefined;
  } catch (error) {
    // Parse errors span four lines (headline, source, caret, expectation); keep the first
    // and the last so the message stays on one line.
    const lines = messageOf(error).split('\n');
    const message = lines.length > 2 ? `${lines[0] ?? ''} ${lines.at(-1) ?? ''}` : lines.join(' ');
    return `Invalid Handlebars template: ${message}`;
  }
});

export const cronProblem = memoizeCheck((text) => {
  try {
    new CronPattern(text);
    return undefined;
  } catch (error) {
    return `Invalid cron expression: ${messageOf(error).replace(/^CronPattern: /, '')}`;
  }
});

/** A non-empty string that `problem` accepts. */
function checkedText(problem: (text: string) => string | undefined) {
  return z
    .string()
    .min(1)
    .superRefine((text, ctx) => {
      // An empty text is already reported as empty.
      if (text === '') return;
      const message = problem(text);
      if (message !== undefined) ctx.addIssue({ code: 'custom', message });
    });
}

/** A JSONata expression; its input is the message payload (CONTRACT section 1). */
export const jsonataExpression = () => checkedText(jsonataProblem);
export const handlebarsTemplate = () => checkedText(handlebarsProblem);
export const cronSchedule = () => checkedText(cronProblem);

const PLACEHOLDER = /\$\{[^}]+\}/;

/**
 * An absolute http(s) URL. A URL holding a `${env.NAME}` placeholder is resolved only when
 * the node runs, so only its scheme can be checked here.
 */
export const httpUrl = () =>
  z
    .string()
    .min(1)
    .superRefine((text, ctx) => {
      if (text === '') return;
      if (PLACEHOLDER.test(text)) {
        if (!/^(https?:\/\/|\$\{)/i.test(text)) {
          ctx.addIssue({ code: 'custom', message: 'Must be an http or https URL' });
        }
        return;
      }
      if (!URL.canParse(text) || !/^https?:$/.test(new URL(text).protocol)) {
        ctx.addIssue({ code: 'custom', message: `Must be an http or https URL, got '${text}'` });
      }
    });

export const positiveInt = () => z.number().int().positive();
export const nonNegativeInt = () => z.number().int().min(0);

/**
 * A list of port names: non-empty, unique, and not one of the `reserved` ports the node
 * already has (`out`, and `error` for onError ERROR_PORT), so every port name is distinct.
 */
export function portNameList<Item extends z.ZodType>(
  item: Item,
  nameOf: (value: z.output<Item>) => string,
  what: string,
  reserved: readonly string[],
) {
  return z
    .array(item)
    .min(1, `Needs at least one ${what}`)
    .superRefine((items, ctx) => {
      const seen = new Set<string>();
      items.forEach((value, index) => {
        const name = nameOf(value);
        const path = typeof value === 'string' ? [index] : [index, 'name'];
        if (reserved.includes(name)) {
          ctx.addIssue({
            code: 'custom',
            path,
            message: `The ${what} name '${name}' is reserved; ${reserved.join(', ')} are ports of their own`,
          });
        } else if (seen.has(name)) {
          ctx.addIssue({ code: 'custom', path, message: `Duplicate ${what} name '${name}'` });
        }
        seen.add(name);
      });
    });
}

/** `[{ name, expression }]` whose names become ports (BRANCH cases, CLASSIFY classes). */
export function namedExpressions(what: string) {
  return portNameList(
    z.object({ name: z.string().min(1), expression: jsonataExpression() }),
    (value) => value.name,
    what,
    ['out', 'default', 'error'],
  );
}

/** Requires at least one of `keys`, reported on the first of them. */
export function requireOneOf(
  config: Readonly<Record<string, unknown>>,
  keys: readonly [string, ...string[]],
  ctx: z.RefinementCtx,
  message: string,
): void {
  if (keys.some((key) => config[key] !== undefined)) return;
  ctx.addIssue({ code: 'custom', path: [keys[0]], message });
}

/**
 * Names of ports taken from configuration. A missing list gives none, so plugin discovery
 * can list the fixed ports of a type whose empty configuration is invalid (BRANCH).
 */
export function configuredPorts(
  items: readonly (string | { readonly name: string })[] | undefined,
): string[] {
  return (items ?? []).map((item) => (typeof item === 'string' ? item : item.name));
}
