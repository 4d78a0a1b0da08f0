// Answers are written by fast-json-stringify from the route's response schema: faster than
// `JSON.stringify`, and the schema is the one the API description shows. Like any schema
// writer it writes only the fields the schema names: the tests hold every answer to its schema
// (answer-check.ts), so none is missing. What would silently change a value is loosened.
import fastJson from 'fast-json-stringify';
import type { Schema } from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

/**
 * Writers by schema object: every error status of every route shares the error envelope's
 * schema, so it is compiled once instead of once per route and status at start-up.
 */
const writers = new WeakMap<object, (data: unknown) => string>();

export const answerSerializerCompiler: FastifySerializerCompiler<unknown> = ({ schema }) => {
  const known = writers.get(schema as object);
  if (known !== undefined) return known;
  const json =
    schema instanceof z.ZodType
      ? (z.toJSONSchema(schema, {
          target: 'draft-7',
          io: 'output',
          unrepresentable: 'any',
        }) as JsonSchema)
      : (schema as JsonSchema);
  const writer = fastJson(loosened(json) as Schema);
  writers.set(schema as object, writer);
  return writer;
};

/** Keywords that only check a value: writing it does not need them. */
const CHECKS_ONLY = [
  'format',
  'pattern',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'propertyNames',
];

const PRIMITIVES = new Set(['string', 'number', 'integer', 'boolean', 'null']);

/**
 * The types of a union of plain primitive schemas (a nullable string, say), which are written as
 * one schema with a type list: fast-json-stringify would check each branch of an `anyOf` with a
 * validator for every value.
 */
function primitiveTypes(branches: readonly JsonSchema[]): string[] | undefined {
  const types: string[] = [];
  for (const branch of branches) {
    const extra = Object.keys(branch).filter(
      (key) => key !== 'type' && key !== 'description' && !CHECKS_ONLY.includes(key),
    );
    if (extra.length > 0 || typeof branch.type !== 'string' || !PRIMITIVES.has(branch.type)) {
      return undefined;
    }
    types.push(branch.type === 'integer' ? 'number' : branch.type);
  }
  return types;
}

/**
 * Nothing is required (a missing field is left out, not a failed answer), integers are written
 * as numbers (fast-json-stringify would truncate a fraction), constants as plain values (it
 * would write the constant whatever the value), and what only checks a value is left out.
 */
export function loosened(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(loosened);
  if (schema === null || typeof schema !== 'object') return schema;
  const result: JsonSchema = {};
  for (const [key, value] of Object.entries(schema as JsonSchema)) {
    if (key === 'required' || key === '$schema' || CHECKS_ONLY.includes(key)) continue;
    if (key === 'const') {
      result.enum = [value];
      continue;
    }
    if (key === 'oneOf') {
      result.anyOf = loosened(value);
      continue;
    }
    if (key === 'properties' || key === 'definitions' || key === '$defs') {
      result[key] = Object.fromEntries(
        Object.entries(value as JsonSchema).map(([name, child]) => [name, loosened(child)]),
      );
      continue;
    }
    result[key] = loosened(value);
  }
  if (Array.isArray(result.anyOf)) {
    const types = primitiveTypes(result.anyOf as JsonSchema[]);
    if (types !== undefined) {
      delete result.anyOf;
      result.type = types;
    }
  }
  if (result.type === 'integer') result.type = 'number';
  if (Array.isArray(result.type)) {
    result.type = (result.type as unknown[]).map((type) => (type === 'integer' ? 'number' : type));
  }
  return result;
}
