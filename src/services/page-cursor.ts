// Opaque page cursors of the paged lists (execution search, dead letters): where the last item
// of a page stood, as base64url JSON, refused as a field error when it cannot be read.
import { AppError } from '../core/index.js';

export function encodeCursor(position: object): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

/** The position a cursor holds, when `isPosition` accepts it; else a 400 naming `cursor`. */
export function decodeCursor<T>(cursor: string, isPosition: (value: unknown) => value is T): T {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (isPosition(parsed)) return parsed;
  } catch {
    // answered below
  }
  throw new AppError('VALIDATION_FAILED', {
    fieldErrors: [{ field: 'cursor', message: 'Invalid cursor' }],
  });
}
