// SPEC "Response envelope": one shape for every success and every error answer.
import { STATUS_CODES } from 'node:http';
import type { FieldError } from '../core/index.js';

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
  return { timestamp: new Date().toISOString(), status, message, data };
}

export function errorEnvelope(
  status: number,
  message: string,
  path: string,
  errors: readonly FieldError[] = [],
): ErrorEnvelope {
  return {
    timestamp: new Date().toISOString(),
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
