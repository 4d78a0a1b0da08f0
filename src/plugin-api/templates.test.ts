import { describe, expect, it } from 'vitest';
import { StepFailure } from './step-failure.js';
import { compileTemplate, RENDER_LIMITS, templateLimitProblem } from './templates.js';

describe('template limits', () => {
  it('accepts a template within every limit', () => {
    const text = `${'{{#if a}}'.repeat(32)}{{#each b}}{{this}}{{^}}none{{/each}}${'{{/if}}'.repeat(32)}`;
    expect(templateLimitProblem(text.replace('{{#if a}}', ''))).toBeUndefined();
  });

  it('counts inverse blocks as blocks and an else as none', () => {
    const open = (n: number) => `${'{{^if a}}'.repeat(n)}{{^}}x${'{{/if}}'.repeat(n)}`;
    expect(templateLimitProblem(open(32))).toBeUndefined();
    expect(templateLimitProblem(open(33))).toBe('Template nests blocks 33 deep; the limit is 32');
  });

  it('names the limit a template is past', () => {
    expect(templateLimitProblem('x'.repeat(65_537))).toBe(
      'Template is 65537 characters long; the limit is 65536',
    );
    expect(templateLimitProblem('{{~a~}}'.repeat(1001))).toBe(
      'Template has 1001 tags; the limit is 1000',
    );
  });

  it('refuses to compile a template past a limit', () => {
    expect(() => compileTemplate('x'.repeat(70_000), 'Prompt')).toThrow(
      /^Prompt refused: Template is 70000 characters long/,
    );
  });
});

describe('rendering', () => {
  it('renders the payload with data variables, without escaping', () => {
    const template = compileTemplate('{{name}} <{{@messageId}}>', 'Prompt');
    expect(template.render({ name: 'a&b' }, { messageId: 'm1' })).toBe('a&b <m1>');
  });

  it('fails a render whose each runs past the iteration limit, as bad input', () => {
    const items = Array.from({ length: 400 }, (_, n) => n);
    const template = compileTemplate('{{#each a}}{{#each ../a}}.{{/each}}{{/each}}', 'Template');
    let failure: unknown;
    try {
      template.render({ a: items });
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(StepFailure);
    expect((failure as StepFailure).retryable).toBe(false);
    expect((failure as Error).message).toBe(
      `Template failed: each ran more than ${RENDER_LIMITS.iterations} times`,
    );
  });

  it('fails a render whose each bodies produce more than the character limit', () => {
    const template = compileTemplate('{{#each a}}{{../big}}{{/each}}', 'Template');
    const big = 'x'.repeat(1024 * 1024);
    expect(() => template.render({ a: Array.from({ length: 20 }), big })).toThrow(
      `each produced more than ${RENDER_LIMITS.chars} characters`,
    );
  });

  it('counts each render afresh', () => {
    const template = compileTemplate('{{#each a}}.{{/each}}', 'Template');
    const a = Array.from({ length: 15_000 });
    expect(template.render({ a })).toHaveLength(15_000);
    expect(template.render({ a })).toHaveLength(15_000);
  });
});
