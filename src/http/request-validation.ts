// Turns zod failures of request parts into SPEC's messages: `Invalid request body` with
// `Unknown field: '<name>'`, `Validation failed` with field errors, mandatory-field wording.
import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import { AppError } from '../core/index.js';
import type { FieldError } from '../core/index.js';

type Part = 'body' | 'querystring' | 'params' | 'headers';

export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema, httpPart }) => {
  const part = (httpPart ?? 'body') as Part;
  return (data: unknown) => {
    // A POST without any body is read as an empty object, so that the answer names the
    // mandatory fields instead of complaining about the body as a whole.
    const input = part === 'body' && data == null ? {} : data;
    const result = schema.safeParse(input);
    if (result.success) return { value: result.data };
    return { error: toAppError(result.error, input, part) };
  };
};

export function toAppError(error: z.ZodError, input: unknown, part: Part): AppError {
  const unknown: FieldError[] = [];
  const invalid: FieldError[] = [];
  const missing: string[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        unknown.push({
          field: fieldPath([...issue.path, key]),
          message: `Unknown field: '${key}'`,
        });
      }
      continue;
    }
    const field = fieldPath(issue.path) || part;
    const absent = issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined;
    if (absent) missing.push(field);
    const message =
      absent && !issue.message.endsWith('mandatory')
        ? `${label(field, part)} is mandatory`
        : issue.message;
    invalid.push({ field, message });
  }
  if (
    part === 'body' &&
    (unknown.length > 0 || (invalid.length === 1 && invalid[0]?.field === 'body'))
  ) {
    return new AppError('INVALID_REQUEST_BODY', {
      fieldErrors: unknown.length > 0 ? unknown : invalid,
    });
  }
  const [firstMissing] = missing;
  if (part !== 'body' && firstMissing !== undefined) {
    return new AppError('MISSING_PARAMETER', {
      params: { name: firstMissing },
      fieldErrors: invalid,
    });
  }
  return new AppError('VALIDATION_FAILED', { fieldErrors: [...unknown, ...invalid] });
}

/** `nodes[2].config.x` style paths, the form used in every FieldError. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text === '' ? String(segment) : `.${String(segment)}`;
  }
  return text;
}

function label(field: string, part: Part): string {
  if (field === 'body') return 'Request body';
  return part === 'body' ? `Field '${field}'` : `Parameter '${field}'`;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = input;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}
