// Malformed requests for the API fuzz test: built from each operation of the served OpenAPI
// description, then mutated (wrong types, huge strings, deep nesting, unknown fields, odd
// Unicode, broken encodings).
import fc from 'fast-check';

/** The parts of an OpenAPI 3 schema the generator reads. */
export interface JsonSchema {
  readonly type?: string | readonly string[];
  readonly enum?: readonly unknown[];
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly items?: JsonSchema;
  readonly anyOf?: readonly JsonSchema[];
  readonly oneOf?: readonly JsonSchema[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly maxLength?: number;
}

export interface Parameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header' | 'cookie';
  readonly required?: boolean;
  readonly schema?: JsonSchema;
}

export interface Operation {
  readonly method: string;
  /** OpenAPI path with `{name}` placeholders. */
  readonly path: string;
  readonly parameters: readonly Parameter[];
  readonly body: JsonSchema | undefined;
}

export interface FuzzRequest {
  readonly method: string;
  /** Path and query exactly as sent on the request line. */
  readonly target: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
}

/** Every operation of an OpenAPI document. */
export function operationsOf(document: {
  paths: Record<string, Record<string, unknown>>;
}): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, raw] of Object.entries(methods)) {
      const operation = raw as {
        parameters?: Parameter[];
        requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
      };
      operations.push({
        method: method.toUpperCase(),
        path,
        parameters: operation.parameters ?? [],
        body: operation.requestBody?.content?.['application/json']?.schema,
      });
    }
  }
  return operations;
}

/** A value once in `every` draws, null otherwise. */
function sometimes<T>(arbitrary: fc.Arbitrary<T>, every: number): fc.Arbitrary<T | null> {
  return fc.oneof(
    { weight: every - 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: arbitrary },
  );
}

/** Percent-encoding that also takes lone surrogates (as their replacement character). */
function encode(text: string): string {
  return encodeURIComponent(text.toWellFormed());
}

/** Strings a parser or a store may trip over. */
const oddString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\uFEFF',
    '\uD800',
    '\u202E\u0041',
    'e\u0301',
    '👩‍👩‍👧‍👦',
    '../..',
    '%',
    '%25',
    '${env.HOME}',
    '{{this}}',
    '$$',
    'null',
    '__proto__',
    'constructor',
    'NaN',
    '-1',
    '1e309',
  ),
);

const hugeString: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom('x', 'é', '😀', '\u0000'), fc.integer({ min: 1_000, max: 200_000 }))
  .map(([unit, count]) => unit.repeat(count));

function deep(depth: number, leaf: unknown): unknown {
  let value = leaf;
  for (let level = 0; level < depth; level += 1) {
    value = level % 2 === 0 ? [value] : { nested: value };
  }
  return value;
}

const deepValue: fc.Arbitrary<unknown> = fc
  .tuple(fc.integer({ min: 20, max: 400 }), fc.jsonValue({ maxDepth: 1 }))
  .map(([depth, leaf]) => deep(depth, leaf));

/** Anything that can appear where the schema wants something else. */
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, 2 ** 53, -(2 ** 63), [], {}),
  oddString,
  hugeString,
  deepValue,
  fc.jsonValue({ maxDepth: 3 }),
);

/** A value shaped by the schema, with some fields wrong, missing or unknown. */
export function valueFor(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  const shaped = shapedValue(schema ?? {}, depth);
  return fc.oneof({ weight: 5, arbitrary: shaped }, { weight: 1, arbitrary: wrongValue });
}

function shapedValue(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices !== undefined && choices.length > 0) {
    return fc.oneof(...choices.map((choice) => shapedValue(choice, depth)));
  }
  if (schema.enum !== undefined && schema.enum.length > 0) {
    return fc.oneof(fc.constantFrom(...schema.enum), oddString);
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return fc.oneof(fc.string({ maxLength: schema.maxLength ?? 20 }), oddString);
    case 'integer':
      return fc.oneof(
        fc.integer({ min: schema.minimum ?? -1000, max: Math.min(schema.maximum ?? 1000, 1e9) }),
        fc.constantFrom(0, -1, 2 ** 31, Number.MAX_SAFE_INTEGER),
      );
    case 'number':
      return fc.double();
    case 'boolean':
      return fc.boolean();
    case 'array':
      return depth > 4
        ? fc.constant([])
        : fc.array(valueFor(schema.items, depth + 1), { maxLength: 4 });
    case 'object':
      return objectFor(schema, depth);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function objectFor(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  const properties = Object.entries(schema.properties ?? {});
  if (depth > 4 || properties.length === 0) return fc.dictionary(oddString, wrongValue);
  const fields = Object.fromEntries(
    properties.map(([name, property]) => [name, valueFor(property, depth + 1)]),
  );
  const required = schema.required ?? [];
  return fc
    .tuple(
      fc.record(fields, { requiredKeys: required.filter((name) => name in fields) }),
      // Unknown fields, among them names that reach prototypes.
      sometimes(fc.dictionary(oddString, wrongValue, { minKeys: 1, maxKeys: 2 }), 4),
      // A required field dropped.
      sometimes(fc.constantFrom(...(required.length > 0 ? required : ['-'])), 4),
    )
    .map(([record, extra, dropped]) => {
      const value: Record<string, unknown> = { ...record, ...(extra ?? {}) };
      return Object.fromEntries(Object.entries(value).filter(([name]) => name !== dropped));
    });
}

/** A path parameter as it appears in the URL: mostly encoded, sometimes broken on purpose. */
function pathSegment(known: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...known).map(encode) },
    { weight: 3, arbitrary: oddString.map(encode) },
    { weight: 1, arbitrary: fc.constantFrom('%', '%zz', '%C3%28', '%2F', '..', '.', '%00') },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 100, max: 300 }).map((length) => 'p'.repeat(length)),
    },
  );
}

function queryString(parameters: readonly Parameter[]): fc.Arbitrary<string> {
  const query = parameters.filter((parameter) => parameter.in === 'query');
  const pairs = fc.tuple(
    ...query.map((parameter) =>
      fc.option(
        fc
          .oneof(valueFor(parameter.schema), fc.array(oddString, { maxLength: 3 }))
          .map((value) =>
            (Array.isArray(value) ? value : [value]).map(
              (item) =>
                `${encode(parameter.name)}=${encode(
                  typeof item === 'string' ? item : JSON.stringify(item),
                )}`,
            ),
          ),
        { freq: 3 },
      ),
    ),
  );
  const unknown = sometimes(
    fc.tuple(oddString, oddString).map(([k, v]) => `${encode(k)}=${encode(v)}`),
    4,
  );
  const broken = sometimes(fc.constantFrom('a=%', '%zz=1', '=', '&&', 'a[b]=1', 'a=1&a=2'), 6);
  return fc.tuple(pairs, unknown, broken).map(([given, extra, odd]) => {
    const parts = [...given.flatMap((pair) => pair ?? []), extra, odd].filter(
      (part): part is string => part !== null && part !== '',
    );
    return parts.length === 0 ? '' : `?${parts.join('&')}`;
  });
}

function bodyFor(operation: Operation): fc.Arbitrary<FuzzRequest['body']> {
  const json = valueFor(operation.body).map((value) => JSON.stringify(value));
  return fc.oneof(
    { weight: 8, arbitrary: json },
    {
      weight: 1,
      arbitrary: fc.constantFrom(undefined, '', '{', '{"a":}', 'nul', '[1,]', '\uFEFF{}'),
    },
    { weight: 1, arbitrary: fc.constant('{"__proto__":{"polluted":true}}') },
  );
}

const contentType = fc.oneof(
  { weight: 12, arbitrary: fc.constant('application/json') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'application/json; charset=latin1',
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/json; boundary=x',
      'multipart/form-data',
      'APPLICATION/JSON',
    ),
  },
);

/** One request for one operation: path parameters, query string and body, all mutated. */
export function requestFor(
  operation: Operation,
  known: readonly string[],
): fc.Arbitrary<FuzzRequest> {
  const names = [...operation.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? '');
  const hasBody = operation.body !== undefined || operation.method !== 'GET';
  return fc
    .tuple(
      fc.tuple(...names.map(() => pathSegment(known))),
      queryString(operation.parameters),
      hasBody ? bodyFor(operation) : fc.constant(undefined),
      contentType,
    )
    .map(([segments, query, body, type]) => {
      let path = operation.path;
      names.forEach((name, index) => {
        path = path.replace(`{${name}}`, segments[index] ?? '');
      });
      const headers: Record<string, string> = body === undefined ? {} : { 'content-type': type };
      // The tool endpoint needs this to take a request at all.
      if (operation.path === '/mcp') headers.accept = 'application/json, text/event-stream';
      return { method: operation.method, target: `${path}${query}`, headers, body };
    });
}
