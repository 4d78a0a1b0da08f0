// Handlebars templates: compiled once per node, rendered per message, under limits that hold
// whatever the template and the payload hold. Handlebars parses in time that grows steeply
// with the number of tags and their nesting (6,000 nested blocks take minutes), so a template
// is measured before it is parsed. Rendering is synchronous; its only loop is `each`, which is
// counted, so a render cannot hold the event loop or build an unbounded string.
import Handlebars from 'handlebars';
import { errorText as messageOf } from './error-text.js';
import { StepFailure } from './step-failure.js';

/** What a template may hold; each keeps parsing well under 100 ms. */
export const TEMPLATE_LIMITS = {
  /** Characters of text: plain text is cheap to parse, tags are not. */
  chars: 65_536,
  /** `{{` tags of any kind. */
  tags: 1_000,
  /** Blocks (`{{#each}}`, `{{#if}}`, ...) open inside one another. */
  depth: 32,
} as const;

/** What one render may do. */
export const RENDER_LIMITS = {
  /** Passes through `each` bodies, over every `each` of the template. */
  iterations: 20_000,
  /** Characters produced by `each` bodies. */
  chars: 16 * 1024 * 1024,
  /** Time spent rendering: the render holds the event loop while it runs. */
  timeMs: 100,
} as const;

/** A tag: its opening braces, and `#` or `^` when it opens a block, `/` when it closes one. */
const TAG = /\{\{~?(#|\^(?!\s*~?\}\})|\/)?/g;

/**
 * Why a template is refused before Handlebars reads it, naming the limit; undefined when it
 * is within them. Braces inside comments count too: the count errs on the safe side.
 */
export function templateLimitProblem(text: string): string | undefined {
  if (text.length > TEMPLATE_LIMITS.chars) {
    return `Template is ${text.length} characters long; the limit is ${TEMPLATE_LIMITS.chars}`;
  }
  let tags = 0;
  let depth = 0;
  let deepest = 0;
  for (const [, mark] of text.matchAll(TAG)) {
    tags++;
    if (mark === '/') depth--;
    else if (mark !== undefined) deepest = Math.max(deepest, ++depth);
  }
  if (tags > TEMPLATE_LIMITS.tags) {
    return `Template has ${tags} tags; the limit is ${TEMPLATE_LIMITS.tags}`;
  }
  if (deepest > TEMPLATE_LIMITS.depth) {
    return `Template nests blocks ${deepest} deep; the limit is ${TEMPLATE_LIMITS.depth}`;
  }
  return undefined;
}

/** A render went past one of RENDER_LIMITS. */
class RenderLimit extends Error {}

/** What the render under way has used; rendering is synchronous, so one is enough. */
let usage = { iterations: 0, chars: 0, startedAt: 0 };

/** Handlebars of the server's own, whose `each` counts what it does. */
const handlebars = Handlebars.create();
/** The options Handlebars hands a block helper: the block's body among them. */
interface BlockOptions {
  readonly fn: (context: unknown, runtime?: unknown) => string;
}
type BlockHelper = (this: unknown, context: unknown, options: BlockOptions) => string;

const builtinEach = handlebars.helpers['each'] as BlockHelper;
const countedEach: BlockHelper = function (context, options) {
  const body = options.fn;
  const counted = (value: unknown, runtime?: unknown): string => {
    if (++usage.iterations > RENDER_LIMITS.iterations) {
      throw new RenderLimit(`each ran more than ${RENDER_LIMITS.iterations} times`);
    }
    // The clock is read now and then: reading it costs more than a short body.
    if (
      usage.iterations % 256 === 0 &&
      performance.now() - usage.startedAt > RENDER_LIMITS.timeMs
    ) {
      throw new RenderLimit(`rendering took longer than ${RENDER_LIMITS.timeMs} ms`);
    }
    const out = body(value, runtime);
    usage.chars += out.length;
    if (usage.chars > RENDER_LIMITS.chars) {
      throw new RenderLimit(`each produced more than ${RENDER_LIMITS.chars} characters`);
    }
    return out;
  };
  return builtinEach.call(this, context, { ...options, fn: counted });
};
handlebars.registerHelper('each', countedEach);

export interface CompiledTemplate {
  readonly text: string;
  /** Renders over `context`; `data` becomes `@` variables such as `@messageId`. */
  render(context: unknown, data?: Readonly<Record<string, unknown>>): string;
}

/**
 * Compiles a template for rendering per message. `what` names it in failures: "LLM_CALL
 * template" fails as "LLM_CALL template failed: ...". A failure is bad input: it is never
 * retried, since the same payload fails again.
 */
export function compileTemplate(text: string, what: string): CompiledTemplate {
  const problem = templateLimitProblem(text);
  // Validation refuses such a template before a workflow is saved; this guards direct use.
  if (problem !== undefined) throw StepFailure.nonRetryable(`${what} refused: ${problem}`);
  const template = handlebars.compile(text, { noEscape: true, strict: false });
  return {
    text,
    render(context, data) {
      usage = { iterations: 0, chars: 0, startedAt: performance.now() };
      try {
        return data === undefined ? template(context) : template(context, { data });
      } catch (error) {
        throw StepFailure.nonRetryable(`${what} failed: ${messageOf(error)}`, error);
      }
    },
  };
}
