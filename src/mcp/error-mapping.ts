// A refusal of the tool endpoint is a tool result with `isError: true` whose text starts with
// the HTTP status the REST API answers the same error with (CONTRACT 4), then its message and
// the fields at fault.
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
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

/** Whether a failure is a fault of the server, worth a log line, rather than a refusal. */
export function isUnexpected(error: unknown): boolean {
  return !(error instanceof ForbiddenError) && (!isAppError(error) || error.kind === 'unexpected');
}

/** MCP's code for a resource that does not exist (MCP "Resources", error handling). */
export const RESOURCE_NOT_FOUND = -32002;

/**
 * A refusal of a resource, prompt or subscription as a JSON-RPC error. The SDK answers a thrown
 * error with its `code` and `message`; unlike McpError this one keeps the message as written,
 * so it starts with the HTTP status like the text of a refused tool call.
 */
export class ProtocolRefusal extends Error {
  override readonly name = 'ProtocolRefusal';

  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export function protocolError(
  error: unknown,
  notFoundCode: number = ErrorCode.InvalidParams,
): ProtocolRefusal {
  if (error instanceof ProtocolRefusal) return error;
  const text = refusalText(error);
  if (isUnexpected(error)) return new ProtocolRefusal(ErrorCode.InternalError, text);
  return new ProtocolRefusal(
    text.startsWith('404 ') ? notFoundCode : ErrorCode.InvalidParams,
    text,
  );
}
