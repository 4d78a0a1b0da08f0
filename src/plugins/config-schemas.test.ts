import { describe, expect, it } from 'vitest';
import { parseFields } from '../engine/index.js';
import {
  checkingExpressionsTogether,
  cronSchedule,
  handlebarsTemplate,
  httpUrl,
  jsonataExpression,
  namedExpressions,
  portNameList,
  requireOneOf,
  z,
} from '../plugin-api/index.js';
import { mcpToolCallPlugin } from './builtin/mcp-tool-call/mcp-tool-call.js';

function problems(schema: z.ZodType, value: unknown) {
  const result = parseFields(schema, value);
  return result.ok ? [] : result.errors;
}

describe('jsonataExpression', () => {
  it('accepts an expression that parses, without evaluating it (CONTRACT section 1)', () => {
    expect(problems(jsonataExpression(), 'payload.items[price > 10].name')).toEqual([]);
    expect(problems(jsonataExpression(), '$sum(payload.n) > 3 ? "big" : "small"')).toEqual([]);
  });

  it('reports the parse error with its position', () => {
    expect(problems(jsonataExpression(), 'payload.n >')).toEqual([
      {
        field: '',
        message: 'Invalid JSONata expression: Unexpected end of expression at position 11',
      },
    ]);
  });

  it('reports an empty expression once', () => {
    expect(problems(jsonataExpression(), '')).toEqual([
      { field: '', message: 'Must not be empty' },
    ]);
  });

  it('gives the same answer for a repeated expression', () => {
    const first = problems(jsonataExpression(), '"open');
    expect(problems(jsonataExpression(), '"open')).toEqual(first);
    expect(first[0]?.message).toMatch(/^Invalid JSONata expression: String literal/);
  });
});

describe('handlebarsTemplate', () => {
  it('accepts a template that compiles (CONTRACT section 1)', () => {
    expect(problems(handlebarsTemplate(), 'Hello {{payload.name}}{{#if vip}}!{{/if}}')).toEqual([]);
  });

  it('reports a syntax error on one line', () => {
    const [error] = problems(handlebarsTemplate(), '{{#if vip}}unclosed');
    expect(error?.message).toMatch(
      /^Invalid Handlebars template: Parse error on line 1: Expecting .* got 'EOF'$/,
    );
  });
});

describe('cronSchedule', () => {
  it.each(['*/5 * * * *', '0 30 9 * * MON-FRI', '@daily'])('accepts %s', (schedule) => {
    expect(problems(cronSchedule(), schedule)).toEqual([]);
  });

  it.each([
    ['61 * * * *', 'Invalid cron expression: Invalid value for minute: 61'],
    [
      'every minute',
      expect.stringMatching(/^Invalid cron expression: invalid configuration format/),
    ],
  ])('refuses %s', (schedule, message) => {
    expect(problems(cronSchedule(), schedule)).toEqual([{ field: '', message }]);
  });
});

describe('httpUrl', () => {
  it.each([
    'http://localhost:3000/mcp',
    'https://example.com/hook?x=1',
    '${env.SVC_VAR_HOOK}',
    'https://${env.SVC_VAR_HOST}/mcp',
  ])('accepts %s', (url) => {
    expect(problems(httpUrl(), url)).toEqual([]);
  });

  it.each(['ftp://example.com', 'example.com', 'file:///etc/passwd', 'ws://${env.SVC_VAR_HOST}'])(
    'refuses %s',
    (url) => {
      expect(problems(httpUrl(), url)[0]?.message).toMatch(/^Must be an http or https URL/);
    },
  );
});

describe('port name lists', () => {
  const cases = namedExpressions('case');

  it('refuses an empty list', () => {
    expect(problems(cases, [])).toEqual([{ field: '', message: 'Needs at least one case' }]);
  });

  it('refuses repeated names and names of ports the node already has', () => {
    expect(
      problems(cases, [
        { name: 'a', expression: 'true' },
        { name: 'a', expression: 'false' },
        { name: 'default', expression: 'true' },
        { name: 'out', expression: 'true' },
      ]).map((error) => [error.field, error.message]),
    ).toEqual([
      ['[1].name', "Duplicate case name 'a'"],
      [
        '[2].name',
        "The case name 'default' is reserved; out, default, error are ports of their own",
      ],
      ['[3].name', "The case name 'out' is reserved; out, default, error are ports of their own"],
    ]);
  });

  it('checks each expression of the list', () => {
    expect(problems(cases, [{ name: 'a', expression: '(' }])[0]?.field).toBe('[0].expression');
  });

  it('points at the item itself for a list of plain names', () => {
    const names = portNameList(z.string(), (name) => name, 'recipient', ['out']);
    expect(problems(names, ['x', 'x'])).toEqual([
      { field: '[1]', message: "Duplicate recipient name 'x'" },
    ]);
  });
});

describe('requireOneOf', () => {
  const schema = z
    .looseObject({ a: z.string().optional(), b: z.string().optional() })
    .superRefine((config, ctx) => {
      requireOneOf(config, ['a', 'b'], ctx, 'Needs a or b');
    });

  it('reports on the first key when none is given', () => {
    expect(problems(schema, {})).toEqual([{ field: 'a', message: 'Needs a or b' }]);
    expect(problems(schema, { b: 'x' })).toEqual([]);
  });
});

describe('MCP_TOOL_CALL arguments', () => {
  it('checks each argument holding a placeholder as a template, naming where it is', () => {
    const deep = `${'{{#if a}}'.repeat(40)}x${'{{/if}}'.repeat(40)}`;
    const config = {
      url: 'http://127.0.0.1:1/mcp',
      tool: 't',
      arguments: { plain: '{{ n }}', nested: { list: ['ok', deep] }, broken: '{{#if a}}' },
    };
    expect(problems(mcpToolCallPlugin.configSchema, config)).toEqual([
      {
        field: 'arguments.nested.list[1]',
        message: 'Template nests blocks 40 deep; the limit is 32',
      },
      { field: 'arguments.broken', message: expect.stringMatching(/^Invalid Handlebars template/) },
    ]);
  });
});

describe('expressions checked together', () => {
  const schema = z.array(jsonataExpression());
  let round = 0;
  /** Texts never seen before, so the memo of earlier checks does not answer for them. */
  const fresh = (texts: readonly string[]) => {
    round++;
    return texts.map((text) => `${text} and ${round} = ${round}`);
  };

  it('answers like checking each on its own when all are sound', () => {
    const texts = fresh(['a.b > 1', '$sum(items.price)', '"(" & \')\'', '/* ) */ x']);
    expect(checkingExpressionsTogether(() => problems(schema, texts))).toEqual([]);
  });

  it.each([
    ['a text that only a block allows', ['1; 2', 'x']],
    ['texts that join through a comment', ['1 /*', '*/ 2']],
    ['texts that join through a string', ['"a', 'b"']],
    ['texts that trade brackets', ['a), (b', 'c']],
    ['a text that continues its block', ['a).b.(c', 'd']],
    ['a text that is only a comment', ['/* nothing */', 'x']],
  ])('reports the same problems as one by one for %s', (_, texts) => {
    // A leading comment makes each text new to the memo without changing what it means.
    const marked = () => [...texts, 'ok'].map((text) => `/* ${++round} */ ${text}`);
    const batch = marked();
    const together = checkingExpressionsTogether(() => problems(schema, batch));
    const alone = problems(schema, marked());
    expect(together.map((error) => error.field)).toEqual(alone.map((error) => error.field));
    expect(together.length).toBeGreaterThan(0);
  });
});
