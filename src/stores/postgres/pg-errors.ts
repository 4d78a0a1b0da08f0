// Errors the relational stores answer with: STORE_FAILED for a statement that did not happen,
// STORE_ROW_DAMAGED for a row whose content cannot be what a store wrote.
import { AppError, isAppError, messageOf } from '../../core/index.js';

export function storeFailure(detail: string, cause?: unknown): AppError {
  if (isAppError(cause)) return cause;
  const reason = cause === undefined ? '' : `: ${driverMessageOf(cause)}`;
  return new AppError('STORE_FAILED', { params: { detail: detail + reason }, cause });
}

export function rowDamaged(row: string, detail: string, cause?: unknown): AppError {
  return new AppError('STORE_ROW_DAMAGED', { params: { row, detail }, cause });
}

/** The message of a driver failure; a failed connection names the failure at each address. */
export function driverMessageOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) {
    // A failed connection to a name with several addresses says nothing by itself.
    return error.errors.map(driverMessageOf).join('; ');
  }
  return messageOf(error);
}
