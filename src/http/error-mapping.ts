// Error codes become HTTP statuses through the one table in core, shared with the tool
// endpoint's refusals.
import { STATUS_BY_CODE, statusOf } from '../core/index.js';
import type { ErrorCode } from '../core/index.js';

export const HTTP_STATUS_BY_CODE = STATUS_BY_CODE;

export function httpStatusOf(code: ErrorCode): number {
  return statusOf(code);
}
