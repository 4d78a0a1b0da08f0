import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_EVALUATION_TIME_LIMIT_MS, setEvaluationTimeLimit } from './evaluation-budget.js';
import { compileExpression, compiledJsonata, expressionLimitProblem } from './expressions.js';
import { StepFailure } from './step-failure.js';

describe('compiled JSONata expressions', () => {
  it('compiles a text once for the whole server', () => {
    expect(compiledJsonata('$.a + 1')).toBe(compiledJsonata('$.a + 1'));
    expect(compiledJsonata('$.a + 2')).not.toBe(compiledJsonata('$.a + 1'));
  });

  it('keeps concurrent evaluations of one shared expression apart', async () => {
    const first = compileExpression('$.n * 2');
    const second = compileExpression('$.n * 2');
    const inputs = Array.from({ length: 50 }, (_, n) => ({ n }));
    const answers = await Promise.all(
      inputs.map((input, i) => (i % 2 === 0 ? first : second).evaluate(input)),
    );
    expect(answers).toEqual(inputs.map(({ n }) => n * 2));
  });

  it('throws for a text that does not compile, and caches nothing for it', () => {
    expect(() => compiledJsonata('$.a +')).toThrow();
    expect(() => compiledJsonata('$.a +')).toThrow();
  });
});

describe('expression limits', () => {
  it('does not count brackets inside strings, names and comments', () => {
    const inside = '('.repeat(200);
    const text = `"${inside}" & '${inside}' & \`${inside}\` /* ${inside} */ & "\\"${inside}"`;
    expect(expressionLimitProblem(text)).toBeUndefined();
  });

  it('names the limit an expression is past', () => {
    expect(expressionLimitProblem(`${'['.repeat(101)}1${']'.repeat(101)}`)).toBe(
      'Expression nests brackets 101 deep; the limit is 100',
    );
    expect(expressionLimitProblem('1'.repeat(32_769))).toBe(
      'Expression is 32769 characters long; the limit is 32768',
    );
    expect(() => compileExpression('{'.repeat(200))).toThrow(/^Expression refused: /);
  });
});

describe('evaluation budget', () => {
  const RUNAWAY = '($f := function($x){ $f($x) }; $f(1))';

  afterEach(() => {
    setEvaluationTimeLimit(DEFAULT_EVALUATION_TIME_LIMIT_MS);
  });

  it('fails an evaluation past its time limit as bad input, naming the setting', async () => {
    setEvaluationTimeLimit(50);
    const failure = await compileExpression(RUNAWAY)
      .evaluate({})
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StepFailure);
    expect((failure as StepFailure).retryable).toBe(false);
    expect((failure as Error).message).toContain(
      'ran longer than svc.expressions.timeout-ms (50 ms)',
    );
  });

  it('ends with the reason its signal aborts with', async () => {
    const controller = new AbortController();
    const scope = { signal: controller.signal, sleep: () => Promise.resolve() };
    const evaluation = compileExpression(RUNAWAY).evaluate({}, undefined, scope);
    const reason = new Error('stopped');
    setTimeout(() => {
      controller.abort(reason);
    }, 20);
    await expect(evaluation).rejects.toBe(reason);
  });

  it('holds while its node clock does, and does not count that time', async () => {
    setEvaluationTimeLimit(300);
    // The clock jumps a second while the evaluation is held: had the hold counted, it would
    // fail as soon as it is released.
    const realNow = performance.now.bind(performance);
    let jumped = 0;
    const now = vi.spyOn(performance, 'now').mockImplementation(() => realNow() + jumped);
    let release: () => void = () => undefined;
    let turns = 0;
    const scope = {
      signal: new AbortController().signal,
      sleep: () => {
        turns++;
        if (turns > 1) return Promise.resolve();
        jumped += 1_000;
        return new Promise<void>((resolve) => (release = resolve));
      },
    };
    const evaluation = compileExpression(RUNAWAY)
      .evaluate({}, undefined, scope)
      .catch((error: unknown) => error);
    await vi.waitFor(() => {
      expect(turns).toBe(1);
    });
    release();
    expect(String(await evaluation)).toContain('svc.expressions.timeout-ms (300 ms)');
    now.mockRestore();
    // It computed on after the hold, long enough to wait on its clock again.
    expect(turns).toBeGreaterThan(1);
  });
});
