// A refusal of the tool endpoint is a tool result with `isError: true` whose text starts with
// the HTTP status the REST API answers the same error with (CONTRACT 4), then its message and
// the fields at fault.
import { isAppError, statusOf } from '../core/index.js';

/** 403 from the tool endpoint's own access checks (the REST API answers those without a body). */
export class ForbiddenError extends Error {
  override readonly name = 'ForbiddenError';
}

export function refusalText(error: unknown): string {
  if (error instanceof ForbiddenError) return `403 ${error.message}`;
  if (!isAppError(error)) return '500 An unexpected error occurred';
  const fields = error.fieldErrors.map((field) => `${field.field}: ${field.message}`);
  const detail = fields.length === 0 ? '' : ` (${fields.join('; ')})`;
  return `${statusOf(error.code)} ${error.message}${detail}`;
}
