import { describe, expect, it } from 'vitest';
import { compileExpression, compiledJsonata } from './expressions.js';

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
