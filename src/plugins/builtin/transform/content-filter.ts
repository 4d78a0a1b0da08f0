// CONTENT_FILTER: keeps only part of each payload, by field list or projection.
import {
  compileExpression,
  definePlugin,
  jsonataExpression,
  requireOneOf,
  StepFailure,
  z,
} from '../../../plugin-api/index.js';

export const contentFilterPlugin = definePlugin({
  type: 'CONTENT_FILTER',
  kind: 'processor',
  pure: true,
  description:
    'Keeps only the listed top-level fields of each payload, or what the expression yields.',
  configSchema: z
    .looseObject({
      fields: z.array(z.string().min(1)).optional().describe('Payload fields to keep'),
      expression: jsonataExpression().optional().describe('JSONata yielding the filtered payload'),
    })
    .superRefine((config, ctx) => {
      requireOneOf(
        config,
        ['fields', 'expression'],
        ctx,
        'CONTENT_FILTER needs fields or expression',
      );
    }),
  outputPorts: () => ['out'],
  create: ({ fields, expression }) => {
    // With both keys, the expression sees the kept fields.
    const keep = fields === undefined ? (payload: unknown) => payload : keepFields(fields);
    if (expression === undefined) {
      return { process: (message) => ({ payload: keep(message.payload) }) };
    }
    const project = compileExpression(expression);
    return {
      async process(message, ctx) {
        return { payload: (await project.evaluate(keep(message.payload), message, ctx)) ?? null };
      },
    };
  },
});

type JsonObject = Readonly<Record<string, unknown>>;

/** Fields to keep by name: `true` keeps the field whole, a tree keeps some of its fields. */
type FieldTree = ReadonlyMap<string, FieldTree | true>;

/** `a.b` keeps field `b` of object `a`; a field also listed whole (`a`) stays whole. */
function fieldTree(paths: readonly (readonly string[])[]): FieldTree {
  const rests = new Map<string, (readonly string[])[]>();
  for (const [name = '', ...rest] of paths) rests.set(name, [...(rests.get(name) ?? []), rest]);
  return new Map(
    [...rests].map(([name, list]) => [
      name,
      list.some((rest) => rest.length === 0) ? true : fieldTree(list),
    ]),
  );
}

function keepFields(fields: readonly string[]): (payload: unknown) => JsonObject {
  const tree = fieldTree(fields.map((field) => field.split('.')));
  return (payload) => {
    if (!isObject(payload)) {
      throw StepFailure.nonRetryable(
        `CONTENT_FILTER fields need an object payload, got ${kindOf(payload)}`,
      );
    }
    return pick(payload, tree);
  };
}

/** Missing fields are left out; a path does not reach into arrays or other non-objects. */
function pick(value: JsonObject, tree: FieldTree): JsonObject {
  const kept: [string, unknown][] = [];
  for (const [name, sub] of tree) {
    if (!Object.hasOwn(value, name)) continue;
    const field = value[name];
    if (sub === true) kept.push([name, field]);
    else if (isObject(field)) kept.push([name, pick(field, sub)]);
  }
  // fromEntries defines own properties, so a field named `__proto__` stays a plain field.
  return Object.fromEntries(kept);
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}
