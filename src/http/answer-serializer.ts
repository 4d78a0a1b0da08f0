// Answers are written by fast-json-stringify from the route's response schema: faster than
// `JSON.stringify`, and the schema is the one the API description shows. The schema is loosened
// for writing so that a field the description misses is still written, never dropped or
// mangled; tests hold every answer to the strict schema (answer-check.ts).
import fastJson from 'fast-json-stringify';
import type { Schema } from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

export const answerSerializerCompiler: FastifySerializerCompiler<unknown> = ({ schema }) => {
  const json =
    schema instanceof z.ZodType
      ? (z.toJSONSchema(schema, {
          target: 'draft-7',
          io: 'output',
          unrepresentable: 'any',
        }) as JsonSchema)
      : (schema as JsonSchema);
  return fastJson(loosened(json) as Schema);
};

/**
 * Objects keep fields beyond their properties, nothing is required, integers are written as
 * numbers (fast-json-stringify would truncate a fraction) and constants as plain values (it
 * would write the constant whatever the value).
 */
export function loosened(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(loosened);
  if (schema === null || typeof schema !== 'object') return schema;
  const result: JsonSchema = {};
  for (const [key, value] of Object.entries(schema as JsonSchema)) {
    if (key === 'required' || key === '$schema') continue;
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
  if (result.type === 'integer') result.type = 'number';
  if (Array.isArray(result.type)) {
    result.type = (result.type as unknown[]).map((type) => (type === 'integer' ? 'number' : type));
  }
  if (result.type === 'object' && (result.additionalProperties ?? false) === false) {
    result.additionalProperties = true;
  }
  return result;
}
