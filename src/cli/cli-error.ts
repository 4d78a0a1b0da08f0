// Why a command ended without success, and the exit code that says so: scripts and CI branch
// on the code, people read the message.
import { ApiError } from '../client/index.js';

/** 1: the server refused or something failed; 2: the command line itself is wrong. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

export class CliError extends Error {
  readonly exitCode: number;
  /** Lines printed under the message, e.g. field errors. */
  readonly details: readonly string[];

  constructor(message: string, options: { exitCode?: number; details?: readonly string[] } = {}) {
    super(message);
    this.name = 'CliError';
    this.exitCode = options.exitCode ?? EXIT.failed;
    this.details = options.details ?? [];
  }
}

/** The server's message and field errors, or the reason a call never reached it. */
export function explain(error: unknown, server: string): CliError {
  if (error instanceof CliError) return error;
  if (error instanceof ApiError) {
    const details = error.fields.map((field) => `${field.field}: ${field.message}`);
    const message = error.enveloped
      ? `${String(error.status)}: ${error.message}`
      : refusal(error.status);
    return new CliError(message, { details });
  }
  if (error instanceof TypeError && error.message === 'fetch failed') {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return new CliError(
      `Cannot reach the server at ${server}: ${cause?.code ?? cause?.message ?? 'no answer'}`,
    );
  }
  return new CliError(error instanceof Error ? error.message : String(error));
}

/** The access checks answer without a body (SPEC Authentication). */
function refusal(status: number): string {
  switch (status) {
    case 401:
      return '401: the server needs an API key (--key, SVCCLI_KEY or a context)';
    case 403:
      return '403: the key may not do this';
    default:
      return `The server answered ${String(status)}`;
  }
}
