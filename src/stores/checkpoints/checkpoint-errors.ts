// Errors the checkpoint stores answer with: STORE_FAILED for a save or read that did not
// happen, STORE_DAMAGED for a file whose content cannot be what the store wrote.
import { inspect } from 'node:util';
import { AppError, isAppError } from '../../core/index.js';

export function checkpointFailure(detail: string, cause?: unknown): AppError {
  if (isAppError(cause)) return cause;
  const reason =
    cause === undefined ? '' : `: ${cause instanceof Error ? cause.message : inspect(cause)}`;
  return new AppError('STORE_FAILED', { params: { detail: detail + reason }, cause });
}

export function checkpointDamaged(file: string, detail: string): AppError {
  return new AppError('STORE_DAMAGED', { params: { file, detail } });
}
