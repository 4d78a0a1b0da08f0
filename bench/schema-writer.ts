// The schema-compiled answer writer the server used before answers were written with
// JSON.stringify: fast-json-stringify (Fastify's default writer) compiled from a route's
// response schema, loosened as the server loosened it (nothing required, integers written as
// numbers, constants as plain values, checks left out). The baseline of `http.answer`.
import fastJson from 'fast-json-stringify';
import type { Schema } from 'fast-json-stringify';
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

export function schemaWriter(schema: z.ZodType): (data: unknown) => string {
  const json = z.toJSONSchema(schema, { target: 'draft-7', io: 'output', unrepresentable: 'any' });
  return fastJson(loosened(json) as Schema);
}

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
function loosened(schema: unknown): unknown {
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
