// The one place where error codes become HTTP statuses (STYLE "Errors"). A code missing from
// the table does not compile.
import type { ErrorCode } from '../core/index.js';

export const HTTP_STATUS_BY_CODE = {
  INVALID_REQUEST_BODY: 400,
  VALIDATION_FAILED: 400,
  MISSING_PARAMETER: 400,
  BAD_REQUEST: 400,
  WORKFLOW_INVALID: 400,
  SESSION_NOT_FOUND: 404,
  SESSION_ALREADY_EXISTS: 409,
  WORKFLOW_NOT_FOUND: 404,
  VERSION_NOT_FOUND: 404,
  EXECUTION_NOT_FOUND: 404,
  PLUGIN_TYPE_NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  SETTINGS_INVALID: 500,
  STORE_DAMAGED: 500,
  STORE_FAILED: 500,
  INTERNAL: 500,
} as const satisfies Record<ErrorCode, number>;

export function httpStatusOf(code: ErrorCode): number {
  return HTTP_STATUS_BY_CODE[code];
}
