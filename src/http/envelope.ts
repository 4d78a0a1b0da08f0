// SPEC "Response envelope": one shape for every success and every error answer.
import { STATUS_CODES } from 'node:http';
import { IsoTimes } from '../core/index.js';
import type { FieldError } from '../core/index.js';

/** Answers come many a millisecond: the time's text is made once per millisecond. */
const times = new IsoTimes();

export interface SuccessEnvelope<T> {
  readonly timestamp: string;
  readonly status: number;
  readonly message: string;
  readonly data: T;
}

export interface ErrorEnvelope {
  readonly timestamp: string;
  readonly status: number;
  readonly error: string;
  readonly message: string;
  readonly path: string;
  readonly errors?: readonly FieldError[];
}

export function successEnvelope<T>(status: number, message: string, data: T): SuccessEnvelope<T> {
  return { timestamp: times.of(Date.now()), status, message, data };
}

export function errorEnvelope(
  status: number,
  message: string,
  path: string,
  errors: readonly FieldError[] = [],
): ErrorEnvelope {
  return {
    timestamp: times.of(Date.now()),
    status,
    error: reasonPhrase(status),
    message,
    path,
    ...(errors.length > 0 ? { errors } : {}),
  };
}

export function reasonPhrase(status: number): string {
  return STATUS_CODES[status] ?? 'Unknown Status';
}
